/** The answers while the app loads (src/web/starting.ts), over a real socket. */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { whileStarting } from '../../../src/web/starting.js';

let server: Server;
let base: string;
beforeAll(async () => {
  server = createServer(whileStarting);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

describe('while the app is loading', () => {
  it('is alive (/healthz 200) but not ready (/readyz 503)', async () => {
    const live = await fetch(`${base}/healthz`);
    expect(live.status).toBe(200);
    expect(await live.json()).toEqual({ ok: true });
    const ready = await fetch(`${base}/readyz`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toEqual({ ok: false, reason: 'starting: the service is loading' });
  });

  it('answers every other request 503 with Retry-After, in the envelope', async () => {
    const res = await fetch(`${base}/api/v1/ip-info?target=8.8.8.8`);
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('1');
    expect(await res.json()).toEqual({
      ok: false,
      error: 'the service is starting; retry in a moment',
      meta: { tool: 'ip-info', version: 'v1' },
    });
    const posted = await fetch(`${base}/graphql`, { method: 'POST', body: 'x'.repeat(100_000) });
    expect(posted.status).toBe(503);
  });
});
