/**
 * `GET /api/v1` is the API's front door (src/rest/api-index.ts): every tool with its address, parameters
 * and price, and where the OpenAPI document, the reference pages and GraphQL are; no key needed.
 */
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpServer } from '../../src/http-server.js';
import { restRoutes } from '../../src/rest/routes.js';
import { createTestApp, type TestApp } from '../helpers/app.js';

let t: TestApp;
let server: Server;
let base: string;

beforeAll(async () => {
  t = await createTestApp({ quota: { costs: { 'dns-lookup': 7 } } });
  server = createHttpServer(t.app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  if (server) await new Promise((resolve) => server.close(resolve));
  await t?.close();
});

describe('GET /api/v1', () => {
  it('lists every tool with its path, parameters and configured price, in the envelope, without a key', async () => {
    for (const path of ['/api/v1', '/api/v1/']) {
      const res = await fetch(`${base}${path}`);
      expect(res.status).toBe(200);
      const body = await res.json();
      expect(body).toMatchObject({ ok: true, meta: { tool: 'v1', version: 'v1' } });
      expect(body.data.tools.map((tool: { tool: string }) => tool.tool).sort()).toEqual([...restRoutes.keys()].sort());
      expect(body.data.tools.find((tool: { tool: string }) => tool.tool === 'dns-lookup')).toEqual({
        tool: 'dns-lookup',
        path: '/api/v1/dns-lookup',
        family: 'DNS',
        credits: 7,
        parameters: [
          { name: 'domain', required: true },
          { name: 'resolver', required: false },
        ],
        summary: expect.stringMatching(/\.$/),
      });
      expect(body.data).toMatchObject({ openapi: '/api/v1/openapi.json', docs: '/docs', graphql: '/graphql' });
      // jobs are found from here too: their path and their section of the reference
      expect(body.data.jobs).toMatchObject({ path: '/api/v1/jobs', reference: '/docs#/Jobs' });
      // and monitors (docs/monitors.md)
      expect(body.data.monitors).toMatchObject({ path: '/api/v1/monitors', reference: '/docs#/Monitors' });
    }
  });

  it('still answers 404 for an unknown version', async () => {
    const res = await t.get('/api/v2', { key: null });
    expect(res.status).toBe(404);
  });
});
