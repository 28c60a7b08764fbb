/**
 * Threat: using the service to hammer a third party, many connections for few credits (issue 31 finding 4:
 * website-health-check ran a full TLS rating, about 33 connections per credit). For every tool, the
 * connections a permissive loopback site receives — its HTTPS, HTTP and SMTP servers, every TCP connect
 * counted — per credit the call costs must stay at or under CONNECTIONS_PER_CREDIT (10): the per-request
 * budget of src/loaders/connection-budget.ts, by construction. A tool missing from the table fails the test.
 *
 * 127.0.0.2 plays the site on the public Internet (targets.allow); every server is on loopback.
 */
import { costOf } from '../../src/graphql/pricing.js';
import http from 'node:http';
import https from 'node:https';
import type net from 'node:net';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpServer } from '../../src/http-server.js';
import { CONNECTIONS_PER_CREDIT } from '../../src/loaders/connection-budget.js';
import { restRoutes } from '../../src/rest/routes.js';
import { createTestApp, TEST_KEY, type TestApp } from '../helpers/app.js';
import { rr, startDnsLab, type DnsLab } from '../lab/dns-server.js';
import { createRatingPki, type RatingPki } from '../lab/rating-pki.js';
import { startSmtpServer, type LabSmtpServer } from '../lab/smtp-server.js';

const SITE = '127.0.0.2';
const HOST = 'site.test';
const MX = 'mx.site.test';
const PAGE =
  '<!doctype html><html><head><title>Site</title><meta property="og:title" content="Site"></head><body>hello</body></html>';

let pki: RatingPki;
let dns: DnsLab;
let t: TestApp;
let api: Server;
let base: string;
/** everything the site accepts: its HTTPS and HTTP servers count here, the SMTP server counts its own */
let accepted = 0;
let secure: https.Server;
let plain: http.Server;
let smtp: LabSmtpServer;

const listen = (server: net.Server) =>
  new Promise<number>((resolve) => server.listen(0, SITE, () => resolve((server.address() as AddressInfo).port)));
const close = (server: net.Server | undefined) =>
  new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));

/** A page, HSTS, a CORS answer to a preflight: a site that says yes to everything. */
function answer(request: http.IncomingMessage, response: http.ServerResponse): void {
  if (request.method === 'OPTIONS') {
    response.writeHead(204, { 'access-control-allow-origin': '*' }).end();
    return;
  }
  response.writeHead(200, {
    'content-type': 'text/html; charset=utf-8',
    'strict-transport-security': 'max-age=63072000',
  });
  response.end(PAGE);
}

beforeAll(async () => {
  pki = createRatingPki();
  const leaf = pki.leaf({ names: [HOST, `mta-sts.${HOST}`, MX], key: 'rsa2048' });
  // permissive: every version from TLS 1.0 and every suite OpenSSL has, at security level 0
  secure = https.createServer(
    { key: leaf.key, cert: leaf.chain, minVersion: 'TLSv1', ciphers: 'ALL:@SECLEVEL=0', honorCipherOrder: false },
    answer,
  );
  secure.on('tlsClientError', () => {});
  plain = http.createServer(answer);
  for (const server of [secure, plain]) server.on('connection', () => accepted++);
  const httpsPort = await listen(secure);
  const httpPort = await listen(plain);
  smtp = await startSmtpServer({
    behaviour: 'starttls',
    tls: { cert: leaf.chain, key: leaf.key },
    host: SITE,
    name: MX,
  });
  dns = await startDnsLab({
    authoritative: false,
    records: [
      rr.a(HOST, SITE),
      rr.a(`mta-sts.${HOST}`, SITE),
      rr.a(MX, SITE),
      rr.mx(HOST, 10, MX),
      rr.txt(HOST, 'v=spf1 mx -all'),
      rr.txt(`_dmarc.${HOST}`, 'v=DMARC1; p=reject'),
      rr.txt(`_mta-sts.${HOST}`, 'v=STSv1; id=1'),
      rr.txt(`_smtp._tls.${HOST}`, `v=TLSRPTv1; rua=mailto:tls@${HOST}`),
      rr.txt(`default._bimi.${HOST}`, `v=BIMI1; l=https://${HOST}/logo.svg`),
    ],
  });
  t = await createTestApp(
    {
      // enough credits for every tool once
      quota: { credits: 10_000 },
      dns: { system: [`127.0.0.1:${dns.port}`], timeoutMs: 1000 },
      targets: { allow: [`${SITE}/32`] },
      http: { timeoutMs: 3000 },
    },
    {
      connections: { tlsCa: pki.root, connectTimeoutMs: 1000, handshakeTimeoutMs: 1000 },
      webPorts: { http: httpPort, https: httpsPort },
      smtpPort: smtp.port,
      // ICMP is no connection; a ping stand-in that is not there keeps the test quick
      pingPath: '/nonexistent/ping',
    },
  );
  api = createHttpServer(t.app);
  await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
}, 60_000);

afterAll(async () => {
  for (const server of [api, secure, plain]) server?.closeAllConnections();
  await Promise.all([close(api), close(secure), close(plain), smtp?.close()]);
  await t?.close();
  await dns?.close();
  pki?.close();
});

/**
 * Each tool's query against the site (the HTTPS port where a tool takes one). A tool this list does not
 * name (a check added since) is asked with its main REST parameter alone: the site's URL for `url`, its
 * name otherwise.
 */
function queries(): Record<string, string> {
  const https = (secure.address() as AddressInfo).port;
  const site = `https://${HOST}:${https}/`;
  const url = (value: string) => encodeURIComponent(value);
  const byMainParameter = Object.fromEntries(
    [...restRoutes.values()].map((route) => {
      const main = route.parameters[0];
      return [route.tool, main === undefined ? '' : `${main}=${main === 'url' ? url(site) : HOST}`];
    }),
  );
  return {
    ...byMainParameter,
    'my-ip': '',
    'what-is-my-ip': '',
    ping: `host=${HOST}`,
    'dns-lookup': `domain=${HOST}`,
    'dns-propagation': `domain=${HOST}`,
    'mx-lookup': `domain=${HOST}`,
    'ip-info': `target=${SITE}`,
    'asn-lookup': `target=${SITE}`,
    'ssl-checker': `domain=${url(site)}`,
    'tls-configuration': `domain=${url(site)}`,
    'tls-rating': `domain=${url(site)}`,
    'port-checker': `host=${HOST}&port=${https}`,
    'http-headers': `url=${url(site)}`,
    'http-rating': `url=${url(site)}`,
    'open-graph-checker': `url=${url(site)}`,
    'website-health-check': `target=${HOST}`,
    'dns-blacklist-checker': `host=${SITE}`,
    'spf-checker': `domain=${HOST}`,
    'dkim-checker': `domain=${HOST}&selector=default`,
    'dmarc-checker': `domain=${HOST}`,
    'dnssec-test': `domain=${HOST}`,
    'dnssec-chain': `domain=${HOST}`,
    'mailhealth-check': `domain=${HOST}`,
    'mta-sts': `domain=${HOST}`,
    'tls-rpt': `domain=${HOST}`,
    'smtp-starttls': `host=${MX}&port=${smtp.port}`,
    dane: `host=${MX}&port=${smtp.port}`,
    bimi: `domain=${HOST}`,
    whois: `domain=${HOST}`,
    'abuse-contact-lookup': `domain=${HOST}`,
  };
}

// the price a call is charged (each check's default price is in its declaration)
const priceOf = (tool: string): number => costOf(t.services.config, tool);

const received = () => accepted + smtp.connections();

describe(`no tool connects to a third party more than ${CONNECTIONS_PER_CREDIT} times per credit`, () => {
  it('lists every tool', () => {
    expect(Object.keys(queries()).sort()).toEqual([...restRoutes.keys()].sort());
  });

  it('every tool, against a permissive site', async () => {
    const perTool: Record<string, { connections: number; price: number; status: number }> = {};
    for (const [tool, query] of Object.entries(queries())) {
      const before = received();
      const response = await fetch(`${base}/api/v1/${tool}${query ? `?${query}` : ''}`, {
        headers: { 'x-api-key': TEST_KEY },
      });
      await response.arrayBuffer();
      perTool[tool] = { connections: received() - before, price: priceOf(tool), status: response.status };
    }
    const over = Object.entries(perTool)
      .filter(([, c]) => c.connections > CONNECTIONS_PER_CREDIT * c.price)
      .map(([tool, c]) => `${tool}: ${c.connections} connections for ${c.price} credits`);
    expect(over).toEqual([]);
    // the counters see the connections: the checks that speak to the site did reach it
    expect(perTool['tls-rating']).toMatchObject({ status: 200 });
    expect(perTool['tls-rating']!.connections).toBeGreaterThan(CONNECTIONS_PER_CREDIT * 3);
    expect(perTool['website-health-check']).toMatchObject({ status: 200 });
    expect(perTool['website-health-check']!.connections).toBeGreaterThan(5);
    expect(perTool['mailhealth-check']!.connections).toBeGreaterThan(0);
    expect(perTool['smtp-starttls']).toMatchObject({ status: 200, connections: 1 });
  }, 120_000);
});
