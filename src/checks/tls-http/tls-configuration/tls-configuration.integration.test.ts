import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { graphql } from '../../../../test/helpers/app.js';
import {
  createConnectionTestApp,
  DUAL_HOST,
  NO_ADDRESS_HOST,
  startConnectionTestApps,
  TEST_BOUND_MS,
  V4_HOST,
  type ConnectionTestApps,
} from '../../../../test/helpers/tls-apps.js';
import { labPki } from '../../../../test/lab/pki.js';
import { startTcpServer, unusedPort } from '../../../../test/lab/tcp-server.js';
import { startTlsServer, type LabTlsServer, type LabTlsServerOptions } from '../../../../test/lab/tls-server.js';

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

/** A lab server serving the good chain; host "::" answers both families on one port. */
async function serve(extra: Partial<LabTlsServerOptions> = {}): Promise<LabTlsServer> {
  const pki = await labPki();
  const server = await startTlsServer({ cert: pki.good.chain, key: pki.good.key, ...extra });
  cleanups.push(() => server.close());
  return server;
}

const FIELDS = `domain ip port
  families { family ip status version cipher alpn certFingerprint totalMs error }
  protocols { version result }
  negotiated { version cipher alpn http2 }
  sni { sent required }
  certificate { ok subject issuer validFrom expiryDate daysRemaining hostnameMatch hostnameMismatchReason chainLength trusted trustError }
  timing { tcpMs tlsHandshakeMs totalMs }
  connectionError`;
const QUERY = `query ($domain: String!, $port: Int) { tlsConfiguration(domain: $domain, port: $port) { ${FIELDS} } }`;

async function tlsConfiguration(domain: string, port?: number, app = apps.t) {
  return graphql(app, QUERY, { domain, port });
}

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const FINGERPRINT = /^([0-9A-F]{2}:){31}[0-9A-F]{2}$/;
const ms = expect.any(Number);
const unableToTestAll = ['TLSv1.3', 'TLSv1.2', 'TLSv1.1', 'TLSv1'].map((version) => ({
  version,
  result: 'unable-to-test',
}));

describe('tls-configuration', () => {
  it('reports both families, the versions, the negotiated parameters, SNI, the certificate and timing', async () => {
    const server = await serve({ host: '::', alpn: ['h2', 'http/1.1'] });
    const res = await tlsConfiguration(DUAL_HOST, server.port);
    expect(res.status).toBe(200);
    expect(res.body.errors).toBeUndefined();
    const data = res.body.data.tlsConfiguration;
    const family = (f: 4 | 6, ip: string) => ({
      family: f,
      ip,
      status: 'ok',
      version: 'TLSv1.3',
      cipher: expect.stringMatching(/^TLS_/),
      alpn: 'h2',
      certFingerprint: expect.stringMatching(FINGERPRINT),
      totalMs: ms,
      error: null,
    });
    expect(data).toEqual({
      domain: DUAL_HOST,
      ip: '127.0.0.1',
      port: server.port,
      families: [family(4, '127.0.0.1'), family(6, '::1')],
      protocols: [
        { version: 'TLSv1.3', result: 'supported' },
        { version: 'TLSv1.2', result: 'supported' },
        { version: 'TLSv1.1', result: 'not-supported' },
        { version: 'TLSv1', result: 'not-supported' },
      ],
      negotiated: { version: 'TLSv1.3', cipher: expect.stringMatching(/^TLS_/), alpn: 'h2', http2: true },
      sni: { sent: true, required: false },
      certificate: {
        ok: true,
        subject: DUAL_HOST,
        issuer: 'Netdiag Lab Intermediate CA',
        validFrom: expect.stringMatching(ISO),
        expiryDate: expect.stringMatching(ISO),
        daysRemaining: 89,
        hostnameMatch: true,
        hostnameMismatchReason: null,
        chainLength: 3,
        trusted: true,
        trustError: null,
      },
      timing: { tcpMs: ms, tlsHandshakeMs: ms, totalMs: ms },
      connectionError: null,
    });
    expect(data.families[0].certFingerprint).toBe(data.families[1].certFingerprint);
    // main (v4, shared with the IPv4 family), without SNI, IPv6 family, and one per version
    await server.handshakesSeen(7);
    expect(server.tcpConnections()).toBe(7);
  });

  it('finds all four versions on a legacy server, and no h2 without ALPN', async () => {
    const server = await serve({ minVersion: 'TLSv1', ciphers: 'DEFAULT:@SECLEVEL=0' });
    const data = (await tlsConfiguration(V4_HOST, server.port)).body.data.tlsConfiguration;
    expect(data.protocols).toEqual(
      ['TLSv1.3', 'TLSv1.2', 'TLSv1.1', 'TLSv1'].map((version) => ({ version, result: 'supported' })),
    );
    expect(data.negotiated).toEqual({ version: 'TLSv1.3', cipher: expect.any(String), alpn: null, http2: false });
    expect(data.families).toEqual([expect.objectContaining({ family: 4, ip: '127.0.0.1', status: 'ok' })]);
  });

  it('finds a TLS 1.2-only server', async () => {
    const server = await serve({ maxVersion: 'TLSv1.2' });
    const data = (await tlsConfiguration(V4_HOST, server.port)).body.data.tlsConfiguration;
    expect(data.protocols.map((p: { result: string }) => p.result)).toEqual([
      'not-supported',
      'supported',
      'not-supported',
      'not-supported',
    ]);
    expect(data.negotiated.version).toBe('TLSv1.2');
  });

  it('says SNI is required when the server fails without it or presents another certificate', async () => {
    const pki = await labPki();
    const failing = await serve({ withoutSni: 'fail' });
    expect((await tlsConfiguration(V4_HOST, failing.port)).body.data.tlsConfiguration.sni).toEqual({
      sent: true,
      required: true,
    });
    const defaultHost = await serve({ withoutSni: pki.wrongHost });
    const data = (await tlsConfiguration(V4_HOST, defaultHost.port)).body.data.tlsConfiguration;
    expect(data.sni).toEqual({ sent: true, required: true });
    expect(data.certificate).toMatchObject({ ok: true, hostnameMatch: true });
  });

  it('reports certificate problems in the certificate block', async () => {
    const pki = await labPki();
    const server = await startTlsServer({ cert: pki.expired.chain, key: pki.expired.key });
    cleanups.push(() => server.close());
    const data = (await tlsConfiguration(V4_HOST, server.port)).body.data.tlsConfiguration;
    expect(data.certificate).toMatchObject({
      ok: false,
      trusted: false,
      trustError: 'CERT_HAS_EXPIRED',
      hostnameMatch: true,
    });
    expect(data.certificate.daysRemaining).toBeLessThan(0);
  });

  it('reports a failing family inside a successful result', async () => {
    // the server listens on 127.0.0.1 only: [::1]:port refuses
    const server = await serve();
    const res = await tlsConfiguration(DUAL_HOST, server.port);
    expect(res.body.errors).toBeUndefined();
    const data = res.body.data.tlsConfiguration;
    expect(data.families[0]).toMatchObject({ family: 4, status: 'ok' });
    expect(data.families[1]).toEqual({
      family: 6,
      ip: '::1',
      status: 'error',
      version: null,
      cipher: null,
      alpn: null,
      certFingerprint: null,
      totalMs: null,
      error: expect.stringMatching(new RegExp(`^TCP connect to \\[::1\\]:${server.port} failed: .*ECONNREFUSED`)),
    });
    expect(data.connectionError).toBeNull();
  });

  it('reports a refused connection as connectionError, with every version unable-to-test', async () => {
    const port = await unusedPort();
    const res = await tlsConfiguration(V4_HOST, port);
    expect(res.status).toBe(200);
    expect(res.body.data.tlsConfiguration).toEqual({
      domain: V4_HOST,
      ip: '127.0.0.1',
      port,
      families: [expect.objectContaining({ family: 4, status: 'error', error: expect.stringMatching(/ECONNREFUSED/) })],
      protocols: unableToTestAll,
      negotiated: null,
      sni: { sent: true, required: false },
      certificate: null,
      timing: null,
      connectionError: expect.stringMatching(new RegExp(`^TCP connect to 127\\.0\\.0\\.1:${port} failed`)),
    });
  });

  it('runs the handshakes in parallel, each bounded: a stalling server costs about one bound, not seven', async () => {
    const silent = await startTcpServer();
    cleanups.push(() => silent.close());
    const started = Date.now();
    const res = await tlsConfiguration(V4_HOST, silent.port);
    const took = Date.now() - started;
    const data = res.body.data.tlsConfiguration;
    expect(data.connectionError).toBe(
      `TLS handshake with 127.0.0.1:${silent.port} timed out after ${TEST_BOUND_MS} ms`,
    );
    expect(data.protocols).toEqual(unableToTestAll);
    // main, without SNI, four versions: all at once
    expect(silent.connections()).toBe(6);
    expect(took).toBeLessThan(2 * TEST_BOUND_MS);
  });

  it('accepts an https URL, reduced to its host, its explicit port being the one tested', async () => {
    const server = await serve();
    const url = `https://${V4_HOST.toUpperCase()}:${server.port}/some/path?q=1`;
    const data = (await tlsConfiguration(url)).body.data.tlsConfiguration;
    expect(data).toMatchObject({ domain: V4_HOST, port: server.port, connectionError: null });
    const agreeing = await tlsConfiguration(url, server.port);
    expect(agreeing.body.data.tlsConfiguration.port).toBe(server.port);
    const conflicting = await tlsConfiguration(url, server.port + 1);
    expect(conflicting.body.errors[0]).toMatchObject({
      message: expect.stringMatching(/^port: .*differs from the port of the URL/),
      extensions: { code: 'BAD_INPUT' },
    });
  });

  it('rejects other schemes, IP addresses, bad names and bad ports with a 400 naming the parameter', async () => {
    apps.dns.clearQueries();
    const cases: [string, RegExp][] = [
      ['', /^domain: missing required parameter$/],
      ['domain=http%3A%2F%2Fgood.lab.test%2F', /^domain: http URLs are not accepted here/],
      ['domain=ftp%3A%2F%2Fgood.lab.test%2F', /^domain: scheme "ftp" is not supported/],
      ['domain=https%3A%2F%2F127.0.0.1%2F', /^domain: .*IP address/],
      ['domain=good.lab.test%3A8443', /^domain: .*neither a domain name nor a URL/],
      ['domain=-bad-.lab.test', /^domain: /],
    ];
    for (const [query, message] of cases) {
      const res = await apps.t.get(`/api/v1/tls-configuration?${query}`);
      expect(res.status, query).toBe(400);
      expect(await res.json(), query).toEqual({
        ok: false,
        error: expect.stringMatching(message),
        meta: { tool: 'tls-configuration', version: 'v1' },
      });
    }
    const badPort = await tlsConfiguration(DUAL_HOST, 70000);
    expect(badPort.body.errors[0]).toMatchObject({
      message: expect.stringMatching(/^port: "70000" is out of range/),
      extensions: { code: 'BAD_INPUT' },
    });
    expect(apps.dns.queries).toHaveLength(0);
  });

  it('is a 502 naming the resolver when the name cannot be resolved (the check could not start)', async () => {
    apps.dns.setBehaviour('servfail.lab.test', { servfail: true });
    try {
      const res = await apps.t.get('/api/v1/tls-configuration?domain=servfail.lab.test');
      expect(res.status).toBe(502);
      expect((await res.json()).error).toBe("the service's resolver answered A servfail.lab.test with rcode SERVFAIL");
    } finally {
      apps.dns.clearBehaviours();
    }
  });

  it('is a 400 from the guard for a name without addresses', async () => {
    const res = await apps.t.get(`/api/v1/tls-configuration?domain=${NO_ADDRESS_HOST}`);
    expect(res.status).toBe(400);
    expect((await res.json()).error).toBe(
      `domain: ${NO_ADDRESS_HOST} has no A or AAAA record, so there is no address to check`,
    );
  });

  it('refuses private and internal addresses: 400, no connection; charged once a name was resolved', async () => {
    const server = await serve({ host: '::' });
    const rest = await apps.refusing.get(`/api/v1/tls-configuration?domain=${DUAL_HOST}`);
    expect(rest.status).toBe(400);
    expect((await rest.json()).error).toMatch(/^target good\.lab\.test resolves to 127\.0\.0\.1, a loopback address/);
    const gql = await tlsConfiguration(`https://${DUAL_HOST}:${server.port}/`, undefined, apps.refusing);
    expect(gql.body.errors[0].extensions.code).toBe('TARGET_REFUSED');
    // decisions §1: the name was resolved (a question upstream) before the refusal, so both are charged
    expect(gql.headers.get('ratelimit-remaining')).toBe(String(300 - 4 - 4));
    expect(server.tcpConnections()).toBe(0);
  });

  it('costs 4 credits, and shares its main handshake with ssl-checker in one operation', async () => {
    const server = await serve({ host: '::', alpn: ['h2', 'http/1.1'] });
    const fresh = await createConnectionTestApp(apps.dns, { allowLoopback: true });
    cleanups.push(() => fresh.close());
    const res = await graphql(
      fresh,
      `query ($d: String!, $p: Int) { a: tlsConfiguration(domain: $d, port: $p) { ip } b: sslChecker(domain: $d, port: $p) { status } }`,
      { d: DUAL_HOST, p: server.port },
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.b.status).toBe('valid');
    expect(res.headers.get('ratelimit-remaining')).toBe(String(300 - 4 - 3));
    // the same seven connections as tls-configuration alone: ssl-checker's handshake is its main one
    await server.handshakesSeen(7);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(server.tcpConnections()).toBe(7);
  });
});
