import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { graphql } from '../../../../test/helpers/app.js';
import {
  DUAL_HOST,
  NO_ADDRESS_HOST,
  startConnectionTestApps,
  TEST_BOUND_MS,
  V6_HOST,
  type ConnectionTestApps,
} from '../../../../test/helpers/tls-apps.js';
import { labPki, type LabLeaf } from '../../../../test/lab/pki.js';
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

async function serve(leaf: LabLeaf, extra: Partial<LabTlsServerOptions> = {}): Promise<LabTlsServer> {
  const server = await startTlsServer({ cert: leaf.chain, key: leaf.key, ...extra });
  cleanups.push(() => server.close());
  return server;
}

const FIELDS =
  'domain status commonName subjectAlternativeNames issuer validFrom expiryDate daysRemaining signatureAlgorithm chain { commonName issuer validFrom validTo } ip port';
const QUERY = `query ($domain: String!, $port: Int) { sslChecker(domain: $domain, port: $port) { ${FIELDS} } }`;

function sslChecker(domain: string, port?: number, app = apps.t) {
  return graphql(app, QUERY, { domain, port });
}

const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

describe('ssl-checker', () => {
  it('reports a valid certificate with its chain, leaf first', async () => {
    const pki = await labPki();
    const server = await serve(pki.good);
    const res = await sslChecker(DUAL_HOST, server.port);
    expect(res.status).toBe(200);
    expect(res.body.errors).toBeUndefined();
    const iso = (d: Date) => new Date(Math.floor(d.getTime() / 1000) * 1000).toISOString();
    const DAY = 86_400_000;
    expect(res.body.data.sslChecker).toEqual({
      domain: DUAL_HOST,
      status: 'valid',
      commonName: DUAL_HOST,
      subjectAlternativeNames: [DUAL_HOST, '*.lab.test', '127.0.0.1', '::1'],
      issuer: 'Netdiag Lab Intermediate CA',
      validFrom: iso(new Date(pki.issuedAt.getTime() - DAY)),
      expiryDate: iso(new Date(pki.issuedAt.getTime() + 90 * DAY)),
      daysRemaining: 89,
      signatureAlgorithm: 'ecdsa-with-SHA256',
      chain: [
        {
          commonName: DUAL_HOST,
          issuer: 'Netdiag Lab Intermediate CA',
          validFrom: expect.stringMatching(ISO),
          validTo: expect.stringMatching(ISO),
        },
        {
          commonName: 'Netdiag Lab Intermediate CA',
          issuer: 'Netdiag Lab Root CA',
          validFrom: expect.stringMatching(ISO),
          validTo: expect.stringMatching(ISO),
        },
        {
          commonName: 'Netdiag Lab Root CA',
          issuer: 'Netdiag Lab Root CA',
          validFrom: expect.stringMatching(ISO),
          validTo: expect.stringMatching(ISO),
        },
      ],
      // A and AAAA: the IPv4 address is preferred
      ip: '127.0.0.1',
      port: server.port,
    });
    const [seen] = await server.handshakesSeen(1);
    expect(seen!.servername).toBe(DUAL_HOST);
  });

  it('takes an https URL as tls-configuration does: its host, and its port as the port tested', async () => {
    const pki = await labPki();
    const server = await serve(pki.good);
    const url = encodeURIComponent(`https://${DUAL_HOST}:${server.port}/some/page`);
    const res = await apps.t.get(`/api/v1/ssl-checker?domain=${url}`);
    expect(res.status).toBe(200);
    expect((await res.json()).data).toMatchObject({ domain: DUAL_HOST, status: 'valid' });
  });

  it('gives each status its value: expired, not-yet-valid, hostname-mismatch, untrusted', async () => {
    const pki = await labPki();
    const cases: [LabLeaf, string][] = [
      [pki.expired, 'expired'],
      [pki.notYetValid, 'not-yet-valid'],
      [pki.wrongHost, 'hostname-mismatch'],
      [pki.selfSigned, 'untrusted'],
    ];
    for (const [leaf, status] of cases) {
      const server = await serve(leaf);
      const res = await sslChecker(DUAL_HOST, server.port);
      expect(res.body.errors, status).toBeUndefined();
      expect(res.body.data.sslChecker.status, status).toBe(status);
    }
  });

  it('uses IPv6 when the name has only an AAAA record', async () => {
    const pki = await labPki();
    const server = await serve(pki.good, { host: '::1' });
    const res = await sslChecker(V6_HOST, server.port);
    expect(res.body.data.sslChecker).toMatchObject({ status: 'valid', ip: '::1' });
  });

  it('is a 502 naming the upstream when the connection is refused, a 504 when the handshake stalls', async () => {
    const closed = await unusedPort();
    const refused = await sslChecker(DUAL_HOST, closed);
    expect(refused.body.errors[0].extensions).toMatchObject({
      code: 'UPSTREAM_FAILED',
      upstream: `127.0.0.1:${closed}`,
      kind: 'REFUSED',
    });

    const silent = await startTcpServer();
    cleanups.push(() => silent.close());
    const started = Date.now();
    const stalled = await sslChecker(DUAL_HOST, silent.port);
    expect(stalled.body.errors[0].extensions).toMatchObject({
      code: 'UPSTREAM_TIMEOUT',
      upstream: `127.0.0.1:${silent.port}`,
      kind: 'TIMEOUT',
    });
    expect(stalled.body.errors[0].message).toMatch(new RegExp(`timed out after ${TEST_BOUND_MS} ms`));
    expect(Date.now() - started).toBeLessThan(2 * TEST_BOUND_MS + 1000);
  });

  it('rejects bad input with a 400 naming the parameter, over REST and GraphQL', async () => {
    apps.dns.clearQueries();
    const cases: [string, RegExp][] = [
      ['', /^domain: missing required parameter$/],
      ['domain=localhost', /^domain: .*single label/],
      ['domain=127.0.0.1', /^domain: .*is an IP address/],
      [
        'domain=http%3A%2F%2Fgood.lab.test%2F',
        /^domain: http URLs are not accepted here; give a hostname or an https:\/\/ URL$/,
      ],
    ];
    for (const [query, message] of cases) {
      const res = await apps.t.get(`/api/v1/ssl-checker?${query}`);
      expect(res.status, query).toBe(400);
      const body = await res.json();
      expect(body).toEqual({
        ok: false,
        error: expect.stringMatching(message),
        meta: { tool: 'ssl-checker', version: 'v1' },
      });
    }
    for (const port of [0, 65536, -1]) {
      const res = await sslChecker(DUAL_HOST, port);
      expect(res.body.errors[0].extensions.code).toBe('BAD_INPUT');
      expect(res.body.errors[0].message).toMatch(/^port: /);
    }
    expect(apps.dns.countQueries(DUAL_HOST)).toBe(0);
  });

  it('is a 400 for a name without addresses', async () => {
    const res = await apps.t.get(`/api/v1/ssl-checker?domain=${NO_ADDRESS_HOST}`);
    expect(res.status).toBe(400);
    expect((await res.json()).error).toMatch(/has no A or AAAA record/);
  });

  it('refuses a loopback target without the allow list: 400, and the server sees no connection', async () => {
    const pki = await labPki();
    const server = await serve(pki.good);
    const rest = await apps.refusing.get(`/api/v1/ssl-checker?domain=${DUAL_HOST}`);
    expect(rest.status).toBe(400);
    expect((await rest.json()).error).toMatch(
      /resolves to 127\.0\.0\.1, a loopback address; checks of private or internal addresses are refused/,
    );
    const gql = await sslChecker(DUAL_HOST, server.port, apps.refusing);
    expect(gql.body.errors[0].extensions.code).toBe('TARGET_REFUSED');
    expect(server.tcpConnections()).toBe(0);
    // charged (decisions §1): the name was resolved, a question upstream, before the refusal
    expect(gql.headers.get('ratelimit-remaining')).toBe(String(300 - 3 - 3));
  });
});
