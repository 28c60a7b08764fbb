/**
 * REST ssl-checker and tls-configuration have no port parameter: they connect to 443, the
 * published contract. In a network namespace as root (as CI runs the tests) a lab server
 * can hold 443 on loopback. All tests that bind 443 live in this one file, so that they
 * never compete for the port; where 443 cannot be bound, each test says why it is skipped.
 */
import net from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import {
  canListen,
  createConnectionTestApp,
  DUAL_HOST,
  startConnectionTestApps,
  type ConnectionTestApps,
} from '../../../../test/helpers/tls-apps.js';
import { labPki } from '../../../../test/lab/pki.js';
import { startTlsServer } from '../../../../test/lab/tls-server.js';

const HTTPS = 443;
let apps: ConnectionTestApps;
const cleanups: (() => Promise<void>)[] = [];

beforeAll(async () => {
  apps = await startConnectionTestApps();
});
afterAll(async () => {
  await apps.close();
});
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

async function require443(context: TestContext, host: string): Promise<void> {
  if (!(await canListen(host, HTTPS))) {
    context.skip(`${host} port 443 cannot be bound here: run the tests in a network namespace as root, as CI does`);
  }
}

describe('REST on port 443', () => {
  it('ssl-checker: 502 naming the upstream when 443 closes at once', async (context) => {
    await require443(context, '127.0.0.1');
    const hangUp = net.createServer((socket) => socket.destroy());
    await new Promise<void>((resolve) => hangUp.listen(HTTPS, '127.0.0.1', resolve));
    cleanups.push(() => new Promise((resolve) => hangUp.close(() => resolve())));
    const res = await apps.t.get(`/api/v1/ssl-checker?domain=${DUAL_HOST}`);
    expect(res.status).toBe(502);
    expect(await res.json()).toEqual({
      ok: false,
      error: expect.stringMatching(
        /^TLS handshake with 127\.0\.0\.1:443 failed: the connection (was reset or closed|closed) before the handshake completed$/,
      ),
      meta: { tool: 'ssl-checker', version: 'v1' },
    });
  });

  it('ssl-checker: the result', async (context) => {
    await require443(context, '127.0.0.1');
    const pki = await labPki();
    const server = await startTlsServer({ cert: pki.good.chain, key: pki.good.key, port: HTTPS });
    cleanups.push(() => server.close());
    const res = await apps.t.get(`/api/v1/ssl-checker?domain=${DUAL_HOST}`);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.meta).toEqual({ tool: 'ssl-checker', version: 'v1' });
    expect(body.data).toMatchObject({ domain: DUAL_HOST, status: 'valid', ip: '127.0.0.1', port: HTTPS });
    expect(Object.keys(body.data)).toEqual([
      'domain',
      'status',
      'commonName',
      'subjectAlternativeNames',
      'issuer',
      'validFrom',
      'expiryDate',
      'daysRemaining',
      'signatureAlgorithm',
      'chain',
      'ip',
      'port',
    ]);
    expect(server.tcpConnections()).toBe(1);
  });

  it('tls-configuration: both families on 443, charged 4 credits', async (context) => {
    await require443(context, '::');
    const pki = await labPki();
    const server = await startTlsServer({
      cert: pki.good.chain,
      key: pki.good.key,
      host: '::',
      port: HTTPS,
      alpn: ['h2', 'http/1.1'],
    });
    cleanups.push(() => server.close());
    const fresh = await createConnectionTestApp(apps.dns, { allowLoopback: true });
    cleanups.push(() => fresh.close());
    const res = await fresh.get(`/api/v1/tls-configuration?domain=${encodeURIComponent(`https://${DUAL_HOST}/`)}`);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.meta).toEqual({ tool: 'tls-configuration', version: 'v1' });
    expect(body.data).toMatchObject({
      domain: DUAL_HOST,
      ip: '127.0.0.1',
      port: HTTPS,
      connectionError: null,
      negotiated: { http2: true },
    });
    expect(body.data.families.map((f: { family: number; status: string }) => [f.family, f.status])).toEqual([
      [4, 'ok'],
      [6, 'ok'],
    ]);
    expect(res.headers.get('ratelimit-remaining')).toBe('296');
    expect(server.tcpConnections()).toBe(7);
  });
});
