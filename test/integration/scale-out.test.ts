/**
 * Several instances sharing one real redis-server on loopback (issue 7, "Scale-out"): one static key
 * used across instances concurrently is held to its allowance, with consistent RateLimit headers;
 * refunds land in the shared ledger; with Redis stopped or hung every charged request fails closed
 * with 503 (never a success) and readiness says why; when Redis is back the instances recover.
 * Last, two real `tsx src/main.ts` processes: 330 concurrent requests, exactly 300 admitted.
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { REDIS_COMMAND_TIMEOUT_MS } from '../../src/platform/redis.js';
import { createTestApp, graphql, type TestApp } from '../helpers/app.js';
import { startService } from '../helpers/process.js';
import { REDIS_MISSING_MESSAGE, redisServerPath, startRedisLab, type RedisLab } from '../lab/redis.js';
import { rr, startDnsLab } from '../lab/dns-server.js';
import { startWhoisLab } from '../lab/whois-server.js';

if (!redisServerPath) console.warn(REDIS_MISSING_MESSAGE);

const PUBLIC = '93.184.216.34'; // a value only: my-ip never connects anywhere
const viaProxy = { 'x-forwarded-for': PUBLIC };

describe.skipIf(!redisServerPath)('scale-out on Redis', () => {
  let lab: RedisLab;
  let apps: TestApp[] = [];

  beforeAll(async () => {
    lab = await startRedisLab();
  });
  afterAll(async () => {
    await lab?.close();
  });
  beforeEach(async () => {
    if (!lab.running) await lab.start();
  });
  afterEach(async () => {
    await Promise.all(apps.map((a) => a.close()));
    apps = [];
  });

  /** Two in-process instances sharing the lab's Redis; each test uses its own static key (a fresh ledger). */
  async function twoInstances(key: string, quota: Record<string, unknown>): Promise<[TestApp, TestApp]> {
    const config = {
      server: { trustedProxies: ['127.0.0.1/32'] },
      auth: { keys: [key] },
      store: { redisUrl: lab.url },
      quota,
      // these tests are about the shared ledger: one key sends many requests at once
      admission: { perKeyInFlight: 1000 },
    };
    apps = [await createTestApp(config), await createTestApp(config)];
    return apps as [TestApp, TestApp];
  }

  it('holds one key used on two instances at once to its allowance, with consistent headers', async () => {
    const key = 'scale-key-concurrent';
    const [a, b] = await twoInstances(key, { credits: 30, costs: { 'my-ip': 3 } });
    const responses = await Promise.all(
      Array.from({ length: 40 }, (_, i) => (i % 2 ? a : b).get('/api/v1/my-ip', { key, headers: viaProxy })),
    );
    const ok = responses.filter((r) => r.status === 200);
    const refused = responses.filter((r) => r.status === 429);
    expect(ok).toHaveLength(10);
    expect(refused).toHaveLength(30);
    // one ledger: each admitted request saw its own place in it, whichever instance served it
    expect(ok.map((r) => Number(r.headers.get('ratelimit-remaining'))).sort((x, y) => x - y)).toEqual([
      0, 3, 6, 9, 12, 15, 18, 21, 24, 27,
    ]);
    for (const r of responses) {
      expect(r.headers.get('ratelimit-policy')).toBe('"daily";q=30;w=86400');
      expect(Number(r.headers.get('ratelimit-reset'))).toBeGreaterThanOrEqual(86_399);
    }
    for (const r of refused) {
      expect(r.headers.get('ratelimit-remaining')).toBe('0');
      expect(Number(r.headers.get('retry-after'))).toBeGreaterThanOrEqual(86_399);
      expect((await r.json()).error).toMatch(/costs 3 credits and 0 of 30 are left/);
    }
    // both instances now refuse the key, over GraphQL too
    expect((await graphql(a, '{ myIp { ip } }', {}, { key, headers: viaProxy })).status).toBe(429);
    expect((await b.get('/api/v1/my-ip', { key, headers: viaProxy })).status).toBe(429);
  });

  it('refunds into the shared ledger: a refused target on one instance costs nothing on the other', async () => {
    const key = 'scale-key-refund';
    const [a, b] = await twoInstances(key, { credits: 30, costs: { 'my-ip': 1, 'port-checker': 5 } });
    // the target guard refuses loopback during execution (nothing is sent); the 5 credits come back
    const refused = await graphql(a, '{ portChecker(host: "127.0.0.2", port: 9) { status } }', {}, { key });
    expect(refused.body.errors[0].extensions.code).toBe('TARGET_REFUSED');
    expect(refused.headers.get('ratelimit-remaining')).toBe('30');
    const next = await b.get('/api/v1/my-ip', { key, headers: viaProxy });
    expect(next.status).toBe(200);
    expect(next.headers.get('ratelimit-remaining')).toBe('29');
  });

  it('fails closed with 503 while Redis is stopped, says why in readiness, and recovers when it is back', async () => {
    const key = 'scale-key-outage';
    const [a, b] = await twoInstances(key, { credits: 1_000_000, costs: { 'my-ip': 1 } });
    expect(await a.services.ready()).toEqual({ ok: true });

    // requests keep coming on both instances while Redis goes away, until each has had 10 answers after
    let stopped = false;
    const seen: Array<{ status: number; afterStop: boolean; body: any }> = [];
    const traffic = (app: TestApp) =>
      (async () => {
        let afterStopCount = 0;
        while (afterStopCount < 10) {
          const afterStop = stopped;
          const res = await app.get('/api/v1/my-ip', { key, headers: viaProxy });
          seen.push({ status: res.status, afterStop, body: await res.json() });
          if (afterStop) afterStopCount++;
          // A 503 for a disconnected client settles through microtasks alone: yield, or lab.stop() never sees its exit event.
          await new Promise((r) => setImmediate(r));
        }
      })();
    const running = Promise.all([traffic(a), traffic(b)]);
    await new Promise((r) => setTimeout(r, 50));
    await lab.stop();
    stopped = true;
    await running;

    expect(seen.every((s) => s.status === 200 || s.status === 503)).toBe(true);
    const afterStop = seen.filter((s) => s.afterStop);
    expect(afterStop.length).toBeGreaterThanOrEqual(20);
    for (const s of afterStop) {
      expect(s.status).toBe(503);
      expect(s.body).toEqual({
        ok: false,
        // the client reads the kind of failure, never the store's address (that goes to the log)
        error: expect.stringMatching(/^credit ledger unavailable: the shared store is unreachable; the service log/),
        meta: { tool: 'my-ip', version: 'v1' },
      });
    }
    const gql = await graphql(b, '{ myIp { ip } }', {}, { key, headers: viaProxy });
    expect(gql.status).toBe(503);
    expect(gql.body.errors[0].extensions.code).toBe('UNAVAILABLE');
    expect(gql.body.data ?? null).toBeNull();
    for (const app of [a, b]) {
      const readiness = await app.services.ready();
      expect(readiness.ok).toBe(false);
      expect(readiness.reason).toMatch('the shared store (Redis) is unreachable');
      expect(readiness.reason).not.toContain(String(lab.port));
    }
    // /readyz tells the balancer to stop sending traffic here, and why
    const readyz = await a.get('/readyz', { key: null });
    expect(readyz.status).toBe(503);
    const readyzReason = (await readyz.json()).reason;
    expect(readyzReason).toMatch('the shared store (Redis) is unreachable');
    expect(readyzReason).not.toContain(String(lab.port));
    // a key-less request is still refused as before (no ledger involved)
    expect((await a.get('/api/v1/my-ip', { key: null })).status).toBe(401);

    await lab.start();
    await expect
      .poll(async () => (await a.services.ready()).ok && (await b.services.ready()).ok, {
        timeout: 5_000,
        interval: 50,
      })
      .toBe(true);
    expect((await a.get('/readyz', { key: null })).status).toBe(200);
    expect((await a.get('/api/v1/my-ip', { key, headers: viaProxy })).status).toBe(200);
    expect((await b.get('/api/v1/my-ip', { key, headers: viaProxy })).status).toBe(200);
  });

  it('answers 503 within the command time-out when Redis hangs (no request waits for retries)', async () => {
    const key = 'scale-key-hang';
    const [a] = await twoInstances(key, { credits: 10, costs: { 'my-ip': 1 } });
    lab.pause();
    try {
      const started = performance.now();
      const res = await a.get('/api/v1/my-ip', { key, headers: viaProxy });
      expect(performance.now() - started).toBeLessThan(2 * REDIS_COMMAND_TIMEOUT_MS + 500);
      expect(res.status).toBe(503);
      expect((await res.json()).error).toMatch(
        /^credit ledger unavailable: the shared store (did not reply in time|is unreachable); the service log names the server and the cause$/,
      );
    } finally {
      lab.resume();
    }
  });

  it('starts while Redis is down (not ready, 503s), then serves once Redis comes up', async () => {
    const key = 'scale-key-late';
    await lab.stop();
    const [a] = await twoInstances(key, { credits: 10, costs: { 'my-ip': 1 } });
    expect((await a.services.ready()).ok).toBe(false);
    expect((await a.get('/api/v1/my-ip', { key, headers: viaProxy })).status).toBe(503);
    await lab.start();
    await expect.poll(async () => (await a.services.ready()).ok, { timeout: 5_000, interval: 50 }).toBe(true);
    expect((await a.get('/api/v1/my-ip', { key, headers: viaProxy })).status).toBe(200);
  });

  it('shares WHOIS answers through Redis: a look-up on one instance is a hit on the other', async () => {
    const root = 'whois.root.test';
    const registry = 'whois.registry.test';
    const whois = await startWhoisLab({
      [root]: { '*': `refer:        ${registry}\n\ndomain:       SHARETEST\n` },
      [registry]: {
        'shared.sharetest': [
          'Domain Name: SHARED.SHARETEST',
          'Registrar: Shared Registrar Inc.',
          'Registry Expiry Date: 2030-01-01T00:00:00Z',
          '',
        ].join('\r\n'),
      },
    });
    const dns = await startDnsLab({
      authoritative: false,
      records: [...whois.addresses].map(([name, address]) => rr.a(name, address)),
    });
    try {
      const key = 'scale-key-whois';
      const config = {
        auth: { keys: [key] },
        store: { redisUrl: lab.url },
        dns: { system: [`127.0.0.1:${dns.port}`] },
        whois: { server: root, port: whois.port, timeoutMs: 1000 },
        rdap: { enabled: false },
        targets: { allow: ['127.0.0.0/8'] }, // the WHOIS lab lives on loopback
      };
      apps = [await createTestApp(config), await createTestApp(config)];
      const [a, b] = apps as [TestApp, TestApp];
      const first = await a.get('/api/v1/whois?domain=shared.sharetest', { key });
      expect(first.status).toBe(200);
      expect(whois.queries).toHaveLength(2); // root, then registry
      const second = await b.get('/api/v1/whois?domain=www.shared.sharetest', { key });
      expect(second.status).toBe(200);
      expect(whois.queries).toHaveLength(2); // nothing asked: b found a's answer in Redis
      const [one, two] = [(await first.json()).data, (await second.json()).data];
      expect(two).toEqual({ ...one, domain: 'www.shared.sharetest' });
      expect(two.registrar).toBe('Shared Registrar Inc.');
    } finally {
      await whois.close();
      await dns.close();
    }
  });

  describe('two real processes (npm start)', () => {
    it('holds a key to 300 credits across two instances: 330 concurrent requests, exactly 300 admitted', async () => {
      const key = 'scale-key-processes';
      const config = {
        server: { host: '127.0.0.1', port: 0, trustedProxies: ['127.0.0.1/32'] },
        auth: { keys: [key], secret: 'shared-secret-0123456789abcdef' },
        store: { redisUrl: lab.url },
        quota: { costs: { 'my-ip': 1 } },
        // about the shared ledger: one key sends 330 requests at once
        admission: { perKeyInFlight: 1000 },
      };
      const instances = [startService(config), startService(config)];
      try {
        const bases = (await Promise.all(instances.map((i) => i.listening))).map((address) => `http://${address}`);
        const responses = await Promise.all(
          Array.from({ length: 330 }, (_, i) =>
            fetch(`${bases[i % 2]}/api/v1/my-ip`, { headers: { 'x-api-key': key, ...viaProxy } }).then(async (r) => ({
              status: r.status,
              remaining: r.headers.get('ratelimit-remaining'),
              body: await r.json(),
            })),
          ),
        );
        const statuses: Record<number, number> = {};
        for (const r of responses) statuses[r.status] = (statuses[r.status] ?? 0) + 1;
        expect(statuses).toEqual({ 200: 300, 429: 30 });
        expect(new Set(responses.filter((r) => r.status === 200).map((r) => r.remaining)).size).toBe(300);
        expect(responses.filter((r) => r.status === 429).every((r) => r.remaining === '0')).toBe(true);
      } finally {
        for (const i of instances) i.child.kill('SIGTERM');
      }
      expect(await Promise.all(instances.map((i) => i.exited))).toEqual([0, 0]);
      for (const i of instances) {
        const events = i
          .output()
          .trim()
          .split('\n')
          .map((l) => JSON.parse(l).event);
        expect(events).not.toContain('redis_unreachable');
        expect(events.at(-1)).toBe('stopped');
      }
    }, 90_000); // two services started and 330 requests, on a machine that may be busy
  });
});
