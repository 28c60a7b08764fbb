/**
 * Threat: collecting free keys by the hundred from the developer page — from the many /64s of one
 * routed IPv6 /48, from addresses in many networks (a botnet), or by replaying one form token — and
 * doing it through several workers or instances so that no single process sees it all.
 * Client addresses are strings handed to app.fetch as the peer (documentation prefixes): nothing is sent.
 */
import { EventEmitter } from 'node:events';
import { afterEach, describe, expect, it } from 'vitest';
import { createIpcLedgers, serveLedgers, type Channel } from '../../src/cluster/ledger-ipc.js';
import { buildConfig } from '../../src/config.js';
import { ledgerPolicies } from '../../src/platform/ledger-policies.js';
import { createMemoryQuotaStore } from '../../src/platform/quota.js';
import { createTestApp, type TestApp } from '../helpers/app.js';
import { REDIS_MISSING_MESSAGE, redisServerPath, startRedisLab } from '../lab/redis.js';

const ORIGIN = 'http://netdiag.test';
const HOUR = 3_600_000;
const SECRET = 'the-secret-every-instance-shares';

const apps: TestApp[] = [];
afterEach(async () => {
  await Promise.all(apps.splice(0).map((a) => a.close()));
});
async function app(config: Record<string, any> = {}, overrides: Parameters<typeof createTestApp>[1] = {}) {
  const t = await createTestApp({ ...config, auth: { secret: SECRET, ...config.auth } }, overrides);
  apps.push(t);
  return t;
}

/** A fresh form token from the developer page, as a visitor at `peer` gets it. */
async function formToken(t: TestApp, peer: string): Promise<string> {
  const html = await (await t.app.fetch(new Request(`${ORIGIN}/`), { peerAddress: peer })).text();
  const token = /name="token" value="([^"]+)"/.exec(html)?.[1];
  if (!token) throw new Error('the developer page has no form token');
  return token;
}

/** Posts the form with `token` as a same-origin browser would. */
async function post(t: TestApp, token: string, peer: string): Promise<{ status: number; html: string; res: Response }> {
  const res = await t.app.fetch(
    new Request(`${ORIGIN}/keys`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin' },
      body: `token=${encodeURIComponent(token)}`,
    }),
    { peerAddress: peer },
  );
  return { status: res.status, html: await res.text(), res };
}

async function issue(t: TestApp, peer: string) {
  return post(t, await formToken(t, peer), peer);
}

describe('key issuance per client network', () => {
  it('counts an IPv6 client by its /48: three /64s of one /48 share one allowance', async () => {
    const t = await app({ auth: { issuePerIpPerDay: 2 } });
    expect((await issue(t, '2001:db8:1:1::1')).status).toBe(200);
    expect((await issue(t, '2001:db8:1:2::1')).status).toBe(200);
    const third = await issue(t, '2001:db8:1:ffff:1234::9');
    expect(third.status).toBe(429);
    expect(third.html).toContain('the network 2001:db8:1::/48 has received 2');
    expect(third.html).toContain('an IPv6 address counts with its whole /48 network');
    expect(Number(third.res.headers.get('retry-after'))).toBeGreaterThan(86_000);
    // the next /48 is another client
    expect((await issue(t, '2001:db8:2::1')).status).toBe(200);
  });

  it('counts an IPv4-mapped IPv6 address as the IPv4 address, not as part of ::ffff:0:0/48', async () => {
    const t = await app({ auth: { issuePerIpPerDay: 1 } });
    expect((await issue(t, '203.0.113.5')).status).toBe(200);
    const mapped = await issue(t, '::ffff:203.0.113.5');
    expect(mapped.status).toBe(429);
    expect(mapped.html).toContain('the address 203.0.113.5');
    // another IPv4 address, mapped, is another client
    expect((await issue(t, '::ffff:203.0.113.6')).status).toBe(200);
  });
});

describe('the hourly cap on keys issued to all clients', () => {
  it('refuses the next key from a new address once the cap is reached, and says when to retry', async () => {
    let now = Date.UTC(2026, 0, 1);
    const t = await app({ auth: { issuePerIpPerDay: 1, issuePerHour: 3 } }, { now: () => now });
    for (const peer of ['203.0.113.1', '203.0.113.2', '2001:db8:a::1']) expect((await issue(t, peer)).status).toBe(200);
    now += HOUR / 2;
    const capped = await issue(t, '2001:db8:b::1');
    expect(capped.status).toBe(429);
    expect(capped.html).toContain('Too many keys issued in the last hour');
    expect(capped.html).toContain('at most 3 keys per hour to all its visitors together');
    expect(capped.html).toContain('not about your address');
    expect(capped.html).toContain('The next key can be issued in 30 minutes');
    expect(capped.res.headers.get('retry-after')).toBe(String(30 * 60));
    expect(capped.html).not.toContain('id="api-key"');
    expect(t.logs.some((l) => l.event === 'key_issuance_capped')).toBe(true);
    // an hour after the first keys the cap has room again, and the refused client's own allowance
    // (one a day) was given back: its first key is still to come
    now += HOUR / 2;
    expect((await issue(t, '2001:db8:b::1')).status).toBe(200);
  });

  it('defaults to 100 keys an hour', () => {
    expect(buildConfig({}).auth.issuePerHour).toBe(100);
  });
});

describe('the form token', () => {
  it('is single-use: a replayed token is refused, whether its first post got a key or not', async () => {
    const t = await app({ auth: { issuePerIpPerDay: 1 } });
    const token = await formToken(t, '203.0.113.7');
    expect((await post(t, token, '203.0.113.7')).status).toBe(200);
    for (const peer of ['203.0.113.7', '198.51.100.1']) {
      const replay = await post(t, token, peer);
      expect(replay.status).toBe(403);
      expect(replay.html).toContain('This form was already used; reload the page');
      expect(replay.html).not.toContain('id="api-key"');
    }
    // a post refused after the token was checked (the address's limit) spends the token too
    const refusedToken = await formToken(t, '203.0.113.7');
    expect((await post(t, refusedToken, '203.0.113.7')).status).toBe(429);
    expect((await post(t, refusedToken, '198.51.100.2')).status).toBe(403);
  });

  it('admits exactly one of many concurrent posts of the same token', async () => {
    const t = await app({ auth: { issuePerIpPerDay: 50 } });
    const token = await formToken(t, '203.0.113.8');
    const statuses = await Promise.all(Array.from({ length: 10 }, () => post(t, token, '203.0.113.8')));
    expect(statuses.map((s) => s.status).sort()).toEqual([200, ...Array(9).fill(403)]);
  });
});

/** Two workers' channels to one primary, delivering asynchronously as Node's IPC does. */
function ipcPair(): [Channel, Channel] {
  const toPrimary = new EventEmitter();
  const toWorker = new EventEmitter();
  const copy = (m: unknown) => JSON.parse(JSON.stringify(m));
  return [
    { send: (m) => setImmediate(() => toPrimary.emit('message', copy(m))), on: (e, l) => toWorker.on(e, l) },
    { send: (m) => setImmediate(() => toWorker.emit('message', copy(m))), on: (e, l) => toPrimary.on(e, l) },
  ];
}

describe('across workers and instances', () => {
  it('holds across workers whose primary holds the issue ledger (no Redis)', async () => {
    const config = { auth: { issuePerIpPerDay: 1, issuePerHour: 2 } };
    // the primary's stores, built as src/cluster/primary.ts builds them
    const policies = ledgerPolicies(buildConfig(config));
    const primaryStores = {
      quota: createMemoryQuotaStore(policies.quota),
      issue: createMemoryQuotaStore(policies.issue),
      unkeyed: createMemoryQuotaStore(policies.unkeyed),
    };
    const workers: TestApp[] = [];
    for (let i = 0; i < 2; i++) {
      const [worker, primary] = ipcPair();
      serveLedgers(primary, primaryStores);
      workers.push(await app(config, { ledgers: createIpcLedgers(worker) }));
    }
    const [a, b] = workers as [TestApp, TestApp];
    const token = await formToken(a, '203.0.113.10');
    expect((await post(a, token, '203.0.113.10')).status).toBe(200);
    expect((await post(b, token, '203.0.113.11')).status).toBe(403); // replayed on the other worker
    expect((await issue(b, '2001:db8:1:1::1')).status).toBe(200);
    expect((await issue(a, '2001:db8:1:2::1')).status).toBe(429); // same /48, other worker
    expect((await issue(a, '203.0.113.12')).html).toContain('Too many keys issued in the last hour');
    await Promise.all(Object.values(primaryStores).map((s) => s.close()));
  });

  it.skipIf(!redisServerPath)('holds across instances that share Redis', async () => {
    if (!redisServerPath) console.warn(REDIS_MISSING_MESSAGE);
    const lab = await startRedisLab();
    try {
      const config = { store: { redisUrl: lab.url }, auth: { issuePerIpPerDay: 1, issuePerHour: 2 } };
      const a = await app(config);
      const b = await app(config);
      const token = await formToken(a, '203.0.113.20');
      expect((await post(a, token, '203.0.113.20')).status).toBe(200);
      const replay = await post(b, token, '203.0.113.21');
      expect(replay.status).toBe(403);
      expect(replay.html).toContain('This form was already used');
      expect((await issue(b, '2001:db8:5:1::1')).status).toBe(200);
      expect((await issue(a, '2001:db8:5:2::1')).status).toBe(429); // same /48, other instance
      expect((await issue(a, '203.0.113.22')).html).toContain('Too many keys issued in the last hour');
    } finally {
      await Promise.all(apps.splice(0).map((x) => x.close()));
      await lab.close();
    }
  });
});
