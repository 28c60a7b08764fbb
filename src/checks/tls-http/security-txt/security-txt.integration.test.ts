/**
 * security-txt end to end: the lab DNS as the system resolver (every lab host is 127.0.0.1), a loopback
 * HTTPS server answering by host name (the webPorts seam points port 443 at it, the lab root is the trust
 * anchor) and a loopback HTTP server for the http fallback; REST over a real socket and in process, GraphQL,
 * every finding, the target guard refusing loopback, and the check's part of website-health-check.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpServer } from '../../../http-server.js';
import { createCheckContext } from '../../../loaders/context.js';
import { websiteParts, type WebsiteSite } from '../../composite/website-health-check/parts.js';
import { createTestApp, graphql, TEST_KEY, type TestApp } from '../../../../test/helpers/app.js';
import { openApiMismatches } from '../../../../test/helpers/openapi.js';
import { rr, startDnsLab, type DnsLab } from '../../../../test/lab/dns-server.js';
import { startDocumentServer, type DocumentServer, type LabDocument } from '../../../../test/lab/document-server.js';
import { labLeafFor, labPki } from '../../../../test/lab/pki.js';

const HOSTS = [
  'good',
  'moved',
  'missing',
  'httponly',
  'markup',
  'huge',
  'nocontact',
  'expired',
  'far',
  'canonical',
].map((h) => `${h}.sectxt.test`);
const PATH = '/.well-known/security.txt';
const DAY_MS = 86_400_000;
const inDays = (days: number) => new Date(Date.now() + days * DAY_MS).toISOString().replace(/\.\d{3}Z$/, 'Z');
const text = (body: string, type = 'text/plain; charset=utf-8'): LabDocument => ({
  headers: { 'content-type': type },
  body,
});
const file = (...lines: string[]) => `${lines.join('\n')}\n`;

let dns: DnsLab;
let web: DocumentServer;
let plain: http.Server;
const plainDocuments: Record<string, LabDocument> = {};
let t: TestApp;
let refusing: TestApp;
let server: Server;
let base: string;
let httpsUrl: (host: string) => string;

beforeAll(async () => {
  const pki = await labPki();
  const leaf = await labLeafFor(HOSTS);
  const documents: Record<string, LabDocument> = {};
  web = await startDocumentServer({ cert: leaf.chain, key: leaf.key }, documents);
  httpsUrl = (host) => `https://${host}:${web.port}${PATH}`;
  const expires = `Expires: ${inDays(100)}`;
  // the server reads the map at each request: filled once its port (in the URLs) is known
  Object.assign(documents, {
    [`good.sectxt.test${PATH}`]: text(
      file(
        '-----BEGIN PGP SIGNED MESSAGE-----',
        'Hash: SHA256',
        '',
        '# How to tell us about a vulnerability',
        'Contact: mailto:security@good.sectxt.test',
        'Contact: https://good.sectxt.test/report',
        `Expires: ${inDays(200)}`,
        'Encryption: https://good.sectxt.test/pgp-key.txt',
        'Acknowledgments: https://good.sectxt.test/thanks',
        'Policy: https://good.sectxt.test/policy',
        'Preferred-Languages: en, nl',
        `Canonical: ${httpsUrl('good.sectxt.test')}`,
        'Hiring: https://good.sectxt.test/jobs',
        'CSAF: https://good.sectxt.test/.well-known/csaf/provider-metadata.json',
        'Bug-Bounty: https://good.sectxt.test/bounty',
        '-----BEGIN PGP SIGNATURE-----',
        '',
        'iHUEARYIAB0WIQRlYWJjZGVmZ2hpamtsbW5vcHFyc3R1dnd4eXo=',
        '=0000',
        '-----END PGP SIGNATURE-----',
      ),
    ),
    [`moved.sectxt.test${PATH}`]: { status: 301, headers: { location: httpsUrl('good.sectxt.test') } },
    [`markup.sectxt.test${PATH}`]: text(
      file('<html><body>', 'Contact: mailto:security@markup.sectxt.test', expires, '</body></html>'),
      'text/html',
    ),
    [`huge.sectxt.test${PATH}`]: text(
      file('Contact: mailto:security@huge.sectxt.test', expires, `# ${'x'.repeat(40 * 1024)}`),
    ),
    [`nocontact.sectxt.test${PATH}`]: text(file('Policy: https://nocontact.sectxt.test/policy')),
    [`expired.sectxt.test${PATH}`]: text(file('Contact: mailto:s@expired.sectxt.test', `Expires: ${inDays(-3)}`)),
    [`far.sectxt.test${PATH}`]: text(file('Contact: mailto:s@far.sectxt.test', `Expires: ${inDays(800)}`)),
    [`canonical.sectxt.test${PATH}`]: text(
      file(
        'Contact: mailto:s@canonical.sectxt.test',
        expires,
        'Canonical: https://elsewhere.test/.well-known/security.txt',
      ),
    ),
  });
  plainDocuments[`httponly.sectxt.test${PATH}`] = text(file('Contact: mailto:s@httponly.sectxt.test', expires));
  plain = http.createServer((req, res) => {
    const doc = plainDocuments[`${(req.headers.host ?? '').replace(/:\d+$/, '')}${req.url}`];
    res.writeHead(doc?.status ?? (doc ? 200 : 404), doc?.headers ?? { 'content-type': 'text/plain' });
    res.end(doc?.body ?? 'not found');
  });
  await new Promise<void>((resolve) => plain.listen(0, '127.0.0.1', resolve));

  dns = await startDnsLab({ authoritative: false, records: HOSTS.map((h) => rr.a(h, '127.0.0.1')) });
  const config = { dns: { system: [`127.0.0.1:${dns.port}`], timeoutMs: 500 }, targets: { allow: ['127.0.0.0/8'] } };
  const overrides = {
    connections: { tlsCa: pki.root.cert, connectTimeoutMs: 1000, handshakeTimeoutMs: 1000 },
    webPorts: { http: (plain.address() as AddressInfo).port, https: web.port },
  };
  t = await createTestApp(config, overrides);
  refusing = await createTestApp({ dns: config.dns }, overrides);
  server = createHttpServer(t.app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  if (server) await new Promise((resolve) => server.close(resolve));
  if (plain) await new Promise((resolve) => plain.close(resolve));
  await Promise.all([t?.close(), refusing?.close(), dns?.close(), web?.close()]);
});

/** GET /api/v1/security-txt over the real socket. */
async function securityTxt(domain: string): Promise<{ status: number; body: any; headers: Headers }> {
  const res = await fetch(`${base}/api/v1/security-txt?domain=${encodeURIComponent(domain)}`, {
    headers: { 'x-api-key': TEST_KEY },
  });
  return { status: res.status, body: await res.json(), headers: res.headers };
}

const findingsOf = async (domain: string) =>
  (await securityTxt(domain)).body.data.findings.map((f: { code: string; severity: string }) => [f.code, f.severity]);

describe('security-txt', () => {
  it('a signed, complete, current file over https: every field, no finding, 3 credits', async () => {
    const { status, body, headers } = await securityTxt('Good.SECTXT.test.');
    expect(status).toBe(200);
    expect(headers.get('ratelimit-remaining')).toBe('297');
    expect(body.meta).toEqual({ tool: 'security-txt', version: 'v1' });
    expect(openApiMismatches('security-txt', 200, body)).toEqual([]);
    expect(body.data).toMatchObject({
      domain: 'good.sectxt.test',
      found: true,
      url: httpsUrl('good.sectxt.test'),
      httpsStatus: 200,
      httpsError: null,
      contentType: 'text/plain; charset=utf-8',
      signed: true,
      contact: ['mailto:security@good.sectxt.test', 'https://good.sectxt.test/report'],
      encryption: ['https://good.sectxt.test/pgp-key.txt'],
      acknowledgments: ['https://good.sectxt.test/thanks'],
      policy: ['https://good.sectxt.test/policy'],
      preferredLanguages: ['en', 'nl'],
      canonical: [httpsUrl('good.sectxt.test')],
      hiring: ['https://good.sectxt.test/jobs'],
      csaf: ['https://good.sectxt.test/.well-known/csaf/provider-metadata.json'],
      otherFields: [{ name: 'Bug-Bounty', value: 'https://good.sectxt.test/bounty' }],
      malformedLines: [],
      findings: [],
    });
    expect(body.data.expiresInDays).toBeGreaterThanOrEqual(199);
    expect(body.data.expiresAt).toBe(new Date(body.data.expires).toISOString());
    // in process, the same answer (and the example the OpenAPI document shows)
    const inProcess = await (await t.get('/api/v1/security-txt?domain=good.sectxt.test')).json();
    expect(inProcess).toEqual(body);
  });

  it('follows a redirect, each hop through the guard: the file is where it landed', async () => {
    const { body } = await securityTxt('moved.sectxt.test');
    expect(body.data).toMatchObject({ found: true, url: httpsUrl('good.sectxt.test'), httpsStatus: 200, findings: [] });
    expect(web.requests).toContain(`moved.sectxt.test ${PATH}`);
  });

  it('missing: 404 over https and http, each said', async () => {
    const { body } = await securityTxt('missing.sectxt.test');
    expect(body.data).toMatchObject({ found: false, url: null, httpsStatus: 404, signed: false, contact: [] });
    expect(body.data.findings).toEqual([
      {
        code: 'missing',
        severity: 'info',
        message: `No security.txt for missing.sectxt.test: ${httpsUrl('missing.sectxt.test')} answered 404, and over http http://missing.sectxt.test:${(plain.address() as AddressInfo).port}${PATH} answered 404.`,
      },
    ]);
  });

  it('http-only: https has none, http serves it', async () => {
    const { body } = await securityTxt('httponly.sectxt.test');
    expect(body.data).toMatchObject({ found: true, httpsStatus: 404, contact: ['mailto:s@httponly.sectxt.test'] });
    expect(body.data.url).toMatch(/^http:\/\/httponly\.sectxt\.test:\d+\/\.well-known\/security\.txt$/);
    expect(await findingsOf('httponly.sectxt.test')).toEqual([['http-only', 'warning']]);
  });

  it('wrong-content-type and malformed: fields served inside markup as text/html', async () => {
    const { body } = await securityTxt('markup.sectxt.test');
    expect(body.data.contact).toEqual(['mailto:security@markup.sectxt.test']);
    expect(body.data.malformedLines.map((l: { line: number }) => l.line)).toEqual([1, 4]);
    expect(body.data.findings.map((f: { code: string }) => f.code)).toEqual(['wrong-content-type', 'malformed']);
  });

  it('too-large: cut at 32 KiB, what came before still read', async () => {
    const { body } = await securityTxt('huge.sectxt.test');
    expect(body.data.contact).toEqual(['mailto:security@huge.sectxt.test']);
    // the long comment is cut, not malformed
    expect(await findingsOf('huge.sectxt.test')).toEqual([['too-large', 'warning']]);
  });

  it('no-contact and no-expires', async () => {
    expect(await findingsOf('nocontact.sectxt.test')).toEqual([
      ['no-contact', 'critical'],
      ['no-expires', 'warning'],
    ]);
  });

  it('expired, and expires-too-far', async () => {
    const expired = await securityTxt('expired.sectxt.test');
    expect(expired.body.data.expiresInDays).toBeLessThan(0);
    expect(await findingsOf('expired.sectxt.test')).toEqual([['expired', 'critical']]);
    expect(await findingsOf('far.sectxt.test')).toEqual([['expires-too-far', 'info']]);
  });

  it('canonical-mismatch', async () => {
    const { body } = await securityTxt('canonical.sectxt.test');
    expect(body.data.findings).toEqual([
      {
        code: 'canonical-mismatch',
        severity: 'warning',
        message: `None of the Canonical URIs of security.txt is ${httpsUrl('canonical.sectxt.test')}, where it was found (RFC 9116 §2.5.2).`,
      },
    ]);
  });

  it('the target guard: a loopback address not allowed is never fetched, and says so', async () => {
    const before = web.requests.length;
    const res = await refusing.get('/api/v1/security-txt?domain=good.sectxt.test');
    expect(res.status).toBe(200);
    const { data } = await res.json();
    expect(data).toMatchObject({ found: false, httpsStatus: null });
    expect(data.httpsError).toMatch(/127\.0\.0\.1/);
    expect(data.findings.map((f: { code: string }) => f.code)).toEqual(['missing']);
    expect(web.requests.length).toBe(before);
  });

  it('refuses what is no host name with a 400 naming the parameter', async () => {
    const { status, body } = await securityTxt('not a name');
    expect(status).toBe(400);
    expect(body.error).toMatch(/domain/);
  });

  it('through GraphQL: the same answer', async () => {
    const res = await graphql(
      t,
      `query { securityTxt(domain: "expired.sectxt.test") { found signed contact findings { code severity } } }`,
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.securityTxt).toEqual({
      found: true,
      signed: false,
      contact: ['mailto:s@expired.sectxt.test'],
      findings: [{ code: 'expired', severity: 'critical' }],
    });
  });
});

describe("security-txt's part of website-health-check", () => {
  it('joined from its declaration: the worst finding is its status', async () => {
    const part = websiteParts.partOf('security-txt');
    expect(part).toMatchObject({ field: 'securityTxt', check: { tool: 'security-txt' } });
    const run = async (hostname: string) => {
      const checks = createCheckContext(t.services, AbortSignal.timeout(10_000));
      return part!.spec.run({ checks, hostname } as WebsiteSite);
    };
    expect(await run('good.sectxt.test')).toMatchObject({
      status: 'ok',
      summary: `${httpsUrl('good.sectxt.test')} says how to report a vulnerability (mailto:security@good.sectxt.test).`,
    });
    expect((await run('missing.sectxt.test')).status).toBe('info');
    expect((await run('httponly.sectxt.test')).status).toBe('warning');
    expect((await run('expired.sectxt.test')).status).toBe('critical');
  });
});
