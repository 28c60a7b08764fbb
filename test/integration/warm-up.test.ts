/**
 * Warm before ready (src/warm-up/warm-up.ts): the warm-up's requests are answered by fakes on loopback
 * (test/setup/loopback-only.ts refuses anything else), leave nothing behind in the worker's own state,
 * and build the real app's documents. That a fresh worker's first answers are then as fast as its tenth
 * is measured by bench/warm-start.ts (a time, kept out of the tests).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WARM_UP_NAME } from '../../src/warm-up/fake-upstreams.js';
import { warmUp } from '../../src/warm-up/warm-up.js';
import { createTestApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('the warm-up', () => {
  it("answers every one of its requests, and leaves the worker's ledgers, caches, counts and logs as they were", async () => {
    const metricsBefore = await t.services.metrics.registry.metrics();
    const report = await warmUp(t.services, t.app);
    expect(report).toMatchObject({ failed: [], cutShort: false });
    expect(t.logs).toEqual([]);
    expect(await t.services.metrics.registry.metrics()).toBe(metricsBefore);
    // the worker's DNS cache holds no fake answer: its own (closed) resolver is asked, and refuses
    const lookup = await t.get(`/api/v1/dns-lookup?domain=${WARM_UP_NAME}`);
    expect(lookup.status).toBe(502);
    // and its key was charged for that one call only
    expect(lookup.headers.get('ratelimit-remaining')).toBe(String(300 - 3));
  });

  it("builds the real app's documents before a visitor asks for them", async () => {
    let built = 0;
    const prepare = t.app.prepare.bind(t.app);
    const app = { ...t.app, prepare: () => prepare().then(() => void built++) };
    await warmUp(t.services, app);
    expect(built).toBe(1);
    const openapi = await t.get('/api/v1/openapi.json', { key: null });
    expect(openapi.status).toBe(200);
  });
});
