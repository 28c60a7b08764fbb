/**
 * http-rating end to end: REST and GraphQL through the app, a loopback DNS lab as the system resolver and,
 * per site, an https and an http lab (the lab's ports as the web ports: `webPorts` seam) whose header sets
 * land on the Observatory's A+, B and F (the same sets as the corpus cases "a-plus: every header right",
 * "b: no CSP, rest right" and "f: nothing set", whose results the package itself recorded).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CORS_PREFLIGHT_ORIGIN } from './run.js';
import { createTestApp, graphql, type TestApp } from '../../../../test/helpers/app.js';
import { rr, startDnsLab, type DnsLab } from '../../../../test/lab/dns-server.js';
import { labCertificates, startHttpLab, type HttpLab, type LabPage } from '../../../../test/lab/http-server.js';

const LOOPBACK = ['127.0.0.0/8', '::1/128'];
const HTML = 'text/html; charset=utf-8';

/** The A+ set: every header right, CSP default-src 'none' with frame-ancestors, CORP same-origin. */
const A_PLUS_HEADERS: Record<string, string> = {
  'content-type': HTML,
  'strict-transport-security': 'max-age=63072000; includeSubDomains; preload',
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; form-action 'self'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'cross-origin-resource-policy': 'same-origin',
};
const A_PLUS_BODY = '<!doctype html><title>x</title><script src="/app.js"></script>';

interface Site {
  name: string;
  https: HttpLab | null;
  http: HttpLab;
  t: TestApp;
}

let dns: DnsLab;
const sites: Site[] = [];
const labs: HttpLab[] = [];

async function startSite(
  name: string,
  https: Record<string, LabPage> | null,
  http: (httpsPort: number) => Record<string, LabPage>,
  options: { allow?: string[] | null; hstsPreloadList?: string } = {},
): Promise<Site> {
  const { caCert, valid } = await labCertificates();
  const httpsLab = https === null ? null : await startHttpLab({ tls: valid, pages: https });
  // a port nothing listens on stands for a site without https
  const httpsPort = httpsLab?.port ?? 9;
  const httpLab = await startHttpLab({ pages: http(httpsPort) });
  labs.push(...(httpsLab ? [httpsLab] : []), httpLab);
  const allow = options.allow === undefined ? LOOPBACK : options.allow;
  const t = await createTestApp(
    {
      dns: { system: [`127.0.0.1:${dns.port}`], timeoutMs: 500 },
      http: { timeoutMs: 2000, hstsPreloadList: options.hstsPreloadList ?? null },
      ...(allow ? { targets: { allow } } : {}),
    },
    {
      connections: { tlsCa: caCert, connectTimeoutMs: 1000, handshakeTimeoutMs: 1000 },
      webPorts: { http: httpLab.port, https: httpsPort },
    },
  );
  const site = { name, https: httpsLab, http: httpLab, t };
  sites.push(site);
  return site;
}

const redirectTo = (url: string): Record<string, LabPage> => ({ '/': { status: 301, headers: { location: url } } });

let aPlus: Site;
let b: Site;
let f: Site;
let notFound: Site;
let httpOnly: Site;
let refusing: Site;
let preloaded: Site;
const scratch = mkdtempSync(join(tmpdir(), 'netdiag-http-rating-'));
/** Chromium's format: comment lines, then the entries */
const PRELOAD_LIST = `// a test copy of transport_security_state_static.json
{ "entries": [ { "name": "lab.test", "policy": "test", "mode": "force-https", "include_subdomains": true } ] }`;

beforeAll(async () => {
  dns = await startDnsLab({
    authoritative: false,
    records: ['aplus', 'b', 'f', 'missing', 'plain', 'refused', 'preloaded'].map((n) =>
      rr.a(`${n}.lab.test`, '127.0.0.1'),
    ),
  });
  aPlus = await startSite('aplus.lab.test', { '/': { headers: A_PLUS_HEADERS, body: A_PLUS_BODY } }, (port) =>
    redirectTo(`https://aplus.lab.test:${port}/`),
  );
  const { 'content-security-policy': _csp, ...withoutCsp } = A_PLUS_HEADERS;
  b = await startSite('b.lab.test', { '/': { headers: withoutCsp, body: A_PLUS_BODY } }, (port) =>
    redirectTo(`https://b.lab.test:${port}/`),
  );
  const bare = { headers: { 'content-type': HTML, 'access-control-allow-origin': '*' }, body: '<title>f</title>' };
  f = await startSite('f.lab.test', { '/': bare }, () => ({ '/': bare }));
  notFound = await startSite(
    'missing.lab.test',
    { '/': { status: 404, headers: A_PLUS_HEADERS, body: 'gone' } },
    (port) => redirectTo(`https://missing.lab.test:${port}/`),
  );
  httpOnly = await startSite('plain.lab.test', null, () => ({ '/': { headers: A_PLUS_HEADERS, body: A_PLUS_BODY } }));
  refusing = await startSite('refused.lab.test', { '/': { headers: A_PLUS_HEADERS } }, () => ({}), { allow: null });
  const preloadFile = join(scratch, 'preload.json');
  writeFileSync(preloadFile, PRELOAD_LIST);
  const { 'strict-transport-security': _hsts, ...withoutHsts } = A_PLUS_HEADERS;
  preloaded = await startSite(
    'preloaded.lab.test',
    { '/': { headers: withoutHsts, body: A_PLUS_BODY } },
    () => ({ '/': { headers: withoutHsts, body: A_PLUS_BODY } }),
    { hstsPreloadList: preloadFile },
  );
});

afterAll(async () => {
  await Promise.all(sites.map((s) => s.t.close()));
  await Promise.all(labs.map((lab) => lab.close()));
  await dns?.close();
  rmSync(scratch, { recursive: true, force: true });
});

async function rest(site: Site, url = site.name): Promise<{ status: number; body: any }> {
  const response = await site.t.get(`/api/v1/http-rating?url=${encodeURIComponent(url)}`);
  return { status: response.status, body: await response.json() };
}

const resultsOf = (data: any): Record<string, string> =>
  Object.fromEntries(data.tests.map((t: { name: string; result: string }) => [t.name, t.result]));

describe('http-rating', () => {
  it('grades the A+ header set A+ (REST)', async () => {
    const { status, body } = await rest(aPlus);
    expect(status).toBe(200);
    const data = body.data;
    expect(data).toMatchObject({
      url: `https://aplus.lab.test:${aPlus.https!.port}/`,
      finalUrl: `https://aplus.lab.test:${aPlus.https!.port}/`,
      statusCode: 200,
      algorithmVersion: 4,
      score: 130,
      grade: 'A+',
      testsPassed: 10,
      testsFailed: 0,
      testsQuantity: 10,
      error: null,
      httpsError: null,
      httpError: null,
    });
    expect(resultsOf(data)).toEqual({
      'content-security-policy': 'csp-implemented-with-no-unsafe-default-src-none',
      cookies: 'cookies-not-found',
      'cross-origin-resource-sharing': 'cross-origin-resource-sharing-not-implemented',
      'cross-origin-resource-policy': 'corp-implemented-with-same-origin',
      redirection: 'redirection-to-https',
      'referrer-policy': 'referrer-policy-private',
      'strict-transport-security': 'hsts-implemented-max-age-at-least-six-months',
      'subresource-integrity': 'sri-not-implemented-but-all-scripts-loaded-from-secure-origin',
      'x-content-type-options': 'x-content-type-options-nosniff',
      'x-frame-options': 'x-frame-options-implemented-via-csp',
    });
    expect(data.tests[0]).toEqual({
      name: 'content-security-policy',
      pass: true,
      result: 'csp-implemented-with-no-unsafe-default-src-none',
      scoreModifier: 10,
      description:
        "Content Security Policy (CSP) implemented with default-src 'none', no 'unsafe' and form-action is set to 'none' or 'self'",
    });
  });

  it('sends the CORS preflight with an Origin, and the document and http sessions as GETs', async () => {
    await rest(aPlus);
    const options = aPlus.https!.requests.filter((r) => r.method === 'OPTIONS');
    expect(options.length).toBeGreaterThan(0);
    expect(options[0]!.headers.origin).toBe(CORS_PREFLIGHT_ORIGIN);
    expect(options[0]!.headers['access-control-request-method']).toBe('GET');
    expect(aPlus.http.requests.every((r) => r.method === 'GET')).toBe(true);
  });

  it('grades the header set without CSP B: bonuses do not count under 90 (GraphQL)', async () => {
    const { status, body } = await graphql(
      b.t,
      '{ httpRating(url: "b.lab.test") { score grade testsPassed testsFailed tests { name pass result scoreModifier } } }',
    );
    expect(status).toBe(200);
    const data = body.data.httpRating;
    expect(data).toMatchObject({ score: 75, grade: 'B', testsPassed: 9, testsFailed: 1 });
    expect(data.tests.find((t: { name: string }) => t.name === 'content-security-policy')).toEqual({
      name: 'content-security-policy',
      pass: false,
      result: 'csp-not-implemented',
      scoreModifier: -25,
    });
    expect(resultsOf(data)).toMatchObject({
      'x-frame-options': 'x-frame-options-sameorigin-or-deny',
      'cross-origin-resource-policy': 'corp-implemented-with-same-origin',
      'referrer-policy': 'referrer-policy-private',
    });
  });

  it('grades a site with nothing set F', async () => {
    const { status, body } = await rest(f);
    expect(status).toBe(200);
    expect(body.data).toMatchObject({ score: 10, grade: 'F', testsPassed: 5, testsFailed: 5 });
    expect(resultsOf(body.data)).toEqual({
      'content-security-policy': 'csp-not-implemented',
      cookies: 'cookies-not-found',
      'cross-origin-resource-sharing': 'cross-origin-resource-sharing-implemented-with-public-access',
      'cross-origin-resource-policy': 'corp-not-implemented',
      redirection: 'redirection-missing',
      'referrer-policy': 'referrer-policy-not-implemented',
      'strict-transport-security': 'hsts-not-implemented',
      'subresource-integrity': 'sri-not-implemented-but-no-scripts-loaded',
      'x-content-type-options': 'x-content-type-options-not-implemented',
      'x-frame-options': 'x-frame-options-not-implemented',
    });
    expect(body.data.tests.map((t: { scoreModifier: number }) => t.scoreModifier)).toEqual([
      -25, 0, 0, 0, -20, 0, -20, 0, -5, -20,
    ]);
  });

  it('does not grade a 404: grade null and error, as a 200', async () => {
    const { status, body } = await rest(notFound);
    expect(status).toBe(200);
    expect(body.data).toMatchObject({ statusCode: 404, score: null, grade: null, tests: [] });
    expect(body.data.error).toMatch(/answered 404 .*2xx, 3xx, 401 and 403/);
  });

  it('grades the http session when https gives no answer, and says why', async () => {
    const { status, body } = await rest(httpOnly);
    expect(status).toBe(200);
    expect(body.data.url).toBe(`http://plain.lab.test:${httpOnly.http.port}/`);
    expect(body.data.httpsError).toMatch(/port 9 refused/);
    expect(resultsOf(body.data)).toMatchObject({
      'strict-transport-security': 'hsts-not-implemented-no-https',
      redirection: 'redirection-missing',
    });
  });

  it('counts a host under a preloaded domain as preloaded (http.hstsPreloadList)', async () => {
    const { status, body } = await rest(preloaded);
    expect(status).toBe(200);
    expect(resultsOf(body.data)).toMatchObject({
      'strict-transport-security': 'hsts-preloaded',
      redirection: 'redirection-all-redirects-preloaded',
    });
    expect(body.data).toMatchObject({ score: 135, grade: 'A+' });
  });

  it('refuses a target on a private address with 400, and sends it nothing', async () => {
    const { status, body } = await rest(refusing);
    expect(status).toBe(400);
    expect(body.ok).toBe(false);
    expect(refusing.https!.requests).toEqual([]);
    expect(refusing.http.requests).toEqual([]);
  });

  it('fails with 502 when neither session answers', async () => {
    // http on the URL's port and https on the web port: nothing listens on either
    const { status, body } = await rest(httpOnly, 'http://plain.lab.test:9/');
    expect(status).toBe(502);
    expect(body.ok).toBe(false);
  });
});
