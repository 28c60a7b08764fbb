/**
 * http-headers and open-graph-checker end to end: REST and GraphQL through the app, a loopback
 * DNS lab as the system resolver naming the HTTP labs' hosts, and loopback HTTP(S) labs.
 */
import net from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, graphql, type TestApp } from '../../../../test/helpers/app.js';
import { rr, startDnsLab, type DnsLab } from '../../../../test/lab/dns-server.js';
import {
  HUGE_BODY_BYTES,
  SECURITY_HEADER_VALUES,
  labCertificates,
  startHttpLab,
  type HttpLab,
} from '../../../../test/lab/http-server.js';

const SITE = 'site.lab.test';
/** resolves to 127.0.0.2: admitted by `t`, refused by `narrow` (which allows 127.0.0.1/32 only) */
const EVIL = 'evil.lab.test';
const TIMEOUT_MS = 1500;
const MAX_BODY = 64 * 1024;
const MAX_REDIRECTS = 3;

const ARTICLE = `<!doctype html>
<html><head>
<meta charset="utf-8">
<title>  Fish &amp;
  Chips  </title>
<meta property="og:title" content="Fish &amp; Chips &#8212; a history">
<meta property="og:description" content="Batter, &quot;chips&quot; and vinegar">
<meta property="og:image" content="../img/cover.png">
<meta property="og:url" content="/blog/post">
<meta property="og:type" content="article">
<meta property="og:site_name" content="Lab Blog">
<meta name="twitter:card" content="summary_large_image">
<meta name="twitter:site" content="@lab">
<meta name="twitter:image" content="https://cdn.lab.test/t.png">
</head><body><meta property="og:title" content="not in the head"></body></html>`;

/** windows-1252 bytes: "Café" with é as 0xE9, declared only by <meta charset> */
const LATIN_META = Buffer.concat([
  Buffer.from('<html><head><meta charset="windows-1252"><title>Caf'),
  Buffer.from([0xe9]),
  Buffer.from('</title><meta property="og:title" content="Na'),
  Buffer.from([0xef]),
  Buffer.from('ve"></head></html>'),
]);

/** the head ends early; then a body far beyond http.maxBodyBytes */
const LONG_BODY = `<html><head><title>short head</title><meta property="og:type" content="website"></head><body>${'x'.repeat(4 * MAX_BODY)}</body></html>`;

let dns: DnsLab;
let lab: HttpLab;
let tlsLab: HttpLab;
let expiredLab: HttpLab;
let evilLab: HttpLab;
/** loopback admitted */
let t: TestApp;
/** only 127.0.0.1 admitted */
let narrow: TestApp;
/** the production rule: loopback refused */
let refusing: TestApp;

async function appWith(allow: string[] | null): Promise<TestApp> {
  const { caCert } = await labCertificates();
  return createTestApp(
    {
      dns: { system: [`127.0.0.1:${dns.port}`], timeoutMs: 500 },
      http: { timeoutMs: TIMEOUT_MS, maxRedirects: MAX_REDIRECTS, maxBodyBytes: MAX_BODY },
      ...(allow ? { targets: { allow } } : {}),
    },
    { connections: { tlsCa: caCert, connectTimeoutMs: 1000, handshakeTimeoutMs: 1000 } },
  );
}

beforeAll(async () => {
  dns = await startDnsLab({
    authoritative: false,
    records: [
      rr.a(SITE, '127.0.0.1'),
      rr.a('www.lab.test', '127.0.0.1'),
      rr.a(EVIL, '127.0.0.2'),
      rr.txt('noaddr.lab.test', 'no address'),
    ],
  });
  const certs = await labCertificates();
  lab = await startHttpLab({
    pages: {
      '/blog/post': { headers: { 'content-type': 'text/html; charset=utf-8' }, body: ARTICLE },
      '/latin': { headers: { 'content-type': 'text/html' }, body: LATIN_META },
      '/header-charset': {
        headers: { 'content-type': 'text/html; charset=iso-8859-1' },
        body: Buffer.concat([Buffer.from('<title>Z'), Buffer.from([0xfc]), Buffer.from('rich</title>')]),
      },
      '/bad-charset': {
        headers: { 'content-type': 'text/html; charset=no-such-charset' },
        body: '<title>Ünïcode</title>',
      },
      '/long': { headers: { 'content-type': 'text/html' }, body: LONG_BODY },
      '/json': { headers: { 'content-type': 'application/json' }, body: '{"title":"no"}' },
      '/many-headers': {
        status: 404,
        reason: 'Nowhere',
        headers: {
          'content-type': 'text/plain',
          'x-multi': ['one', 'two'],
          'set-cookie': ['a=1; Expires=Wed, 21 Oct 2037 07:28:00 GMT', 'b=2'],
        },
        body: 'gone',
      },
      '/to-mailto': { status: 302, headers: { location: 'mailto:someone@lab.test' } },
    },
  });
  tlsLab = await startHttpLab({ tls: certs.valid, http2: true });
  expiredLab = await startHttpLab({ tls: certs.expired });
  evilLab = await startHttpLab({ host: '127.0.0.2' });
  t = await appWith(['127.0.0.0/8', '::1/128']);
  narrow = await appWith(['127.0.0.1/32']);
  refusing = await appWith(null);
});

afterAll(async () => {
  for (const app of [t, narrow, refusing]) await app?.close();
  for (const server of [lab, tlsLab, expiredLab, evilLab]) await server?.close();
  await dns?.close();
});

beforeEach(() => {
  dns.clearBehaviours();
  dns.clearQueries();
});

const get = (app: TestApp, tool: string, url: string) => app.get(`/api/v1/${tool}?url=${encodeURIComponent(url)}`);

async function json(res: Response): Promise<any> {
  return res.json();
}

function requestsTo(server: HttpLab, path: string): number {
  return server.requests.filter((r) => r.path === path).length;
}

describe('http-headers', () => {
  it('reports status, every header and the security score of a plain-http page', async () => {
    const url = lab.url('/ok', SITE);
    const res = await get(t, 'http-headers', url);
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(body.meta).toEqual({ tool: 'http-headers', version: 'v1' });
    expect(body.data).toEqual({
      requestedUrl: url,
      statusCode: 200,
      statusText: 'OK',
      responseTime: expect.any(Number),
      finalUrl: url,
      redirectChain: [],
      headers: {
        'content-type': 'text/html; charset=utf-8',
        ...SECURITY_HEADER_VALUES,
        'content-length': '17',
        date: expect.any(String),
        connection: 'keep-alive',
        'keep-alive': expect.stringMatching(/^timeout=\d+$/),
      },
      // Strict-Transport-Security does not count over plain HTTP (RFC 6797 §8.1).
      security: {
        score: 4,
        total: 5,
        present: ['x-frame-options', 'x-content-type-options', 'referrer-policy', 'content-security-policy'],
        missing: ['strict-transport-security'],
      },
      httpVersion: '1.1',
      redirectLimitReached: false,
      redirectNotFollowed: null,
      tlsError: null,
    });
    expect(body.data.responseTime).toBeGreaterThan(0);
  });

  it('speaks HTTP/2 over https with SNI, counting all five security headers', async () => {
    const res = await get(t, 'http-headers', tlsLab.url('/ok', SITE));
    const body = await json(res);
    expect(body.data).toMatchObject({
      statusCode: 200,
      statusText: 'OK',
      httpVersion: '2',
      tlsError: null,
      security: { score: 5, total: 5, missing: [] },
    });
    expect(body.data.headers['strict-transport-security']).toBe(SECURITY_HEADER_VALUES['strict-transport-security']);
  });

  it('still reports the headers of a site whose certificate expired, naming the problem', async () => {
    const body = await json(await get(t, 'http-headers', expiredLab.url('/ok', SITE)));
    expect(body.ok).toBe(true);
    expect(body.data).toMatchObject({ statusCode: 200, tlsError: 'CERT_HAS_EXPIRED' });
  });

  it('keeps a non-2xx status, its own reason phrase and repeated fields as HTTP joins them', async () => {
    const body = await json(await get(t, 'http-headers', lab.url('/many-headers', SITE)));
    expect(body.data).toMatchObject({ statusCode: 404, statusText: 'Nowhere', redirectChain: [] });
    expect(body.data.headers['x-multi']).toBe('one, two');
    expect(body.data.headers['set-cookie']).toBe('a=1; Expires=Wed, 21 Oct 2037 07:28:00 GMT\nb=2');
  });

  it('lists every URL that answered with a redirect, starting with the requested one', async () => {
    const url = lab.url('/chain/3', SITE);
    const body = await json(await get(t, 'http-headers', url));
    expect(body.data).toMatchObject({
      requestedUrl: url,
      statusCode: 200,
      finalUrl: lab.url('/chain/0', SITE),
      redirectChain: [url, lab.url('/chain/2', SITE), lab.url('/chain/1', SITE)],
      redirectLimitReached: false,
    });
  });

  it('follows a redirect to another host and scheme, checking the new host', async () => {
    const target = tlsLab.url('/ok', 'www.lab.test');
    const url = lab.url(`/redirect?status=308&to=${encodeURIComponent(target)}`, SITE);
    const body = await json(await get(t, 'http-headers', url));
    expect(body.data).toMatchObject({
      requestedUrl: url,
      finalUrl: target,
      redirectChain: [url],
      statusCode: 200,
      httpVersion: '2',
    });
    expect(dns.countQueries('www.lab.test', 'A')).toBe(1);
  });

  it('stops after http.maxRedirects redirects and says so', async () => {
    const url = lab.url('/chain/5', SITE);
    const before = requestsTo(lab, '/chain/1');
    const body = await json(await get(t, 'http-headers', url));
    expect(body.data).toMatchObject({
      statusCode: 302,
      finalUrl: lab.url('/chain/2', SITE),
      redirectChain: [url, lab.url('/chain/4', SITE), lab.url('/chain/3', SITE), lab.url('/chain/2', SITE)],
      redirectLimitReached: true,
    });
    expect(requestsTo(lab, '/chain/1')).toBe(before);
  });

  it('does not follow a redirect to mailto: and says why', async () => {
    const body = await json(await get(t, 'http-headers', lab.url('/to-mailto', SITE)));
    expect(body.data).toMatchObject({
      statusCode: 302,
      redirectChain: [lab.url('/to-mailto', SITE)],
      redirectNotFollowed: { reason: 'unsupported-scheme', location: 'mailto:someone@lab.test' },
    });
  });

  it('fails a redirect loop with a 502 naming the loop', async () => {
    const res = await get(t, 'http-headers', lab.url('/loop/a', SITE));
    expect(res.status).toBe(502);
    const body = await json(res);
    expect(body).toEqual({
      ok: false,
      error: `redirect loop: ${lab.url('/loop/a', SITE)} → ${lab.url('/loop/b', SITE)} → ${lab.url('/loop/a', SITE)}`,
      meta: { tool: 'http-headers', version: 'v1' },
    });
    const gql = await graphql(t, 'query ($url: String!) { httpHeaders(url: $url) { statusCode } }', {
      url: lab.url('/loop/a', SITE),
    });
    expect(gql.body.errors[0].extensions).toMatchObject({
      code: 'UPSTREAM_FAILED',
      kind: 'HTTP_STATUS',
      upstream: `${SITE}:${lab.port}`,
    });
  });

  it('refuses a redirect to a refused address without connecting to it', async () => {
    const before = evilLab.connectionCount();
    for (const target of [evilLab.url('/ok', EVIL), evilLab.url('/ok')]) {
      const url = lab.url(`/redirect?to=${encodeURIComponent(target)}`, SITE);
      const res = await get(narrow, 'http-headers', url);
      expect(res.status, target).toBe(400);
      const body = await json(res);
      expect(body.error, target).toMatch(/127\.0\.0\.2, a loopback address|127\.0\.0\.2 is a loopback address/);
    }
    expect(evilLab.connectionCount()).toBe(before);
    // the same redirect where 127.0.0.2 is admitted reaches the lab
    const admitted = await json(
      await get(t, 'http-headers', lab.url(`/redirect?to=${encodeURIComponent(evilLab.url('/ok', EVIL))}`, SITE)),
    );
    expect(admitted.data.finalUrl).toBe(evilLab.url('/ok', EVIL));
    expect(evilLab.connectionCount()).toBe(before + 1);
  });

  it('refuses loopback targets under the production rule, in every spelling, without a connection', async () => {
    const before = lab.connectionCount();
    const cases: [string, RegExp][] = [
      [lab.url('/ok', SITE), /^target site\.lab\.test resolves to 127\.0\.0\.1, a loopback address/],
      [`http://2130706433:${lab.port}/ok`, /^target 127\.0\.0\.1 is a loopback address/],
      [`http://0x7f.1:${lab.port}/ok`, /^target 127\.0\.0\.1 is a loopback address/],
      [`http://[::ffff:127.0.0.1]:${lab.port}/ok`, /loopback address/],
    ];
    for (const [url, message] of cases) {
      const res = await get(refusing, 'http-headers', url);
      expect(res.status, url).toBe(400);
      expect(await json(res), url).toEqual({
        ok: false,
        error: expect.stringMatching(message),
        meta: { tool: 'http-headers', version: 'v1' },
      });
    }
    const gql = await graphql(refusing, 'query ($url: String!) { httpHeaders(url: $url) { statusCode } }', {
      url: lab.url('/ok', SITE),
    });
    expect(gql.body.errors[0].extensions).toMatchObject({ code: 'TARGET_REFUSED' });
    expect(lab.connectionCount()).toBe(before);
  });

  it('rejects bad URLs with a 400 naming the parameter', async () => {
    const cases: [string, RegExp][] = [
      ['/api/v1/http-headers', /^url: missing required parameter$/],
      ['/api/v1/http-headers?url=example.com', /^url: .*not a valid absolute URL/],
      ['/api/v1/http-headers?url=ftp%3A%2F%2Fexample.com%2F', /^url: scheme "ftp" is not supported/],
      [
        '/api/v1/http-headers?url=http%3A%2F%2Fu%3Ap%40example.com%2F',
        /^url: must not contain a user name or password/,
      ],
      ['/api/v1/http-headers?url=a&url=b', /^url: the parameter is repeated/],
      [
        `/api/v1/http-headers?url=${encodeURIComponent('http://noaddr.lab.test/')}`,
        /^url: noaddr\.lab\.test has no A or AAAA record/,
      ],
    ];
    for (const [path, message] of cases) {
      const res = await t.get(path);
      expect(res.status, path).toBe(400);
      expect((await json(res)).error, path).toMatch(message);
    }
  });

  it('is a 502 naming the upstream when the connection is refused', async () => {
    const port = await unusedPort();
    const res = await get(t, 'http-headers', `http://${SITE}:${port}/`);
    expect(res.status).toBe(502);
    const gql = await graphql(t, 'query ($url: String!) { httpHeaders(url: $url) { statusCode } }', {
      url: `http://${SITE}:${port}/`,
    });
    expect(gql.body.errors[0].extensions).toMatchObject({
      code: 'UPSTREAM_FAILED',
      kind: 'REFUSED',
      upstream: `${SITE}:${port}`,
    });
  });

  it('is a 504 within the bound when the server never answers', async () => {
    const started = Date.now();
    const res = await get(t, 'http-headers', lab.url('/hang', SITE));
    expect(res.status).toBe(504);
    expect((await json(res)).error).toBe(`no complete answer from ${SITE}:${lab.port} within ${TIMEOUT_MS} ms`);
    expect(Date.now() - started).toBeLessThan(2 * TIMEOUT_MS);
    await lab.waitForAllClosed();
  });

  it('does not read the body: a slow or huge body does not matter', async () => {
    const slow = await get(t, 'http-headers', lab.url('/slow-body', SITE));
    expect(slow.status).toBe(200);
    const before = lab.hugeBytesWritten();
    const huge = await json(await get(t, 'http-headers', lab.url('/huge', SITE)));
    expect(huge.data.headers['content-length']).toBe(String(HUGE_BODY_BYTES));
    await lab.waitForAllClosed();
    expect(lab.hugeBytesWritten() - before).toBeLessThan(HUGE_BODY_BYTES / 2);
  });
});

describe('open-graph-checker', () => {
  it('reads og and twitter tags from the head, decoding entities and resolving against the final URL', async () => {
    const url = lab.url(`/redirect?to=${encodeURIComponent('/blog/post')}`, SITE);
    const res = await get(t, 'open-graph-checker', url);
    expect(res.status).toBe(200);
    const body = await json(res);
    expect(body.meta).toEqual({ tool: 'open-graph-checker', version: 'v1' });
    expect(body.data).toEqual({
      requestedUrl: url,
      finalUrl: lab.url('/blog/post', SITE),
      statusCode: 200,
      fetched: true,
      title: 'Fish & Chips',
      og: {
        title: 'Fish & Chips — a history',
        description: 'Batter, "chips" and vinegar',
        image: lab.url('/img/cover.png', SITE),
        url: lab.url('/blog/post', SITE),
        type: 'article',
        site_name: 'Lab Blog',
      },
      twitter: {
        card: 'summary_large_image',
        title: null,
        description: null,
        image: 'https://cdn.lab.test/t.png',
        site: '@lab',
      },
      bodyCapped: false,
    });
  });

  it('honours the charset of <meta charset>, of Content-Type, and falls back to UTF-8 for an unknown label', async () => {
    const latin = await json(await get(t, 'open-graph-checker', lab.url('/latin', SITE)));
    expect(latin.data).toMatchObject({ title: 'Café', og: { title: 'Naïve' } });
    const header = await json(await get(t, 'open-graph-checker', lab.url('/header-charset', SITE)));
    expect(header.data.title).toBe('Zürich');
    const bad = await json(await get(t, 'open-graph-checker', lab.url('/bad-charset', SITE)));
    expect(bad.data.title).toBe('Ünïcode');
  });

  it('stops reading at the end of the head', async () => {
    const body = await json(await get(t, 'open-graph-checker', lab.url('/long', SITE)));
    expect(body.data).toMatchObject({ fetched: true, title: 'short head', og: { type: 'website' }, bodyCapped: false });
  });

  it('caps a huge body at http.maxBodyBytes and says so', async () => {
    const before = lab.hugeBytesWritten();
    const body = await json(await get(t, 'open-graph-checker', lab.url('/huge', SITE)));
    expect(body.data).toMatchObject({ statusCode: 200, fetched: true, title: '', bodyCapped: true });
    await lab.waitForAllClosed();
    expect(lab.hugeBytesWritten() - before).toBeLessThan(HUGE_BODY_BYTES / 2);
  });

  it('is a 504 within the bound when the head never ends', async () => {
    const started = Date.now();
    const res = await get(t, 'open-graph-checker', lab.url('/slow-body', SITE));
    expect(res.status).toBe(504);
    expect((await json(res)).error).toMatch(new RegExp(`within ${TIMEOUT_MS} ms`));
    expect(Date.now() - started).toBeLessThan(2 * TIMEOUT_MS);
    await lab.waitForAllClosed();
  });

  it('does not read a document that is not HTML', async () => {
    const body = await json(await get(t, 'open-graph-checker', lab.url('/json', SITE)));
    expect(body.data).toEqual({
      requestedUrl: lab.url('/json', SITE),
      finalUrl: lab.url('/json', SITE),
      statusCode: 200,
      fetched: false,
      title: '',
      og: { title: null, description: null, image: null, url: null, type: null, site_name: null },
      twitter: { card: null, title: null, description: null, image: null, site: null },
      bodyCapped: false,
    });
  });

  it('refuses loopback under the production rule and a redirect to a refused address', async () => {
    const before = lab.connectionCount();
    const refused = await get(refusing, 'open-graph-checker', lab.url('/blog/post', SITE));
    expect(refused.status).toBe(400);
    expect((await json(refused)).error).toMatch(
      /loopback address; checks of private or internal addresses are refused/,
    );
    expect(lab.connectionCount()).toBe(before);
    const evilBefore = evilLab.connectionCount();
    const redirected = await get(
      narrow,
      'open-graph-checker',
      lab.url(`/redirect?to=${encodeURIComponent(evilLab.url('/ok', EVIL))}`, SITE),
    );
    expect(redirected.status).toBe(400);
    expect(evilLab.connectionCount()).toBe(evilBefore);
  });

  it('rejects a bad URL with a 400 naming the parameter', async () => {
    const res = await t.get('/api/v1/open-graph-checker?url=javascript%3Aalert(1)');
    expect(res.status).toBe(400);
    expect((await json(res)).error).toMatch(/^url: scheme "javascript" is not supported/);
  });
});

describe('one fetch per URL and body mode within a request', () => {
  it('shares the fetch between fields that ask the same question', async () => {
    const path = '/blog/post';
    const before = requestsTo(lab, path);
    const url = lab.url(`${path}#fragment-is-not-sent`, SITE);
    const res = await graphql(
      t,
      `query ($url: String!, $same: String!) {
        a: httpHeaders(url: $url) { statusCode }
        b: httpHeaders(url: $same) { security { score } }
        c: openGraphChecker(url: $url) { og { title } }
        d: openGraphChecker(url: $same) { title }
      }`,
      { url, same: lab.url(path, SITE) },
    );
    expect(res.status).toBe(200);
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.c.og.title).toBe('Fish & Chips — a history');
    // one fetch without the body, one reading the head
    expect(requestsTo(lab, path) - before).toBe(2);
    // (the cross-request DNS cache may already hold the answer)
    expect(dns.countQueries(SITE, 'A')).toBeLessThanOrEqual(1);
  });
});

async function unusedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
