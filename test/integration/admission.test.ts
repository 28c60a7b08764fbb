/**
 * Admission control end to end (docs/operations.md "Under load"): a check request past the instance's capacity is
 * shed with 503 + Retry-After before any work or charge, a key past its concurrency cap gets a 429 that
 * says so, /healthz and /metrics still answer and /readyz reports the overload.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { rr, startDnsLab, type DnsLab } from '../lab/dns-server.js';
import { createTestApp, graphql, TEST_KEY, type TestApp } from '../helpers/app.js';

const OTHER_KEY = 'other-key-0123456789';
/** /metrics on the API port needs its token (docs/operations.md "Metrics") */
const METRICS_TOKEN = 'admission-metrics-token';
let lab: DnsLab;
let t: TestApp;

beforeAll(async () => {
  lab = await startDnsLab({
    authoritative: false,
    records: [rr.a('fast.test', '192.0.2.2')],
  });
  t = await createTestApp({
    auth: { keys: [TEST_KEY, OTHER_KEY] },
    dns: { system: [`127.0.0.1:${lab.port}`], timeoutMs: 5_000 },
    admission: { maxInFlight: 1, maxQueued: 0, perKeyInFlight: 1 },
    metrics: { token: METRICS_TOKEN },
  });
});
afterAll(async () => {
  await t.close();
  await lab.close();
});
beforeEach(() => {
  lab.clearQueries();
  lab.clearBehaviours();
});

/**
 * Starts a dns-lookup of a name the lab answers slowly and resolves, once the lab has seen its first
 * question, with the pending response (wrapped: an async function would wait for a returned promise).
 */
let slowNames = 0;
async function holdOneSlot(key: string): Promise<{ held: Promise<Response> }> {
  const name = `slow${++slowNames}.test`; // a new name each time: answers are cached across requests
  lab.records.push(rr.a(name, '192.0.2.1'));
  lab.setBehaviour(name, { delayMs: 400 });
  const held = t.get(`/api/v1/dns-lookup?domain=${name}`, { key });
  while (lab.countQueries(name) === 0) await new Promise((r) => setTimeout(r, 5));
  return { held };
}

async function metric(name: string): Promise<string[]> {
  const scrape = await t.get('/metrics', { key: null, headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  const text = await scrape.text();
  return text.split('\n').filter((l) => l.startsWith(name));
}

describe('admission control', () => {
  it('sheds a check past capacity with a 503 envelope and Retry-After, charging nothing', async () => {
    const { held } = await holdOneSlot(TEST_KEY);
    const shed = await t.get('/api/v1/dns-lookup?domain=fast.test', { key: OTHER_KEY });
    expect(shed.status).toBe(503);
    expect(shed.headers.get('retry-after')).toBe('2');
    const body = await shed.json();
    expect(body).toMatchObject({ ok: false, meta: { tool: 'dns-lookup', version: 'v1' } });
    expect(body.error).toMatch(/overloaded.*try again in 2 s \(nothing was charged\)/);
    expect(lab.countQueries('fast.test')).toBe(0);

    // liveness and metrics answer whatever the load; readiness drains the instance
    expect((await t.get('/healthz', { key: null })).status).toBe(200);
    const ready = await t.get('/readyz', { key: null });
    expect(ready.status).toBe(503);
    expect((await ready.json()).reason).toMatch(/overloaded/);
    expect(await metric('netdiag_shed_total')).toContain('netdiag_shed_total{reason="queue-full"} 1');
    expect(await metric('netdiag_checks_in_flight')).toContain('netdiag_checks_in_flight 1');
    // no slot has freed yet while all were taken: no rate, and the wait is the (test's still) loop's
    expect(await metric('netdiag_admission_wait_seconds')).toEqual(['netdiag_admission_wait_seconds 0']);

    expect((await held).status).toBe(200);
    expect((await t.get('/readyz', { key: null })).status).toBe(200);
    // OTHER_KEY was never charged: its allowance is whole
    const after = await t.get('/api/v1/dns-lookup?domain=fast.test', { key: OTHER_KEY });
    expect(after.status).toBe(200);
    expect(after.headers.get('ratelimit-remaining')).toBe(String(300 - 3));
  });

  it('answers a GraphQL operation past capacity with a 503 and an OVERLOADED error', async () => {
    const { held } = await holdOneSlot(TEST_KEY);
    const res = await graphql(t, '{ dnsLookup(domain: "fast.test") { rcode } }', undefined, { key: OTHER_KEY });
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('2');
    expect(res.body.errors[0].extensions).toEqual({ code: 'OVERLOADED', status: 503 });
    await held;
  });

  it('refuses a key its second request in flight with a 429 about concurrency, not the allowance', async () => {
    const { held } = await holdOneSlot(TEST_KEY);
    const refused = await t.get('/api/v1/dns-lookup?domain=fast.test');
    expect(refused.status).toBe(429);
    expect((await refused.json()).error).toMatch(/requests in flight.*not the credit allowance/);
    expect(await metric('netdiag_shed_total{reason="key-concurrency"}')).toEqual([
      'netdiag_shed_total{reason="key-concurrency"} 1',
    ]);
    expect(await metric('netdiag_quota_exceeded_total')).not.toContain(
      'netdiag_quota_exceeded_total{tool="dns-lookup"} 1',
    );
    expect((await held).status).toBe(200);
  });
});

describe('coalescing of upstream questions across requests', () => {
  it('asks 20 concurrent dns-lookups of one uncached name upstream once per type (7), not 140 times', async () => {
    const many = await createTestApp({
      auth: { keys: Array.from({ length: 20 }, (_, i) => `coalesce-key-${String(i).padStart(4, '0')}`) },
      dns: { system: [`127.0.0.1:${lab.port}`], timeoutMs: 5_000 },
    });
    try {
      lab.records.push(rr.a('shared.test', '192.0.2.7'));
      lab.setBehaviour('shared.test', { delayMs: 200 });
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          many.get('/api/v1/dns-lookup?domain=shared.test', { key: `coalesce-key-${String(i).padStart(4, '0')}` }),
        ),
      );
      for (const answer of answers) {
        expect(answer.status).toBe(200);
        expect((await answer.json()).data.records.A).toEqual(['192.0.2.7']);
      }
      expect(lab.countQueries('shared.test')).toBe(7);
    } finally {
      await many.close();
    }
  });
});
