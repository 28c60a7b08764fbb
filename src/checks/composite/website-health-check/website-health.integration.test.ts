/**
 * website-health-check end to end: REST and GraphQL through the app, against loopback labs only —
 * a DNS lab as the system resolver, HTTP(S) labs and TLS servers with the lab PKI (through the
 * `connections` seam), the lab's ports as the web ports (`webPorts` seam), a stand-in ping
 * (`pingPath` seam) and a stand-in IP data source (`ipData` seam), each counting its questions.
 *
 * Run alone (vitest.config.ts): its latency part grades the lab's time to first byte, and its parts run
 * against the composite's bound, which a machine busy with other test files stretches.
 */
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import https from 'node:https';
import type net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setMaxListeners } from 'node:events';
import { brotliCompressSync } from 'node:zlib';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { IpFacts } from '../../../probes/ipdata/facts.js';
import { runWebsiteHealth } from './run.js';
import { websiteParts } from './parts.js';
import { verdictOf, type HealthCheckStatus } from '../shared/verdict.js';
import { LIGHT_RATING_HANDSHAKES, runTlsRating } from '../../tls-http/tls-rating/run.js';
import { checkOfField } from '../../../graphql/check-declaration.js';
import { costOf } from '../../../graphql/pricing.js';
import { connectionBudgetFor } from '../../../loaders/connection-budget.js';
import { createCheckContext } from '../../../loaders/context.js';
import { ProbeError } from '../../../probes/errors.js';
import type { IpDataSource } from '../../../probes/ipdata/source.js';
import { restRouteFor } from '../../../rest/handler.js';
import { createTestApp, graphql, type TestApp } from '../../../../test/helpers/app.js';
import { openApiMismatches } from '../../../../test/helpers/openapi.js';
import { startLegacyFront } from '../../../../test/lab/legacy-front.js';
import { rr, startDnsLab, type DnsLab } from '../../../../test/lab/dns-server.js';
import { SECURITY_HEADER_VALUES, startHttpLab, type HttpLab } from '../../../../test/lab/http-server.js';
import { labPki, type LabPki } from '../../../../test/lab/pki.js';
import { unusedPort } from '../../../../test/lab/tcp-server.js';
import { startTlsServer, type LabTlsServer } from '../../../../test/lab/tls-server.js';

const HEALTHY = 'healthy.lab.test'; // A and AAAA
const POOR = 'poor.lab.test'; // A only
const PLAIN = 'plain.lab.test';
const OLD = 'old.lab.test';
const NO_ADDRESS = 'noaddr.lab.test';
const BROKEN_DNS = 'servfail.lab.test';
const LOOPBACK = ['127.0.0.0/8', '::1/128'];
const FETCH_TIMEOUT_MS = 1500;
const DAY_MS = 86_400_000;
const IDS = [
  'dns',
  'location',
  'organization',
  'ping',
  'latency',
  'http',
  'redirects',
  'ssl',
  'security',
  'protocol',
  'compression',
  'ports',
  'tls-rating',
  'http-rating',
];

/**
 * The parts other checks add after these (./parts.ts: a check joins from its own folder, with its own
 * tests): here they are only expected in their place and counted, and their questions told apart from
 * those of the checks above, so that a check that joins changes nothing this file asserts.
 */
const laterParts = (): string[] => websiteParts.joined.map((p) => p.spec.id).filter((id) => !IDS.includes(id));
const isKnown = (c: { id: string }) => IDS.includes(c.id);
/** The composite's own DNS questions (the target's addresses) and the page's requests, which the known parts ask. */
const ownQuestions = (dns: DnsLab) => dns.queries.filter((q) => q.type === 'A' || q.type === 'AAAA');
const pageRequests = (requests: readonly { path: string }[]) => requests.filter((r) => r.path === '/').length;

const scratch = mkdtempSync(join(tmpdir(), 'netdiag-website-it-'));

/* ------------------------------------------------------------------ stand-ins */

/** iputils' transcript of `received` replies to 4 pings. */
function transcript(received: number): string {
  const replies = Array.from(
    { length: received },
    (_, i) => `64 bytes from 127.0.0.1: icmp_seq=${i + 1} ttl=64 time=0.050 ms\n`,
  ).join('');
  const rtt = received > 0 ? 'rtt min/avg/max/mdev = 0.050/0.050/0.050/0.000 ms\n' : '';
  return `PING 127.0.0.1 (127.0.0.1) 56(84) bytes of data.\n${replies}\n--- 127.0.0.1 ping statistics ---\n4 packets transmitted, ${received} received, ${((4 - received) / 4) * 100}% packet loss, time 3004ms\n${rtt}`;
}

/** A stand-in ping executable printing `stdout`; it appends a line to its .runs file each time it runs. */
function pingStandIn(name: string, stdout: string): { path: string; runs: () => number } {
  const path = join(scratch, name);
  writeFileSync(path, `#!/bin/sh\necho "$*" >> '${path}.runs'\ncat <<'OUT'\n${stdout}OUT\n`);
  chmodSync(path, 0o755);
  return {
    path,
    runs: () => (existsSync(`${path}.runs`) ? readFileSync(`${path}.runs`, 'utf8').trim().split('\n').length : 0),
  };
}

/** An IP data source answering `facts` (or failing with `failure`) for every address, recording each look-up. */
function ipDataStandIn(facts: Partial<IpFacts>, failure?: Error): IpDataSource & { lookups: string[] } {
  const lookups: string[] = [];
  return {
    lookups,
    async lookup(ip) {
      lookups.push(ip);
      if (failure) throw failure;
      return {
        ip,
        source: 'database',
        asn: '',
        asName: '',
        asDomain: '',
        countryCode: '',
        country: '',
        continentCode: '',
        continent: '',
        liveError: null,
        ...facts,
      };
    },
  };
}

const HOSTED = {
  asn: 'AS64500',
  asName: 'Lab Hosting GmbH',
  asDomain: 'hosting.example',
  countryCode: 'DE',
  country: 'Germany',
  continentCode: 'EU',
  continent: 'Europe',
};

/* ------------------------------------------------------------------ labs */

const HOME_PAGE = `<!doctype html><html><head><title>Healthy</title></head><body>${'<p>healthy content</p>'.repeat(200)}</body></html>`;
const POOR_HOME_PAGE = `<html><head><title>poor</title></head><body>${'x'.repeat(4000)}</body></html>`;
const CHALLENGE_HEAD =
  '<!DOCTYPE html><html lang="en-US"><head><title>Just a moment...</title><meta http-equiv="refresh" content="390"></head><body></body></html>';

/** A site that still works, poorly: TLS 1.2 at most, HTTP/1.1, one security header, no compression, three redirects. */
interface PoorSite {
  port: number;
  requests: string[];
  connections(): number;
  close(): Promise<void>;
}

async function startPoorSite(pki: LabPki): Promise<PoorSite> {
  const pages: Record<string, { status: number; headers: Record<string, string>; body?: string }> = {
    '/': { status: 301, headers: { location: '/a' } },
    '/a': { status: 302, headers: { location: '/b' } },
    '/b': { status: 302, headers: { location: '/home' } },
    '/home': {
      status: 200,
      headers: { 'content-type': 'text/html', 'x-content-type-options': 'nosniff' },
      body: POOR_HOME_PAGE,
    },
    '/down': { status: 503, headers: { 'content-type': 'text/plain' }, body: 'down for maintenance' },
  };
  const requests: string[] = [];
  const sockets = new Set<net.Socket>();
  let connections = 0;
  const server = https.createServer({ cert: pki.good.chain, key: pki.good.key, maxVersion: 'TLSv1.2' }, (req, res) => {
    requests.push(req.url ?? '');
    const page = pages[req.url ?? ''] ?? { status: 404, headers: {} };
    res.writeHead(page.status, {
      ...page.headers,
      ...(page.body !== undefined ? { 'content-length': String(Buffer.byteLength(page.body)) } : {}),
    });
    res.end(page.body);
  });
  server.on('connection', (socket: net.Socket) => {
    connections++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.on('tlsClientError', () => {});
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    requests,
    connections: () => connections,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

let pki: LabPki;
let dns: DnsLab;
let site: HttpLab; // HTTPS, HTTP/2: the healthy site
let siteHttp: HttpLab; // its plain-HTTP port (a redirect to HTTPS)
let poor: PoorSite;
let oldTls: LabTlsServer;
let plainOnly: HttpLab;
let closedPort: number;
const apps: TestApp[] = [];

interface AppOptions {
  web: { http: number; https: number };
  allow?: boolean;
  ipData?: IpDataSource;
  pingPath?: string;
  now?: number;
}

async function appWith(options: AppOptions): Promise<TestApp> {
  const app = await createTestApp(
    {
      dns: { system: [`127.0.0.1:${dns.port}`], timeoutMs: 500 },
      http: { timeoutMs: FETCH_TIMEOUT_MS },
      ping: { count: 4, timeoutMs: 2000 },
      ...(options.allow === false ? {} : { targets: { allow: LOOPBACK } }),
    },
    {
      connections: { tlsCa: pki.root.cert, connectTimeoutMs: 1000, handshakeTimeoutMs: 1000 },
      webPorts: options.web,
      ipData: options.ipData ?? ipDataStandIn(HOSTED),
      pingPath: options.pingPath ?? pingStandIn(`ping-${apps.length}`, transcript(4)).path,
      ...(options.now !== undefined ? { now: () => options.now! } : {}),
    },
  );
  apps.push(app);
  return app;
}

const healthyWeb = () => ({ http: siteHttp.port, https: site.port });

beforeAll(async () => {
  pki = await labPki();
  dns = await startDnsLab({
    authoritative: false,
    records: [
      rr.a(HEALTHY, '127.0.0.1'),
      rr.aaaa(HEALTHY, '::1'),
      rr.a(POOR, '127.0.0.1'),
      rr.a(PLAIN, '127.0.0.1'),
      rr.a(OLD, '127.0.0.1'),
      rr.a(BROKEN_DNS, '127.0.0.1'),
      rr.txt(NO_ADDRESS, 'no address here'),
    ],
  });
  site = await startHttpLab({
    tls: { cert: pki.good.chain, key: pki.good.key },
    http2: true,
    pages: {
      '/': {
        headers: { 'content-type': 'text/html; charset=utf-8', 'content-encoding': 'br', ...SECURITY_HEADER_VALUES },
        body: brotliCompressSync(HOME_PAGE),
      },
      '/challenge': {
        status: 403,
        headers: { 'content-type': 'text/html', 'cf-mitigated': 'challenge', server: 'cloudflare' },
        body: CHALLENGE_HEAD,
      },
      '/cf-marker': {
        status: 503,
        headers: { 'content-type': 'text/html; charset=UTF-8', server: 'cloudflare', 'cf-ray': '8a1b2c3d4e5f-FRA' },
        body: CHALLENGE_HEAD,
      },
    },
  });
  siteHttp = await startHttpLab({
    pages: { '/': { status: 301, headers: { location: `https://${HEALTHY}:${site.port}/` } } },
  });
  poor = await startPoorSite(pki);
  oldTls = await startTlsServer({
    cert: pki.good.chain,
    key: pki.good.key,
    minVersion: 'TLSv1',
    maxVersion: 'TLSv1.1',
  });
  plainOnly = await startHttpLab({
    pages: {
      '/': { headers: { 'content-type': 'text/html', 'x-frame-options': 'DENY' }, body: '<title>plain</title>' },
    },
  });
  closedPort = await unusedPort();
});

afterAll(async () => {
  for (const app of apps) await app.close();
  await Promise.all([
    site?.close(),
    siteHttp?.close(),
    poor?.close(),
    oldTls?.close(),
    plainOnly?.close(),
    dns?.close(),
  ]);
  rmSync(scratch, { recursive: true, force: true });
});

beforeEach(() => {
  dns.clearBehaviours();
  dns.clearQueries();
});

const check = (target: string, app: TestApp) =>
  app.get(`/api/v1/website-health-check?target=${encodeURIComponent(target)}`);

type Check = {
  id: string;
  label: string;
  status: HealthCheckStatus;
  summary: string;
  error: string | null;
  details: Record<string, unknown>;
};
const byId = (checks: Check[]): Record<string, Check> => Object.fromEntries(checks.map((c) => [c.id, c]));

/** Every field of tls-rating's and http-rating's answers (their REST documents' selections). */
const TLS_RATING_FIELDS = `host ip port durationMs partial handshakes light
  protocols { version result note }
  cipherSuites { version name bits keyExchange authentication forwardSecrecy aead }
  preferred { version name } serverOrder groups postQuantum dhBits
  certificate { keyType keyBits signatureAlgorithm chainComplete status }
  hsts { present maxAge }
  grade { letter letterIgnoringTrust score protocolScore keyExchangeScore cipherScore caps { code cap reason } warnings { code reason } }
  ratingGuide
  mozilla { profile violations { modern intermediate old } }`;
const HTTP_RATING_FIELDS = `url finalUrl statusCode algorithmVersion score grade testsPassed testsFailed testsQuantity
  tests { name pass result scoreModifier description } error httpsError httpError`;
const statuses = (checks: Check[]): Record<string, string> =>
  Object.fromEntries(checks.filter(isKnown).map((c) => [c.id, c.status]));

/* ------------------------------------------------------------------ tests */

describe('a healthy site', () => {
  it('is ok in every check, asks each question once and costs 3 credits', async () => {
    const ipData = ipDataStandIn(HOSTED);
    const ping = pingStandIn('ping-healthy', transcript(4));
    const app = await appWith({ web: healthyWeb(), ipData, pingPath: ping.path });
    const before = { site: site.connectionCount(), requests: site.requests.length, http: siteHttp.connectionCount() };

    const res = await check(HEALTHY, app);
    expect(res.status).toBe(200);
    expect(res.headers.get('ratelimit-remaining')).toBe('297');
    const body = await res.json();
    expect(body.meta).toEqual({ tool: 'website-health-check', version: 'v1' });
    expect(openApiMismatches('website-health-check', 200, body)).toEqual([]);
    const targetUrl = `https://${HEALTHY}:${site.port}/`;
    expect(Object.keys(body.data)).toEqual(['domain', 'targetUrl', 'ip', 'verdict', 'checks']);
    expect(body.data).toMatchObject({ domain: HEALTHY, targetUrl, ip: '127.0.0.1' });
    const checks: Check[] = body.data.checks;
    expect(body.data.verdict).toEqual(
      laterParts().length === 0
        ? { status: 'ok', headline: 'All 14 checks passed', summary: 'No problems found in 14 checks.' }
        : verdictOf(checks),
    );
    expect(body.data.verdict.status).toBe('ok');
    expect(checks.map((c) => c.id)).toEqual([...IDS, ...laterParts()]);
    for (const c of checks.filter(isKnown)) {
      expect(Object.keys(c)).toEqual(['id', 'label', 'status', 'summary', 'error', 'details']);
      expect([c.id, c.status, c.error]).toEqual([c.id, 'ok', null]);
    }
    const c = byId(checks);
    expect(c.dns!.details).toEqual({ ip: '127.0.0.1', ipv4: ['127.0.0.1'], ipv6: ['::1'] });
    expect(c.location!).toMatchObject({
      label: 'Location',
      summary: 'The server at 127.0.0.1 is located in Germany (DE).',
      details: { countryCode: 'DE', country: 'Germany' },
    });
    expect(c.organization!.details).toEqual({
      orgDomain: 'hosting.example',
      asn: 'AS64500',
      asName: 'Lab Hosting GmbH',
    });
    expect(c.ping!.details).toEqual({ avgRoundTripMs: 0.05, packetLossPercent: 0, sent: 4, received: 4 });
    const latency = c.latency!.details as { totalMs: number; breakdown: Record<string, number>; url: string };
    expect(latency.url).toBe(targetUrl);
    expect(Object.keys(latency.breakdown)).toEqual(['dnsMs', 'tcpMs', 'tlsMs', 'remainingMs', 'totalMs']);
    expect(latency.breakdown.tlsMs).toBeGreaterThan(0);
    expect(latency.totalMs).toBe(latency.breakdown.totalMs);
    const { dnsMs, tcpMs, tlsMs, remainingMs } = latency.breakdown as Record<
      'dnsMs' | 'tcpMs' | 'tlsMs' | 'remainingMs',
      number
    >;
    expect(latency.totalMs).toBeCloseTo(dnsMs + tcpMs + tlsMs + remainingMs, 0);
    expect(c.http!.details).toEqual({
      statusCode: 200,
      statusText: 'OK',
      cloudflareBlocked: false,
      url: targetUrl,
      finalUrl: targetUrl,
      httpsRefused: false,
    });
    expect(c.redirects!.details).toEqual({ hops: [], finalUrl: targetUrl });
    expect(c.ssl!.details).toMatchObject({
      certificateStatus: 'valid',
      tlsVersion: 'TLSv1.3',
      daysRemaining: 89,
      port: site.port,
    });
    expect(c.ssl!.details.percentRemaining as number).toBeGreaterThan(97);
    expect(c.security!.details).toEqual({ present: 5, total: 5, missing: [] });
    expect(c.protocol!.details).toEqual({ protocol: 'HTTP/2' });
    expect(c.compression!.details).toMatchObject({ encoding: 'br', contentType: 'text/html' });
    expect(c.ports!.details).toEqual({
      ports: [
        { port: siteHttp.port, protocol: 'tcp', status: 'open' },
        { port: site.port, protocol: 'tcp', status: 'open' },
      ],
    });

    // REST answers the ratings' data as their details (@flatten): tls-rating's of the HTTPS port,
    // http-rating's of the target.
    const tlsRating = c['tls-rating']!;
    expect(tlsRating).toMatchObject({ label: 'TLS rating', status: 'ok', error: null });
    // the light grade (docs/tools/notes/website-health-check.md): round 1 only, in a handful of handshakes
    expect(tlsRating.details).toMatchObject({
      host: HEALTHY,
      ip: '127.0.0.1',
      port: site.port,
      partial: false,
      light: true,
      serverOrder: null,
    });
    expect(tlsRating.summary).toMatch(
      new RegExp(
        `^The TLS configuration on port ${site.port} grades A\\+? \\(a light grade of its versions, preferred suites and certificate, score \\d+\\)\\. Run tls-rating for the full enumeration of suites and groups\\.$`,
      ),
    );
    const handshakes = tlsRating.details.handshakes as number;
    expect(handshakes).toBeLessThanOrEqual(LIGHT_RATING_HANDSHAKES);
    expect(c['http-rating']).toMatchObject({
      label: 'HTTP security rating',
      status: 'ok',
      details: { url: targetUrl, finalUrl: targetUrl, statusCode: 200, algorithmVersion: 4, error: null },
    });

    // Each upstream question once: A and AAAA; at the HTTPS port, the page fetch, the TLS handshake
    // and the TCP test, the rating's handshakes and its HSTS fetch, and http-rating's three requests
    // (its https session, its CORS preflight, and its http session's redirect to https), each on a
    // connection of its own; at the HTTP port, the TCP test and http-rating's http session; one IP
    // data look-up, one ping run.
    expect(
      ownQuestions(dns)
        .map((q) => `${q.name} ${q.type}`)
        .sort(),
    ).toEqual([`${HEALTHY} A`, `${HEALTHY} AAAA`]);
    const requests = site.requests.slice(before.requests);
    expect(pageRequests(requests)).toBe(5);
    // a later part's request (another path) is on a connection of its own
    const expectedConnections = 3 + handshakes + 1 + 3 + (requests.length - pageRequests(requests));
    await vi.waitFor(() => expect(site.connectionCount() - before.site).toBeGreaterThanOrEqual(expectedConnections));
    expect(site.connectionCount() - before.site).toBe(expectedConnections);
    // and security-txt's http attempt: the site serves no security.txt over https
    expect(siteHttp.connectionCount() - before.http).toBe(3);
    // issue 31 finding 4: at most 10 connections to the target per credit
    expect(expectedConnections + 2).toBeLessThanOrEqual(10 * 3);
    expect(ipData.lookups).toEqual(['127.0.0.1']);
    expect(ping.runs()).toBe(1);
  });

  it('through GraphQL shares the fetch, handshake, port tests, ping and both ratings with the single checks of the same operation', async () => {
    const ping = pingStandIn('ping-graphql', transcript(4));
    const app = await appWith({ web: healthyWeb(), pingPath: ping.path });
    const before = { site: site.connectionCount(), requests: site.requests.length, http: siteHttp.connectionCount() };
    const url = `https://${HEALTHY}:${site.port}/`;
    const res = await graphql(
      app,
      `query ($target: String!, $port: Int!) {
        websiteHealthCheck(target: $target) {
          verdict { status }
          checks { id status details { __typename ... on WebsiteSslDetails { tlsVersion } ... on WebsitePortsDetails { ports { port status } }
            ... on WebsiteTlsRatingDetails { tlsRating { ${TLS_RATING_FIELDS} } }
            ... on WebsiteHttpRatingDetails { httpRating { ${HTTP_RATING_FIELDS} } } } }
        }
        sslChecker(domain: "${HEALTHY}", port: $port) { status port }
        portChecker(host: "${HEALTHY}", port: $port) { status }
        openGraphChecker(url: $target) { fetched }
        ping(host: "${HEALTHY}") { status }
        tlsRating(domain: $target) { ${TLS_RATING_FIELDS} }
        httpRating(url: $target) { ${HTTP_RATING_FIELDS} }
      }`,
      { target: url, port: site.port },
    );
    expect(res.body.errors).toBeUndefined();
    // the composite's price stays its own: the ratings inside it are not charged again
    expect(res.headers.get('ratelimit-remaining')).toBe(String(300 - 5 * 3 - 10 - 5));
    const data = res.body.data;
    expect(data.websiteHealthCheck.verdict).toEqual({ status: 'ok' });
    expect(
      data.websiteHealthCheck.checks
        .filter(isKnown)
        .map((c: { details: { __typename: string } }) => c.details.__typename),
    ).toEqual([
      'WebsiteDnsDetails',
      'WebsiteLocationDetails',
      'WebsiteOrganizationDetails',
      'WebsitePingDetails',
      'WebsiteLatencyDetails',
      'WebsiteHttpDetails',
      'WebsiteRedirectsDetails',
      'WebsiteSslDetails',
      'WebsiteSecurityDetails',
      'WebsiteProtocolDetails',
      'WebsiteCompressionDetails',
      'WebsitePortsDetails',
      'WebsiteTlsRatingDetails',
      'WebsiteHttpRatingDetails',
    ]);
    expect(data.sslChecker).toEqual({ status: 'valid', port: site.port });
    expect(data.portChecker).toEqual({ status: 'open' });
    expect(data.ping).toEqual({ status: 'Online' });
    // http-rating's details are the single check's data, to its duration: one rating. The TLS part is the
    // light grade, a rating of its own whose handshakes (round 1) and HSTS fetch are the full rating's.
    const composite = byId(data.websiteHealthCheck.checks);
    const light = composite['tls-rating']!.details.tlsRating as { grade: { letter: string } };
    expect(light).toMatchObject({ light: true, serverOrder: null, protocols: data.tlsRating.protocols });
    expect(data.tlsRating).toMatchObject({ light: false, partial: false });
    expect(light.grade.letter).toMatch(/^A\+?$/);
    expect(composite['http-rating']!.details.httpRating).toEqual(data.httpRating);
    expect(data.tlsRating.grade.letter).toMatch(/^A\+?$/);
    // No second enumeration and no second fetch: the connections are those of one composite
    // (as the REST test above counts them), however many fields ask.
    const requests = site.requests.slice(before.requests);
    expect(pageRequests(requests)).toBe(5);
    const expectedConnections = 3 + data.tlsRating.handshakes + 1 + 3 + (requests.length - pageRequests(requests));
    await vi.waitFor(() => expect(site.connectionCount() - before.site).toBeGreaterThanOrEqual(expectedConnections));
    expect(site.connectionCount() - before.site).toBe(expectedConnections);
    // and security-txt's http attempt: the site serves no security.txt over https
    expect(siteHttp.connectionCount() - before.http).toBe(3);
    expect(ping.runs()).toBe(1);
  });

  it('is registered as a composite check (REST and GraphQL then bound it by server.compositeTimeoutMs)', () => {
    const route = restRouteFor('/api/v1/website-health-check');
    expect(route?.field).toBe('websiteHealthCheck');
    expect(checkOfField('websiteHealthCheck')).toMatchObject({ tool: 'website-health-check', composite: true });
  });
});

describe('a poor site', () => {
  it('old TLS, few headers, no compression, many redirects, an expiring certificate: warnings with what to do, and a failing HTTP security grade', async () => {
    // 20.5 of the certificate's 91 days left: under 30 days and under 25 % (22.5 %)
    const app = await appWith({
      web: { http: closedPort, https: poor.port },
      ipData: ipDataStandIn({}),
      pingPath: pingStandIn('ping-lossy', transcript(2)).path,
      now: pki.issuedAt.getTime() + 69.5 * DAY_MS,
    });
    const res = await check(POOR, app);
    expect(res.status).toBe(200);
    const poorBody = await res.json();
    expect(openApiMismatches('website-health-check', 200, poorBody)).toEqual([]);
    const { data } = poorBody;
    const checks: Check[] = data.checks;
    expect(statuses(checks)).toEqual({
      dns: 'info',
      location: 'info',
      organization: 'info',
      ping: 'warning',
      latency: 'ok',
      http: 'ok',
      redirects: 'warning',
      ssl: 'warning',
      security: 'warning',
      protocol: 'warning',
      compression: 'warning',
      ports: 'info',
      'tls-rating': 'info',
      'http-rating': 'critical',
    });
    const c = byId(checks);
    // TLS 1.2 at most and no HSTS: A- (no-tls13) is info; one security header of the Observatory's ten tests is critical
    expect(c['tls-rating']!).toMatchObject({
      summary: `The TLS configuration on port ${poor.port} grades A- (a light grade of its versions, preferred suites and certificate, score ${(c['tls-rating']!.details.grade as { score: number }).score}): TLS 1.3 is not supported; fix that for an A+. Run tls-rating for the full enumeration of suites and groups.`,
      details: { port: poor.port, grade: { letter: 'A-', caps: [], warnings: [{ code: 'no-tls13' }] } },
    });
    expect(c['http-rating']!).toMatchObject({
      summary: expect.stringMatching(
        /^The MDN HTTP Observatory grades https:\/\/poor\.lab\.test:\d+\/home [DF][+-]? \(score \d+, \d of 10 tests passed\); failed: .*content-security-policy.*; set the headers these tests read/,
      ),
      details: { statusCode: 200, finalUrl: `https://${POOR}:${poor.port}/home` },
    });
    expect(c.ssl!.summary).toBe(
      'The certificate expires in 20 days (22.5% of its validity period); renew it soon and check that automatic renewal works; TLS 1.2 is the newest version the server offers; enable TLS 1.3 (RFC 8446).',
    );
    expect(c.ssl!.details).toMatchObject({
      daysRemaining: 20,
      percentRemaining: 22.5,
      tlsVersion: 'TLSv1.2',
      certificateStatus: 'valid',
    });
    expect(c.security!.summary).toBe(
      'Only 1 of 5 security headers are set; add strict-transport-security, x-frame-options, referrer-policy and content-security-policy.',
    );
    expect(c.protocol!).toMatchObject({
      summary: expect.stringMatching(/HTTP\/1\.1 although HTTP\/2 was offered; enable HTTP\/2/),
      details: { protocol: 'HTTP/1.1' },
    });
    const length = Buffer.byteLength(POOR_HOME_PAGE);
    expect(c.compression!).toMatchObject({
      details: { encoding: 'none', contentType: 'text/html', contentLength: length },
    });
    expect(c.compression!.summary).toBe(
      `The page (text/html, ${length} bytes) is sent uncompressed; enable Brotli or gzip for text responses.`,
    );
    const base = `https://${POOR}:${poor.port}`;
    expect(c.redirects!.details).toEqual({
      hops: [
        { url: `${base}/`, statusCode: 301, location: `${base}/a` },
        { url: `${base}/a`, statusCode: 302, location: `${base}/b` },
        { url: `${base}/b`, statusCode: 302, location: `${base}/home` },
      ],
      finalUrl: `${base}/home`,
    });
    expect(c.redirects!.summary).toMatch(
      /^3 redirects before the page, each a round trip for visitors; link and redirect straight to/,
    );
    expect(c.ping!).toMatchObject({
      summary: expect.stringMatching(/^2 of 4 pings answered.*50% packet loss/),
      details: { packetLossPercent: 50, received: 2 },
    });
    expect(c.dns!.summary).toMatch(/add an AAAA record/);
    expect(c.ports!).toMatchObject({
      summary: expect.stringMatching(new RegExp(`^Port ${closedPort} is closed: addresses typed without https://`)),
      details: {
        ports: [
          { port: closedPort, protocol: 'tcp', status: 'closed' },
          { port: poor.port, protocol: 'tcp', status: 'open' },
        ],
      },
    });
    expect(data.verdict.status).toBe('critical');
    if (laterParts().length === 0) {
      expect(data.verdict.headline).toBe(
        '1 critical problem (HTTP security rating) and 6 warnings (Ping, Redirects, SSL/TLS, Security headers, HTTP protocol and Compression)',
      );
      expect(data.verdict.summary).toMatch(
        /^HTTP security rating: The MDN HTTP Observatory grades .* Ping: 2 of 4 pings answered.* Redirects: 3 redirects .* 4 more findings below\.$/,
      );
    } else expect(data.verdict).toEqual(verdictOf(checks));
  });

  it('an answer of 503 and a certificate about to expire are critical', async () => {
    // 4.5 days left: under 7 days and under 10 %
    const app = await appWith({
      web: { http: siteHttp.port, https: poor.port },
      now: pki.issuedAt.getTime() + 85.5 * DAY_MS,
    });
    const { data } = await (await check(`https://${POOR}:${poor.port}/down`, app)).json();
    const c = byId(data.checks);
    expect(c.http!).toMatchObject({
      status: 'critical',
      summary: expect.stringMatching(/^The page answers 503 Service Unavailable: visitors see a server error/),
    });
    expect(c.ssl!).toMatchObject({
      status: 'critical',
      summary: expect.stringMatching(
        /^The certificate expires in 4 days \(4\.9% of its validity period\); renew it now\.$/,
      ),
    });
    expect(data.verdict).toMatchObject({
      status: 'critical',
      headline: expect.stringMatching(/^2 critical problems \(HTTP status and SSL\/TLS\)/),
    });
    expect(data.targetUrl).toBe(`https://${POOR}:${poor.port}/down`);
  });

  it('a server with nothing newer than TLS 1.1: ssl critical, the page checks could not run', async () => {
    const app = await appWith({ web: { http: siteHttp.port, https: oldTls.port } });
    const { data } = await (await check(OLD, app)).json();
    const c = byId(data.checks);
    expect(c.ssl!).toMatchObject({
      status: 'critical',
      summary: expect.stringMatching(/offers no TLS version of 1\.2 or newer/),
    });
    for (const id of ['latency', 'http', 'redirects', 'security', 'protocol', 'compression']) {
      expect(c[id]).toMatchObject({ status: 'error', error: expect.stringMatching(/^TLS handshake with .* failed/) });
    }
    expect(c.ports!.status).toBe('ok');
    // the rating finds what the server does speak: TLS 1.0 and 1.1 only, capped at C (no-tls12): a warning
    expect(c['tls-rating']!).toMatchObject({
      status: 'warning',
      summary: expect.stringMatching(
        new RegExp(
          `^The TLS configuration on port ${oldTls.port} grades C \\(a light grade of its versions, preferred suites and certificate, score \\d+\\): .*neither TLS 1\\.2 nor TLS 1\\.3 is supported`,
        ),
      ),
      details: {
        port: oldTls.port,
        grade: { letter: 'C', caps: expect.arrayContaining([expect.objectContaining({ code: 'no-tls12' })]) },
      },
    });
    expect(data.verdict.status).toBe('critical');
  });

  it('https refused: the page is fetched over http:// instead, and the missing HTTPS is reported', async () => {
    const app = await appWith({ web: { http: plainOnly.port, https: closedPort } });
    const { data } = await (await check(PLAIN, app)).json();
    expect(data.targetUrl).toBe(`https://${PLAIN}:${closedPort}/`);
    const c = byId(data.checks);
    const fetched = `http://${PLAIN}:${plainOnly.port}/`;
    expect(c.http!).toMatchObject({
      status: 'warning',
      summary:
        'The site answers 200 OK over plain HTTP only (https:// refused the connection); serve it over HTTPS and redirect HTTP there.',
      details: { statusCode: 200, url: fetched, finalUrl: fetched, httpsRefused: true },
    });
    expect(c.ssl!).toMatchObject({
      status: 'critical',
      summary: expect.stringMatching(
        new RegExp(`^Port ${closedPort} refused the connection, so the site has no HTTPS`),
      ),
    });
    expect(c.ports!).toMatchObject({
      status: 'warning',
      summary: expect.stringMatching(new RegExp(`^Port ${closedPort} is closed, so the site has no HTTPS`)),
    });
    expect(c.protocol!).toMatchObject({ status: 'warning', summary: expect.stringMatching(/plain HTTP\/1\.1/) });
    expect((c.latency!.details as { breakdown: { tlsMs: number } }).breakdown.tlsMs).toBe(0);
    expect(c.security!.details).toMatchObject({
      present: 1,
      missing: expect.arrayContaining(['strict-transport-security']),
    });
    expect(data.verdict.status).toBe('critical');
  });

  it('a URL is fetched as given: no http:// fallback when its https refuses', async () => {
    const app = await appWith({ web: { http: plainOnly.port, https: closedPort } });
    const before = plainOnly.requests.length;
    const { data } = await (await check(`https://${PLAIN}:${closedPort}/`, app)).json();
    const c = byId(data.checks);
    expect(c.http!).toMatchObject({ status: 'error', error: expect.stringMatching(/refused/) });
    expect(c.ports!.status).toBe('critical');
    // a part that could not run still answers an object as its details (api-v1.md: details is an object)
    expect(c['tls-rating']!).toMatchObject({
      status: 'error',
      error: expect.stringMatching(/ECONNREFUSED/),
      details: { tested: false, reason: 'could-not-run' },
    });
    expect(data.checks.filter((check: { details: unknown }) => check.details === null)).toEqual([]);
    // Only http-rating (and security-txt's own file) reach the http port, as the single checks do (its
    // http:// session, and the CORS preflight of what answered): the page checks are not fetched over http://.
    expect(c['http-rating']!).toMatchObject({
      status: 'critical',
      details: { url: `http://${PLAIN}:${plainOnly.port}/`, httpsError: expect.stringMatching(/refused/) },
    });
    // security-txt asks its own file over http when https gives none (to tell http-only from missing)
    const requests = plainOnly.requests.slice(before).map((r) => `${r.method} ${r.path}`);
    expect(requests.sort()).toEqual(['GET /', 'GET /.well-known/security.txt', 'OPTIONS /']);
  });
});

describe('parts that fail', () => {
  it('IP data and the fetch time out: those checks are error with the reason, the others report', async () => {
    const failure = new ProbeError('TIMEOUT', 'ipinfo.io:443', 'no answer from ipinfo.io:443 within 1000 ms');
    const app = await appWith({ web: healthyWeb(), ipData: ipDataStandIn({}, failure) });
    const started = Date.now();
    const res = await check(`https://${HEALTHY}:${site.port}/hang`, app);
    expect(Date.now() - started).toBeLessThan(2 * FETCH_TIMEOUT_MS + 2000);
    expect(res.status).toBe(200);
    const body = await res.json();
    const { data } = body;
    const checks: Check[] = data.checks;
    expect(statuses(checks)).toEqual({
      dns: 'ok',
      location: 'error',
      organization: 'error',
      ping: 'ok',
      latency: 'error',
      http: 'error',
      redirects: 'error',
      ssl: 'ok',
      security: 'error',
      protocol: 'error',
      compression: 'error',
      ports: 'ok',
      'tls-rating': 'ok',
      'http-rating': 'error',
    });
    expect(openApiMismatches('website-health-check', 200, body)).toEqual([]);
    const c = byId(checks);
    // http-rating's https session hangs too, until http.timeoutMs: its part is error, details not tested
    expect(c['http-rating']!).toMatchObject({
      details: { tested: false, reason: 'could-not-run' },
      error: expect.stringMatching(/within/),
    });
    expect(c.location!).toMatchObject({
      error: 'no answer from ipinfo.io:443 within 1000 ms',
      summary: expect.stringMatching(
        /^This check could not run \(no answer from ipinfo\.io:443 within 1000 ms\); run the health check again/,
      ),
      details: { countryCode: null, country: null },
    });
    expect(c.http!).toMatchObject({
      error: `no complete answer from ${HEALTHY}:${site.port} within ${FETCH_TIMEOUT_MS} ms`,
      details: { statusCode: null },
    });
    expect(data.verdict).toMatchObject(
      laterParts().length === 0
        ? {
            status: 'warning',
            headline:
              '9 checks could not run (Location, Organization, Latency, HTTP status, Redirects, Security headers, HTTP protocol, Compression and HTTP security rating)',
          }
        : verdictOf(checks),
    );
    await site.waitForAllClosed();
  });

  it("a TLS rating is bounded by its part: graded partial before the bound, even beside another field's longer full rating", async () => {
    // every connection to the HTTPS port is delayed by 400 ms before it reaches the site: the light grade's round 1
    // and its HSTS fetch after it (800 ms at least) do not both fit in the rating's 800 ms
    const front = await startLegacyFront({ backendPort: site.port, suites: [], versions: [], delayMs: 400 });
    try {
      const app = await appWith({ web: { http: siteHttp.port, https: front.port } });
      const signal = AbortSignal.timeout(20_000);
      setMaxListeners(200, signal);
      const partBoundMs = 1800;

      // Alone: the rating stops RATING_ANSWER_MARGIN_MS before the part's bound and grades what it learnt.
      const alone = createCheckContext(app.services, signal);
      let started = performance.now();
      const result = await runWebsiteHealth(alone, { hostname: HEALTHY, url: null }, { partBoundMs });
      // a wide margin for a loaded machine: the verdict below (not error, partial) is what shows the bound held
      expect(performance.now() - started).toBeLessThan(partBoundMs + 2_000);
      const rated = result.checks.find((c) => c.id === 'tls-rating')!;
      expect(rated.error).toBeNull();
      expect(rated.summary).toMatch(/partial: the rating's bounds cut the enumeration short\)/);
      expect(rated.details).toMatchObject({ tlsRating: { port: front.port, partial: true, light: true } });

      // With the single check's full rating started first in the same request, the part is still its own
      // light grade under the part's bounds (sharing the full rating's round-1 handshakes): graded in time,
      // while the full rating goes on under its own bounds.
      // the budget of a request that pays for the full rating as well
      const shared = createCheckContext(app.services, signal, {
        connectionBudget: connectionBudgetFor(costOf(app.services.config, 'tls-rating')),
      });
      const single = runTlsRating(shared, { domain: HEALTHY, port: front.port });
      started = performance.now();
      const withSingle = await runWebsiteHealth(shared, { hostname: HEALTHY, url: null }, { partBoundMs });
      expect(performance.now() - started).toBeLessThan(partBoundMs + 2_000);
      const part = withSingle.checks.find((c) => c.id === 'tls-rating')!;
      expect(part.error).toBeNull();
      expect(part.details).toMatchObject({ tlsRating: { light: true } });
      const singleResult = await single;
      expect(singleResult).toMatchObject({ light: false, partial: false });
    } finally {
      await front.close();
    }
  });

  it('a redirect loop is critical for http and redirects', async () => {
    const app = await appWith({ web: healthyWeb() });
    const { data } = await (await check(`https://${HEALTHY}:${site.port}/loop/a`, app)).json();
    const c = byId(data.checks);
    expect(c.http!).toMatchObject({
      status: 'critical',
      summary: expect.stringMatching(/^The page redirects in a loop/),
    });
    expect(c.redirects!.status).toBe('critical');
    expect(c.security!).toMatchObject({
      status: 'error',
      error: expect.stringMatching(/^no page to measure: redirect loop/),
    });
    expect(data.verdict.status).toBe('critical');
  });

  it('a Cloudflare challenge is a warning, by its header or by its page', async () => {
    const app = await appWith({ web: healthyWeb() });
    for (const path of ['/challenge', '/cf-marker']) {
      const { data } = await (await check(`https://${HEALTHY}:${site.port}${path}`, app)).json();
      expect(byId(data.checks).http!).toMatchObject({
        status: 'warning',
        details: { cloudflareBlocked: true },
        summary: expect.stringMatching(
          /^Cloudflare answered (403 Forbidden|503 Service Unavailable) with a challenge page/,
        ),
      });
    }
  });
});

describe('refusals and failures of the whole check', () => {
  it('refuses a loopback target without the allow list: 400, nothing contacted', async () => {
    const ipData = ipDataStandIn(HOSTED);
    const ping = pingStandIn('ping-refused', transcript(4));
    const app = await appWith({ web: healthyWeb(), allow: false, ipData, pingPath: ping.path });
    const before = { site: site.connectionCount(), http: siteHttp.connectionCount() };
    const res = await check(HEALTHY, app);
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      ok: false,
      error: expect.stringMatching(
        /^target healthy\.lab\.test resolves to (127\.0\.0\.1|::1), an? .* address; checks of private or internal addresses are refused$/,
      ),
      meta: { tool: 'website-health-check', version: 'v1' },
    });
    expect(site.connectionCount()).toBe(before.site);
    expect(siteHttp.connectionCount()).toBe(before.http);
    expect(ping.runs()).toBe(0);
    expect(ipData.lookups).toEqual([]);
    // decisions §1: the name was resolved (a question upstream) before the refusal, so it is charged
    expect(res.headers.get('ratelimit-remaining')).toBe(String(300 - 3));
  });

  it('bad input is a 400 naming the parameter', async () => {
    const app = await appWith({ web: healthyWeb() });
    for (const query of [
      '',
      'target=',
      'target=ftp%3A%2F%2Fa.lab.test%2F',
      'target=a%20b.lab.test',
      'target=https%3A%2F%2F127.0.0.1%2F',
    ]) {
      const res = await app.get(`/api/v1/website-health-check${query ? `?${query}` : ''}`);
      expect(res.status, query).toBe(400);
      expect((await res.json()).error, query).toMatch(/target/);
    }
  });

  it('a name without addresses is a 400; a resolver failure is a 502 naming the resolver', async () => {
    const app = await appWith({ web: healthyWeb() });
    const none = await check(NO_ADDRESS, app);
    expect(none.status).toBe(400);
    expect((await none.json()).error).toBe(
      `target: ${NO_ADDRESS} has no A or AAAA record, so there is no address to check`,
    );
    dns.setBehaviour(BROKEN_DNS, { servfail: true });
    const failed = await check(BROKEN_DNS, app);
    expect(failed.status).toBe(502);
    // the service's own resolver is named, never located (test/security/internal-addresses.test.ts)
    expect((await failed.json()).error).toMatch(/^the service's resolver /);
  });
});
