/**
 * Threat: getting a check's price back by planting a refused address in upstream data (issue 31
 * finding 5). decisions §1 gives back a 400 only when it was decided before the first packet, and only
 * the caller's own argument can be refused that early: a URL or name read out of an answer (a
 * certificate's caIssuers URL, a redirect's Location, an MTA-STS policy host, a BIMI logo URL) is met
 * after the check sent something, so its refusal is charged — and, where the check can go on without it,
 * is a finding rather than the check's failure.
 *
 * Every upstream is a loopback server; 127.0.0.2 plays the public Internet (targets.allow), 127.0.0.1 is
 * refused, and a listener there counts the connections it gets: none.
 */
import http from 'node:http';
import https from 'node:https';
import net, { type AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpServer } from '../../src/http-server.js';
import { createTestApp, TEST_KEY, type TestApp } from '../helpers/app.js';
import { rr, startDnsLab, type DnsLab } from '../lab/dns-server.js';
import { createRatingPki, type RatingPki } from '../lab/rating-pki.js';

const PUBLIC = '127.0.0.2';
const REFUSED = '127.0.0.1';
const HOST = 'rated.lab.test';
const COSTS = { 'ip-info': 2, 'tls-rating': 10, 'http-headers': 3, bimi: 3, 'mta-sts': 3 };

let pki: RatingPki;
let dns: DnsLab;
let t: TestApp;
let api: Server;
let base: string;
/** the refused address's listener: every connection it accepts is a leak */
let trap: net.Server;
let trapPort: number;
let trapConnections = 0;
/** the rated server: a leaf sent without its intermediate, whose caIssuers URL is a refused literal */
let rated: https.Server;
let ratedPort: number;
/** a web server that redirects every request to the refused literal */
let redirector: http.Server;
let redirectorPort: number;

const listen = (server: net.Server, host: string) =>
  new Promise<number>((resolve) => server.listen(0, host, () => resolve((server.address() as AddressInfo).port)));
const close = (server: net.Server | undefined) =>
  new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));

beforeAll(async () => {
  trap = net.createServer((socket) => {
    trapConnections++;
    socket.destroy();
  });
  trapPort = await listen(trap, REFUSED);
  pki = createRatingPki();
  const leaf = pki.leaf({ names: [HOST], key: 'rsa2048', aiaUrl: `http://${REFUSED}:${trapPort}/issuer.der` });
  rated = https.createServer({ key: leaf.key, cert: leaf.cert }, (_request, response) => response.end('rated\n'));
  rated.on('tlsClientError', () => {});
  ratedPort = await listen(rated, PUBLIC);
  redirector = http.createServer((_request, response) => {
    response.writeHead(302, { location: `http://${REFUSED}:${trapPort}/inside` }).end();
  });
  redirectorPort = await listen(redirector, PUBLIC);
  dns = await startDnsLab({
    authoritative: false,
    records: [
      rr.a(HOST, PUBLIC),
      // BIMI: a logo URL that is a refused literal
      rr.txt('default._bimi.brand.test', `v=BIMI1; l=https://${REFUSED}:${trapPort}/logo.svg`),
      rr.txt('_dmarc.brand.test', 'v=DMARC1; p=reject'),
      // MTA-STS: the policy host resolves to the refused address
      rr.txt('_mta-sts.policy.test', 'v=STSv1; id=1'),
      rr.a('mta-sts.policy.test', REFUSED),
      rr.mx('policy.test', 10, 'mx.policy.test'),
    ],
  });
  t = await createTestApp(
    {
      quota: { credits: 1000, costs: COSTS },
      dns: { system: [`127.0.0.1:${dns.port}`], timeoutMs: 1000 },
      targets: { allow: [`${PUBLIC}/32`] },
      http: { timeoutMs: 3000 },
    },
    {
      connections: { tlsCa: pki.root, connectTimeoutMs: 1000, handshakeTimeoutMs: 1000 },
      webPorts: { http: redirectorPort, https: trapPort },
    },
  );
  api = createHttpServer(t.app);
  base = `http://127.0.0.1:${await listen(api, '127.0.0.1')}`;
}, 60_000);

afterAll(async () => {
  api?.closeAllConnections();
  rated?.closeAllConnections();
  await Promise.all([close(api), close(rated), close(redirector), close(trap)]);
  await t?.close();
  await dns?.close();
  pki?.close();
});

/** One REST call over the real socket. */
async function call(path: string): Promise<{ status: number; body: any }> {
  const response = await fetch(`${base}${path}`, { headers: { 'x-api-key': TEST_KEY } });
  return { status: response.status, body: await response.json() };
}

/** The credits `path` cost, read from the ledger through ip-info (local data, price 2) before and after. */
async function spentOn(path: string): Promise<{ spent: number; status: number; body: any }> {
  const left = async () => {
    const probe = await fetch(`${base}/api/v1/ip-info?target=9.9.9.9`, { headers: { 'x-api-key': TEST_KEY } });
    await probe.arrayBuffer();
    return Number(probe.headers.get('ratelimit-remaining'));
  };
  const before = await left();
  const { status, body } = await call(path);
  return { spent: before - (await left()) - COSTS['ip-info'], status, body };
}

describe('a refused URL out of upstream data is charged, never given back', () => {
  it('tls-rating: a caIssuers URL that is a refused literal leaves the chain incomplete and the rating graded (T), charged 10', async () => {
    trapConnections = 0;
    const { spent, status, body } = await spentOn(
      `/api/v1/tls-rating?domain=${encodeURIComponent(`https://${HOST}:${ratedPort}`)}`,
    );
    expect(status).toBe(200);
    expect(body.data.certificate).toMatchObject({ chainComplete: false, status: 'untrusted' });
    // grades.md step 1: without a usable AIA URL, an incomplete chain is untrusted
    expect(body.data.grade).toMatchObject({ letter: 'T' });
    expect(body.data.grade.letterIgnoringTrust).toMatch(/^[A-F]/);
    expect(spent).toBe(COSTS['tls-rating']);
    expect(trapConnections).toBe(0);
  });

  it('a redirect to a refused literal is a 400 TARGET_REFUSED, charged', async () => {
    trapConnections = 0;
    const { spent, status, body } = await spentOn(
      `/api/v1/http-headers?url=${encodeURIComponent(`http://${PUBLIC}:${redirectorPort}/`)}`,
    );
    expect(status).toBe(400);
    expect(body).toMatchObject({ ok: false, error: expect.stringMatching(/127\.0\.0\.1 is a loopback address/) });
    expect(spent).toBe(COSTS['http-headers']);
    expect(trapConnections).toBe(0);
  });

  it('bimi: a logo URL that is a refused literal is a finding, charged', async () => {
    trapConnections = 0;
    const { spent, status, body } = await spentOn('/api/v1/bimi?domain=brand.test');
    expect(status).toBe(200);
    expect(body.data.status).toBe('invalid');
    expect(body.data.errors.join(' ')).toMatch(/127\.0\.0\.1/);
    expect(spent).toBe(COSTS.bimi);
    expect(trapConnections).toBe(0);
  });

  it('mta-sts: a policy host at a refused address is a finding, charged', async () => {
    trapConnections = 0;
    const { spent, status, body } = await spentOn('/api/v1/mta-sts?domain=policy.test');
    expect(status).toBe(200);
    expect(body.data.status).toBe('invalid');
    expect(body.data.fetch.error).toMatch(/127\.0\.0\.1/);
    expect(spent).toBe(COSTS['mta-sts']);
    expect(trapConnections).toBe(0);
  });
});

describe("the caller's own refused literal is still given back (decisions §1)", () => {
  it.each([
    ['http-headers', `url=${encodeURIComponent(`http://${REFUSED}:9/`)}`],
    ['port-checker', `host=${REFUSED}&port=9`],
    ['ping', `host=${REFUSED}`],
    ['smtp-starttls', `host=${REFUSED}`],
  ])('%s', async (tool, query) => {
    trapConnections = 0;
    const { spent, status, body } = await spentOn(`/api/v1/${tool}?${query}`);
    expect(status).toBe(400);
    expect(body).toMatchObject({ ok: false, error: expect.stringMatching(/127\.0\.0\.1 is a loopback address/) });
    expect(spent).toBe(0);
  });
});
