/**
 * REST users' generated types (docs/getting-started.md "Client types"): the typed client in client/ compiles against
 * client/netdiag-api.ts (npm run typecheck, and the @ts-expect-error lines below must stay errors), the
 * generated file is current, and the client works against the service on a real socket.
 */
import { execFileSync } from 'node:child_process';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNetdiagClient, NetdiagError } from '../../client/netdiag-client.js';
import { createHttpServer } from '../../src/http-server.js';
import { createTestApp, TEST_KEY, type TestApp } from '../helpers/app.js';

let t: TestApp;
let server: Server;
let base: string;
beforeAll(async () => {
  t = await createTestApp();
  server = createHttpServer(t.app);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
  await t.close();
});

describe('generated client types', () => {
  it('are current with the OpenAPI document', () => {
    const root = resolve(import.meta.dirname, '../..');
    const out = execFileSync(
      process.execPath,
      [resolve(root, 'node_modules/tsx/dist/cli.mjs'), 'scripts/client-types.ts', '--check'],
      {
        cwd: root,
        encoding: 'utf8',
      },
    );
    expect(out).toMatch(/is current/);
  });

  it('type a client that answers with the documented data, and errors as errors', async () => {
    const client = createNetdiagClient(base, TEST_KEY);
    const info = await client.get('/api/v1/ip-info', { target: '8.8.8.8' });
    const asn: string = info.asn; // typed from the schema: String! is a string, never null
    expect(asn).toBe('AS15169');
    const failure = await client.get('/api/v1/ip-info', { target: '10.0.0.1' }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(NetdiagError);
    expect((failure as NetdiagError).status).toBe(400);

    // what the compiler refuses (kept as errors by npm run typecheck):
    // @ts-expect-error: ip-info takes `target`, not `domain`
    const wrongParameter = () => client.get('/api/v1/ip-info', { domain: 'example.com' });
    // @ts-expect-error: no such endpoint
    const wrongPath = () => client.get('/api/v1/no-such-tool', {});
    // @ts-expect-error: the data of ip-info has no `registrar`
    const wrongField = (d: Awaited<ReturnType<typeof client.get<'/api/v1/ip-info'>>>) => d.registrar;
    expect([wrongParameter, wrongPath, wrongField]).toHaveLength(3);
  });
});
