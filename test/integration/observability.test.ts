/**
 * Observability (issue 7): /healthz and /readyz, /metrics after real traffic (REST, GraphQL, a 401,
 * a 429, DNS-backed checks against a loopback DNS lab, TCP probes against a loopback listener),
 * the request id on every response, and the pino request log line. Loopback only.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app.js';
import { createCheckContext } from '../../src/loaders/context.js';
import { buildConfig } from '../../src/config.js';
import { createServices } from '../../src/create-services.js';
import { createJsonLogger } from '../../src/log.js';
import { READINESS_TIMEOUT_MS } from '../../src/web/health.js';
import type { Services } from '../../src/services.js';
import { createTestApp, graphql, TEST_KEY, type TestApp } from '../helpers/app.js';
import { rr, startDnsLab, type DnsLab } from '../lab/dns-server.js';
import { startTcpServer, unusedPort } from '../lab/tcp-server.js';

const PUBLIC = '93.184.216.34'; // a value only: my-ip never connects anywhere
const viaProxy = { 'x-forwarded-for': PUBLIC };
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The samples of a Prometheus text exposition (comments skipped). */
function parseExposition(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m) continue;
    const labels: Record<string, string> = {};
    for (const [, k, v] of (m[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) labels[k!] = v!;
    samples.push({ name: m[1]!, labels, value: Number(m[3]) });
  }
  return samples;
}

/** The value of the one sample with this name and (at least) these labels; 0 when there is none. */
function sampleValue(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  const found = samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
  if (found.length > 1) throw new Error(`${found.length} samples of ${name} match ${JSON.stringify(labels)}`);
  return found[0]?.value ?? 0;
}

/** The apps of this file serve /metrics on their API port, with this token (docs/operations.md "Metrics"). */
const METRICS_TOKEN = 'observability-metrics-token';
const METRICS_AUTHORIZATION = { authorization: `Bearer ${METRICS_TOKEN}` };

async function scrape(t: TestApp): Promise<Sample[]> {
  const res = await t.get('/metrics', { key: null, headers: METRICS_AUTHORIZATION });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  return parseExposition(await res.text());
}

let lab: DnsLab;
const apps: TestApp[] = [];
async function testApp(config: Record<string, any> = {}, overrides?: Parameters<typeof createTestApp>[1]) {
  const t = await createTestApp({ ...config, metrics: { token: METRICS_TOKEN, ...config.metrics } }, overrides);
  apps.push(t);
  return t;
}

beforeAll(async () => {
  lab = await startDnsLab({
    authoritative: false,
    records: [
      rr.a('example.test', '192.0.2.10'),
      rr.aaaa('example.test', '2001:db8::10'),
      rr.mx('example.test', 10, 'mx.example.test'),
      rr.txt('example.test', 'v=spf1 -all'),
      rr.ns('example.test', 'ns1.example.test'),
      rr.soa('example.test', { serial: 1, refresh: 3600, retry: 600, expire: 86400, minimum: 300 }),
    ],
  });
  lab.setBehaviour('sf.test', { servfail: true });
});
afterEach(async () => {
  await Promise.all(apps.splice(0).map((t) => t.close()));
});
afterAll(async () => {
  await lab.close();
});

describe('/healthz and /readyz', () => {
  it('/healthz answers without a key', async () => {
    const t = await testApp();
    const res = await t.get('/healthz', { key: null });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true });
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('/readyz is 200 without a key when no Redis is configured', async () => {
    const t = await testApp();
    const res = await t.get('/readyz', { key: null });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true });
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it('/readyz is 503 with the reason when the services are not ready', async () => {
    const t = await testApp();
    const reason = 'credit ledger unavailable: Redis at 127.0.0.1:6390 is unreachable';
    const app = createApp({ ...t.services, ready: async () => ({ ok: false, reason }) });
    const res = await app.fetch(new Request('http://netdiag.test/readyz'));
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({ ok: false, reason });
    // liveness does not depend on readiness: the process is fine, only its store is not
    expect((await app.fetch(new Request('http://netdiag.test/healthz'))).status).toBe(200);
  });

  it('/readyz is 503 when the check throws, without passing the error text on', async () => {
    const t = await testApp();
    const app = createApp({
      ...t.services,
      ready: async () => Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:6390 (user:secret)')),
    });
    const res = await app.fetch(new Request('http://netdiag.test/readyz'));
    expect(res.status).toBe(503);
    const body = await res.json();
    expect(body.ok).toBe(false);
    expect(body.reason).not.toContain('secret');
    expect(t.logs.find((l) => l.event === 'readiness_check_failed')?.message).toMatch(/ECONNREFUSED/);
  });

  it('/readyz is 503 within its bound when the check hangs', async () => {
    const t = await testApp();
    const app = createApp({ ...t.services, ready: () => new Promise<never>(() => {}) });
    const started = performance.now();
    const res = await app.fetch(new Request('http://netdiag.test/readyz'));
    expect(res.status).toBe(503);
    expect((await res.json()).reason).toMatch(/did not finish within/);
    expect(performance.now() - started).toBeLessThan(2 * READINESS_TIMEOUT_MS);
  });
});

describe('/metrics on the API port', () => {
  it('is the 404 of any unknown path unless metrics.token is set', async () => {
    const t = await createTestApp();
    apps.push(t);
    const res = await t.get('/metrics', { key: null });
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({
      ok: false,
      error: 'no such path: /metrics; the API lives under /api/v1/ and /graphql',
      meta: { tool: 'metrics', version: 'v1' },
    });
    // a bearer token changes nothing when none is configured
    expect((await t.get('/metrics', { key: null, headers: METRICS_AUTHORIZATION })).status).toBe(404);
  });

  it('with metrics.token, answers 401 without the token or with another, 200 with it', async () => {
    const t = await testApp();
    const without = await t.get('/metrics', { key: null });
    expect(without.status).toBe(401);
    expect(without.headers.get('www-authenticate')).toMatch(/^Bearer/);
    expect(await without.json()).toMatchObject({ ok: false, meta: { tool: 'metrics' } });
    const other = await t.get('/metrics', { key: null, headers: { authorization: `Bearer ${METRICS_TOKEN}x` } });
    expect(other.status).toBe(401);
    // an API key is no metrics token
    expect((await t.get('/metrics', { headers: { authorization: `Bearer ${TEST_KEY}` } })).status).toBe(401);
    const granted = await t.get('/metrics', { key: null, headers: METRICS_AUTHORIZATION });
    expect(granted.status).toBe(200);
    expect(await granted.text()).toContain('netdiag_requests_total{tool="metrics",status="401"} 3');
  });
});

describe('/metrics', () => {
  it('counts requests, statuses, 429s, credits, DNS questions by outcome and kind, and cache hits', async () => {
    // Credits for exactly: myIp over GraphQL (1) + my-ip (1) + three dns-lookups (3 × 3) = 11.
    const t = await testApp({
      server: { trustedProxies: ['127.0.0.1/32'] },
      quota: { credits: 11 },
      dns: { system: [`127.0.0.1:${lab.port}`], timeoutMs: 500 },
    });
    expect((await graphql(t, '{ myIp { ip } }', {}, { headers: viaProxy })).status).toBe(200);
    expect((await t.get('/api/v1/my-ip', { headers: viaProxy })).status).toBe(200);
    expect((await t.get('/api/v1/my-ip', { key: null })).status).toBe(401);
    lab.clearQueries();
    expect((await t.get('/api/v1/dns-lookup?domain=example.test')).status).toBe(200);
    // one question per record type (a resend of one a busy machine answered late is the same question)
    const asked = lab.countQuestions();
    expect(asked).toBeGreaterThan(0);
    expect((await t.get('/api/v1/dns-lookup?domain=example.test')).status).toBe(200); // from the answer cache
    expect(lab.countQuestions()).toBe(asked);
    expect((await t.get('/api/v1/dns-lookup?domain=sf.test')).status).toBe(502); // SERVFAIL: charged, counted
    expect((await t.get('/api/v1/dns-lookup?domain=example.test')).status).toBe(429);
    expect((await t.get('/api/v1/no-such-tool-a1b2c3')).status).toBe(404);

    const m = await scrape(t);
    expect(sampleValue(m, 'netdiag_requests_total', { tool: 'graphql', status: '200' })).toBe(1);
    expect(sampleValue(m, 'netdiag_requests_total', { tool: 'my-ip', status: '200' })).toBe(1);
    expect(sampleValue(m, 'netdiag_requests_total', { tool: 'my-ip', status: '401' })).toBe(1);
    expect(sampleValue(m, 'netdiag_requests_total', { tool: 'dns-lookup', status: '200' })).toBe(2);
    expect(sampleValue(m, 'netdiag_requests_total', { tool: 'dns-lookup', status: '502' })).toBe(1);
    expect(sampleValue(m, 'netdiag_requests_total', { tool: 'dns-lookup', status: '429' })).toBe(1);
    expect(sampleValue(m, 'netdiag_quota_exceeded_total', { tool: 'dns-lookup' })).toBe(1);
    expect(sampleValue(m, 'netdiag_request_duration_seconds_count', { tool: 'dns-lookup' })).toBe(4);
    // a caller-chosen path never becomes a label value
    expect(sampleValue(m, 'netdiag_requests_total', { tool: 'other', status: '404' })).toBe(1);
    expect(m.some((s) => Object.values(s.labels).includes('no-such-tool-a1b2c3'))).toBe(false);

    // a GraphQL operation's credits count under the tools of its checks
    expect(sampleValue(m, 'netdiag_credits_charged_total', { tool: 'my-ip' })).toBe(2);
    expect(sampleValue(m, 'netdiag_credits_charged_total', { tool: 'dns-lookup' })).toBe(9);

    // DNS: the first lookup's questions answered NOERROR and missed the cache, the second hit it;
    // sf.test failed with SERVFAIL once per type (failures are never cached)
    expect(sampleValue(m, 'netdiag_upstream_questions_total', { family: 'dns', outcome: 'NOERROR' })).toBe(asked);
    expect(sampleValue(m, 'netdiag_upstream_questions_total', { family: 'dns', outcome: 'failed' })).toBe(asked);
    expect(sampleValue(m, 'netdiag_upstream_failures_total', { family: 'dns', kind: 'SERVFAIL' })).toBe(asked);
    expect(sampleValue(m, 'netdiag_upstream_duration_seconds_count', { family: 'dns' })).toBe(2 * asked);
    expect(sampleValue(m, 'netdiag_cache_lookups_total', { cache: 'dns', result: 'miss' })).toBe(2 * asked);
    expect(sampleValue(m, 'netdiag_cache_lookups_total', { cache: 'dns', result: 'hit' })).toBe(asked);
  });

  it('counts credits given back for a refused target', async () => {
    const t = await testApp();
    // 10.0.0.1 is refused by the target guard before any connection (decisions §7): 400, refunded
    const res = await t.get('/api/v1/port-checker?host=10.0.0.1&port=80');
    expect(res.status).toBe(400);
    const m = await scrape(t);
    expect(sampleValue(m, 'netdiag_credits_charged_total', { tool: 'port-checker' })).toBe(3);
    expect(sampleValue(m, 'netdiag_credits_refunded_total', { tool: 'port-checker' })).toBe(3);
    expect(res.headers.get('ratelimit-remaining')).toBe('300');
  });

  it('counts each distinct connection question once per request, by outcome', async () => {
    const t = await testApp({ targets: { allow: ['127.0.0.0/8'] } });
    const listener = await startTcpServer((socket) => socket.end());
    const closedPort = await unusedPort();
    try {
      const ctx = createCheckContext(t.services, AbortSignal.timeout(5000));
      const open = { ip: '127.0.0.1', port: listener.port, target: '127.0.0.1' };
      const [a, b] = await Promise.all([ctx.tcpProbe(open), ctx.tcpProbe(open)]);
      expect([a.state, b.state]).toEqual(['open', 'open']);
      expect((await ctx.tcpProbe({ ip: '127.0.0.1', port: closedPort, target: '127.0.0.1' })).state).toBe('closed');
      // a second request asks again: nothing is kept across requests
      await createCheckContext(t.services, AbortSignal.timeout(5000)).tcpProbe(open);
      const m = await scrape(t);
      expect(sampleValue(m, 'netdiag_upstream_questions_total', { family: 'tcp', outcome: 'open' })).toBe(2);
      expect(sampleValue(m, 'netdiag_upstream_questions_total', { family: 'tcp', outcome: 'closed' })).toBe(1);
      expect(listener.connections()).toBe(2);
    } finally {
      await listener.close();
    }
  });

  it('keeps a registry per app: two apps in one process do not share counts', async () => {
    const first = await testApp({ server: { trustedProxies: ['127.0.0.1/32'] } });
    const second = await testApp();
    expect((await first.get('/api/v1/my-ip', { headers: viaProxy })).status).toBe(200);
    expect(sampleValue(await scrape(first), 'netdiag_requests_total', { tool: 'my-ip', status: '200' })).toBe(1);
    expect(sampleValue(await scrape(second), 'netdiag_requests_total', { tool: 'my-ip', status: '200' })).toBe(0);
  });
});

describe('request id', () => {
  it('echoes a sane incoming x-request-id on REST, GraphQL, health, 401 and 404 responses', async () => {
    const t = await testApp({ server: { trustedProxies: ['127.0.0.1/32'] } });
    const id = 'Root=1-67891233-abcdef012345678912345678';
    const responses = [
      await t.get('/api/v1/my-ip', { headers: { ...viaProxy, 'x-request-id': id } }),
      await t.get('/api/v1/my-ip', { key: null, headers: { 'x-request-id': id } }),
      await t.get('/api/v1/nothing-here', { headers: { 'x-request-id': id } }),
      await t.get('/healthz', { key: null, headers: { 'x-request-id': id } }),
      await t.get('/readyz', { key: null, headers: { 'x-request-id': id } }),
      await t.get('/metrics', { key: null, headers: { 'x-request-id': id, ...METRICS_AUTHORIZATION } }),
    ];
    expect(responses.map((r) => r.status)).toEqual([200, 401, 404, 200, 200, 200]);
    for (const r of responses) expect(r.headers.get('x-request-id')).toBe(id);
    const gql = await graphql(t, '{ myIp { ip } }', {}, { headers: { ...viaProxy, 'x-request-id': id } });
    expect(gql.status).toBe(200);
    expect(gql.headers.get('x-request-id')).toBe(id);
  });

  it('generates a fresh id when there is none or the incoming one is not sane', async () => {
    const t = await testApp();
    const ids = new Set<string>();
    for (const incoming of [undefined, 'a'.repeat(129), 'two words', '"quoted"', 'semi;colon', '']) {
      const res = await t.get('/healthz', {
        key: null,
        headers: incoming === undefined ? {} : { 'x-request-id': incoming },
      });
      const id = res.headers.get('x-request-id') ?? '';
      expect(id).toMatch(UUID);
      ids.add(id);
    }
    expect(ids.size).toBe(6);
  });

  it('is on the 500 of an internal error, and in its log line', async () => {
    const t = await testApp();
    const broken: Services = {
      ...t.services,
      keyring: {
        ...t.services.keyring,
        verify: () => {
          throw new Error('keyring exploded');
        },
      },
    };
    const res = await createApp(broken).fetch(
      new Request('http://netdiag.test/api/v1/my-ip', { headers: { 'x-api-key': TEST_KEY, 'x-request-id': 'err-1' } }),
    );
    expect(res.status).toBe(500);
    expect(res.headers.get('x-request-id')).toBe('err-1');
    expect(t.logs.find((l) => l.event === 'request_failed')).toMatchObject({
      requestId: 'err-1',
      message: 'keyring exploded',
    });
  });
});

describe('JSON log lines (pino)', () => {
  async function appWithRealLogger() {
    const lines: string[] = [];
    const services = await createServices(
      buildConfig({
        server: { dataDir: mkdtempSync(join(tmpdir(), 'netdiag-obs-')), trustedProxies: ['127.0.0.1/32'] },
        auth: { keys: [TEST_KEY] },
      }),
      createJsonLogger((line) => lines.push(line)),
    );
    const app = createApp(services);
    const records = () =>
      lines
        .join('')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Record<string, unknown>);
    return { app, services, lines, records };
  }

  it('writes one request line with the request id and the key id, never the key', async () => {
    const { app, services, lines, records } = await appWithRealLogger();
    try {
      const res = await app.fetch(
        new Request(`http://netdiag.test/api/v1/my-ip?api_key=${TEST_KEY}`, {
          headers: { ...viaProxy, 'x-api-key': TEST_KEY, 'x-request-id': 'trace-42' },
        }),
        { peerAddress: '127.0.0.1' },
      );
      expect(res.status).toBe(200);
      const request = records().find((r) => r.event === 'request');
      expect(request).toMatchObject({
        level: 'info',
        requestId: 'trace-42',
        method: 'GET',
        tool: 'my-ip',
        status: 200,
        path: '/api/v1/my-ip?api_key=REDACTED',
        keyId: expect.stringMatching(/^s_/),
      });
      expect(new Date(request!.time as string).toISOString()).toBe(request!.time);
      expect(typeof request!.durationMs).toBe('number');
      expect(request).not.toHaveProperty('headers');
      expect(lines.join('')).not.toContain(TEST_KEY);
    } finally {
      await services.close();
    }
  });

  it('logs the generated id that the response carries', async () => {
    const { app, services, records } = await appWithRealLogger();
    try {
      const res = await app.fetch(new Request('http://netdiag.test/api/v1/my-ip'), { peerAddress: '127.0.0.1' });
      expect(res.status).toBe(401);
      const id = res.headers.get('x-request-id');
      expect(id).toMatch(UUID);
      expect(records().find((r) => r.event === 'request')).toMatchObject({ requestId: id, status: 401, keyId: null });
    } finally {
      await services.close();
    }
  });

  it('censors a field named like a key if one is ever logged', () => {
    const lines: string[] = [];
    createJsonLogger((line) => lines.push(line)).error('oops', {
      api_key: TEST_KEY,
      headers: { 'x-api-key': TEST_KEY },
    });
    expect(lines.join('')).not.toContain(TEST_KEY);
    expect(JSON.parse(lines[0]!)).toMatchObject({
      level: 'error',
      event: 'oops',
      api_key: 'REDACTED',
      headers: { 'x-api-key': 'REDACTED' },
    });
  });
});

describe('request log', () => {
  it('logs a 5xx answer at warn with the reason its client was given, and a 2xx at info without one', async () => {
    const app = await createTestApp();
    try {
      await app.get('/api/v1/dns-lookup?domain=example.com');
      await app.get('/api/v1/ip-info?target=8.8.8.8');
      const requests = app.logs.filter((l) => l.event === 'request');
      const failed = requests.find((l) => l.tool === 'dns-lookup');
      expect(failed).toMatchObject({ level: 'warn', status: 502 });
      // the client (and so the request line) reads "the service's resolver"; the operator's log says where it is
      expect(failed?.reason).toMatch(/^the service's resolver /);
      expect(app.logs.find((l) => l.event === 'own_resolver_failed')).toMatchObject({
        level: 'warn',
        upstream: '127.0.0.1:9',
      });
      const answered = requests.find((l) => l.tool === 'ip-info');
      expect(answered).toMatchObject({ level: 'info', status: 200 });
      expect(answered).not.toHaveProperty('reason');
    } finally {
      await app.close();
    }
  });
});
