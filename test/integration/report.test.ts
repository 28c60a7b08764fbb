/**
 * The report page's server side, in process against the report lab (test/lab/report-lab.ts): the page and
 * its policy, the prepared assets and the favicon, GraphiQL's page over them, the one operation with @defer
 * answered in parts (priced whole, refunds in parts, the admission slot and the deadline held until the
 * last part), the operation limits with @defer, and reports without a key (web.publicReports).
 * The browser's side is test/browser/report-page.test.ts.
 */
import { meros } from 'meros/browser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_DIRECTIVES } from '../../src/graphql-server/plugins/use-operation-limits.js';
import { costOf } from '../../src/graphql/pricing.js';
import { restRoutes } from '../../src/rest/routes.js';
import { reportOperations } from '../../src/web/report/operation.js';
import { REPORT_CSP } from '../../src/web/report/page.js';
import { createTestApp, TEST_KEY, type TestApp } from '../helpers/app.js';
import { startReportLab, type ReportLab } from '../lab/report-lab.js';

const operations = reportOperations(restRoutes);
let lab: ReportLab;
const apps: TestApp[] = [];

beforeAll(async () => {
  lab = await startReportLab();
}, 30_000);
afterAll(async () => {
  for (const t of apps) await t.close();
  await lab?.close();
});

async function labApp(config: Record<string, any> = {}): Promise<TestApp> {
  const t = await createTestApp({ ...lab.config, ...config }, lab.overrides);
  apps.push(t);
  return t;
}

interface Part {
  data?: Record<string, unknown>;
  errors?: { message: string; path?: string[]; extensions?: Record<string, unknown> }[];
  incremental?: { data: Record<string, unknown> | null; errors?: unknown[]; label?: string; path: unknown[] }[];
  hasNext?: boolean;
}

function post(
  t: TestApp,
  query: string,
  variables: Record<string, unknown>,
  init: { key?: string | null; accept?: string; peer?: string } = {},
): Promise<Response> {
  const headers = new Headers({
    'content-type': 'application/json',
    accept: init.accept ?? 'multipart/mixed, application/json;q=0.9',
  });
  const key = init.key === undefined ? TEST_KEY : init.key;
  if (key !== null) headers.set('x-api-key', key);
  return t.app.fetch(
    new Request('http://netdiag.test/graphql', { method: 'POST', headers, body: JSON.stringify({ query, variables }) }),
    { peerAddress: init.peer ?? '127.0.0.1' },
  );
}

/** The parts of a multipart answer, each with the time it arrived (ms after the call). */
async function partsOf(response: Response): Promise<{ part: Part; atMs: number }[]> {
  const started = performance.now();
  const parts = await meros<Part>(response);
  if (parts instanceof Response) throw new Error(`not multipart: ${response.status} ${await parts.text()}`);
  const out: { part: Part; atMs: number }[] = [];
  for await (const p of parts) if (p.json) out.push({ part: p.body, atMs: performance.now() - started });
  return out;
}

const labels = (parts: { part: Part }[]) => parts.flatMap((p) => (p.part.incremental ?? []).map((i) => i.label));

describe('the page', () => {
  it('is markup, a script and a style sheet under a strict policy, with the operation of its view', async () => {
    const t = await labApp();
    const res = await t.get(`/report?domain=${encodeURIComponent(lab.domain)}&view=mail`, { key: null });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-security-policy')).toBe(REPORT_CSP);
    expect(REPORT_CSP).toContain("script-src 'self'");
    expect(REPORT_CSP).not.toMatch(/unsafe-inline|unsafe-eval/);
    const html = await res.text();
    // every script is a file of this service, or data the script reads (never run)
    const scripts = [...html.matchAll(/<script([^>]*)>/g)].map((m) => m[1]!);
    expect(scripts).toHaveLength(2);
    expect(scripts.filter((a) => /src="\/assets\/report\.[\w-]{16}\.js"/.test(a))).toHaveLength(1);
    expect(scripts.filter((a) => a.includes('type="application/json"'))).toHaveLength(1);
    // the script starts the operation as soon as it is loaded: async, its setup before it in the head
    const head = html.slice(0, html.indexOf('</head>'));
    expect(head).toMatch(/id="report-setup">[\s\S]*<\/script>\s*<script src="\/assets\/report\.[\w-]{16}\.js" async>/);
    expect(html).not.toMatch(/ style=|<style/);
    // the key field has no name: a GET form never puts it in the address
    expect(html).toMatch(/<input id="api-key" type="password"(?![^>]*name=)[^>]*>/);
    // the mail view: its sections, not the website's
    const sections = [...html.matchAll(/<section class="section" id="([\w-]+)"/g)].map((m) => m[1]);
    expect(sections).toEqual(['dnssec', 'mail', 'registration']);
    const setup = JSON.parse(/<script type="application\/json" id="report-setup">([\s\S]*?)<\/script>/.exec(html)![1]!);
    expect(setup).toMatchObject({ domain: lab.domain, view: 'mail', endpoint: '/graphql', publicReports: false });
    expect(setup.operation).toBe(operations.text('mail'));
  });

  it('reads a pasted address as its host', async () => {
    const t = await labApp();
    const html = await (
      await t.get(`/report?domain=${encodeURIComponent(`https://${lab.domain}:8443/a?b`)}`, { key: null })
    ).text();
    expect(JSON.parse(/id="report-setup">([\s\S]*?)<\/script>/.exec(html)![1]!).domain).toBe(lab.domain);
  });

  it('shows a hostile domain parameter as text', async () => {
    const t = await labApp();
    const hostile = '"><script>alert(1)</script>';
    const html = await (await t.get(`/report?domain=${encodeURIComponent(hostile)}`, { key: null })).text();
    expect(html).not.toContain('<script>alert(1)</script>');
    expect(html).toContain('&#34;&#62;&#60;script&#62;alert(1)&#60;/script&#62;');
    // inside the JSON block, "<" is escaped: the block cannot be ended from inside
    expect(/id="report-setup">([\s\S]*?)<\/script>/.exec(html)![1]).toContain('\\u003cscript>alert(1)\\u003c/script>');
  });
});

describe('prepared assets', () => {
  it('serves the page’s script in the encoding asked for, cached for a year, 304 when current', async () => {
    const t = await labApp();
    const html = await (await t.get('/report', { key: null })).text();
    const script = /src="(\/assets\/report\.[\w-]{16}\.js)"/.exec(html)![1]!;
    const br = await t.get(script, { key: null, headers: { 'accept-encoding': 'gzip, br' } });
    expect(br.status).toBe(200);
    expect(br.headers.get('content-encoding')).toBe('br');
    expect(br.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const identity = await t.get(script, { key: null });
    expect(identity.headers.get('content-encoding')).toBeNull();
    expect(await identity.text()).toContain('netdiag-api-key');
    const again = await t.get(script, { key: null, headers: { 'if-none-match': identity.headers.get('etag')! } });
    expect(again.status).toBe(304);
    expect((await t.get('/assets/report.0000000000000000.js', { key: null })).status).toBe(404);
  });

  it('has a favicon at /favicon.ico, and every page links the icon', async () => {
    const t = await labApp();
    const icon = await t.get('/favicon.ico', { key: null });
    expect(icon.status).toBe(200);
    expect(icon.headers.get('content-type')).toBe('image/x-icon');
    const bytes = new Uint8Array(await icon.arrayBuffer());
    // an ICO header (reserved 0, type 1, one image) of a 32×32 image
    expect([...bytes.slice(0, 8)]).toEqual([0, 0, 1, 0, 1, 0, 32, 32]);
    for (const path of ['/report', '/graphql']) {
      const html = await (await t.get(path, { key: null, headers: { accept: 'text/html' } })).text();
      expect(html).toMatch(/<link rel="icon" href="\/assets\/favicon\.[\w-]{16}\.svg" type="image\/svg\+xml">/);
    }
  });

  it('GraphiQL is a small page over the prepared script and style sheet, its options in a JSON block', async () => {
    const t = await labApp();
    const html = await (await t.get('/graphql', { key: null, headers: { accept: 'text/html' } })).text();
    expect(Buffer.byteLength(html)).toBeLessThan(4 * 1024);
    const options = JSON.parse(/id="graphiql-options">([\s\S]*?)<\/script>/.exec(html)![1]!);
    expect(options.defaultQuery).toContain('query Overview');
    const script = /<script src="(\/assets\/graphiql\.[\w-]{16}\.js)"><\/script>/.exec(html)![1]!;
    const code = await (await t.get(script, { key: null })).text();
    expect(code).toContain("JSON.parse(document.getElementById('graphiql-options').textContent)");
    expect(code).toContain('renderYogaGraphiQL');
  });
});

describe('the one operation, in parts', () => {
  it('answers each part as it is done, priced whole as the sum of its checks', async () => {
    const t = await labApp();
    const res = await post(t, operations.text('all'), { domain: lab.domain });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^multipart\/mixed/);
    // whois 3 + dnssec-chain 5 + mailhealth-check 3 + website-health-check 3
    expect(operations.price('all', (tool) => costOf(t.services.config, tool))).toBe(14);
    expect(res.headers.get('ratelimit-remaining')).toBe(String(300 - 14));
    const parts = await partsOf(res);
    expect(labels(parts).sort()).toEqual(['dnssec', 'mail', 'registration', 'website']);
    const data = Object.assign({}, ...parts.flatMap((p) => (p.part.incremental ?? []).map((i) => i.data)));
    expect(data.whois).toMatchObject({ registrar: 'Lab Registrar Ltd' });
    expect(data.mailhealthCheck.verdict.status).toMatch(/^(ok|warning|critical)$/);
    // the website's parts ran to the end: the request's deadline was not ended by the first part
    const tls = data.websiteHealthCheck.checks.find((c: { id: string }) => c.id === 'tls-rating');
    expect(tls.details.tlsRating.grade.letter).toMatch(/^[A-F][+-]?$/);
    expect(parts.at(-1)!.part.hasNext).toBe(false);
  }, 60_000);

  it('holds its admission slot until the last part: a second operation waits for it', async () => {
    const t = await labApp({ admission: { maxInFlight: 1, maxQueued: 0, maxEventLoopDelayMs: 0 } });
    lab.hold('whois');
    try {
      const first = await post(t, operations.text('mail'), { domain: lab.domain });
      expect(first.status).toBe(200);
      const parts = partsOf(first);
      await expect.poll(() => lab.held(), { timeout: 10_000 }).toBeGreaterThan(0);
      // the first answer has started; its registration part is still running and holds the only slot
      const second = await post(t, '{ __typename }', {});
      expect(second.status).toBe(503);
      lab.release();
      expect(labels(await parts)).toContain('registration');
      const third = await post(t, '{ __typename }', {});
      expect(third.status).toBe(200);
    } finally {
      lab.release();
    }
  }, 60_000);

  it('gives back, once the last part is made, the price of a deferred field refused before anything was sent', async () => {
    const t = await labApp();
    const res = await post(t, 'query { ... @defer(label: "bad") { whois(domain: "not a domain!") { domain } } }', {});
    expect(res.headers.get('ratelimit-remaining')).toBe('297');
    const parts = await partsOf(res);
    expect(JSON.stringify(parts)).toContain('BAD_INPUT');
    // the next call sees the refund: 300 - 3 (this one)
    const next = await t.get('/api/v1/whois?domain=report.lab.test');
    await next.body?.cancel();
    expect(next.headers.get('ratelimit-remaining')).toBe('297');
  });

  it('fits the operation limits, which count @defer among the directives', async () => {
    const t = await labApp();
    const many = Array.from({ length: MAX_DIRECTIVES + 1 }, (_, i) => `... @defer(label: "p${i}") { __typename }`).join(
      ' ',
    );
    const res = await post(t, `query { ${many} }`, {}, { accept: 'application/json' });
    expect(res.status).toBe(400);
    expect(JSON.stringify(await res.json())).toContain('INVALID_OPERATION');
  });
});

describe('a report without a key', () => {
  it('is refused while web.publicReports is false', async () => {
    const t = await labApp();
    const res = await post(t, operations.text('web'), { domain: lab.domain }, { key: null });
    expect(res.status).toBe(401);
    const body = await res.json();
    expect(body.errors[0].extensions.code).toBe('UNAUTHENTICATED');
  });

  it('runs with web.publicReports on the address’s budget for requests without a key, at its price', async () => {
    // 20 a minute without a key: one mail report (11 credits) fits, a second does not
    const t = await labApp({ web: { publicReports: true }, unkeyed: { requests: 20, windowSeconds: 60 } });
    const first = await post(t, operations.text('mail'), { domain: lab.domain }, { key: null, peer: '127.0.0.9' });
    expect(first.status).toBe(200);
    expect(labels(await partsOf(first)).sort()).toEqual(['dnssec', 'mail', 'registration']);
    const second = await post(t, operations.text('mail'), { domain: lab.domain }, { key: null, peer: '127.0.0.9' });
    expect(second.status).toBe(429);
    expect(second.headers.get('retry-after')).toMatch(/^\d+$/);
    await second.body?.cancel();
    // any other operation still needs a key
    const other = await post(
      t,
      `query ($d: String!) { whois(domain: $d) { domain } }`,
      { d: lab.domain },
      { key: null, peer: '127.0.0.10' },
    );
    expect(other.status).toBe(401);
  }, 60_000);
});
