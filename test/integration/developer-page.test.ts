/**
 * The developer page and its key form through app.fetch (no socket): the page lists every REST route
 * with its parameters and price, the form issues a working key once, per-address limits over a rolling
 * 24 h, and the cross-site refusals.
 */
import { createRequire } from 'node:module';
import { afterEach, describe, expect, it } from 'vitest';
import { Kind, parse, type OperationDefinitionNode } from 'graphql';
import { createApp } from '../../src/app.js';
import { InputError, UnavailableError } from '../../src/errors.js';
import { checkOfField } from '../../src/graphql/check-declaration.js';
import { costOf } from '../../src/graphql/pricing.js';
import { schema } from '../../src/graphql-server/schema.js';
import { GRAPHIQL_EXAMPLE } from '../../src/graphql-server/yoga.js';
import { QueryReader } from '../../src/rest/query-reader.js';
import { restRoutes } from '../../src/rest/routes.js';
import { PALETTE, describeEndpoints, formatDuration } from '../../src/web/developer-page.js';
import { MAX_FORM_BYTES, mintFormToken } from '../../src/web/key-issuance.js';
import type { QuotaStore } from '../../src/platform/quota.js';
import { createTestApp, type TestApp } from '../helpers/app.js';

// The schema is built by Pothos, which Node loads with graphql's CommonJS build; vitest gives this file the
// ESM build, whose validate() refuses a schema from the other build. Validate with the schema's own.
const { validate } = createRequire(import.meta.url)('graphql') as typeof import('graphql');

const ORIGIN = 'http://netdiag.test';
const PUBLIC = '93.184.216.34'; // a value only: nothing connects to it
const HOUR = 3_600_000;

let t: TestApp;
afterEach(async () => {
  await t?.close();
});

interface Visit {
  peer?: string | null;
  headers?: Record<string, string>;
}

async function loadPage(visit: Visit = {}): Promise<{ res: Response; html: string; token: string }> {
  const res = await t.app.fetch(new Request(`${ORIGIN}/`, { headers: visit.headers }), {
    peerAddress: visit.peer === undefined ? '127.0.0.1' : visit.peer,
  });
  const html = await res.text();
  return { res, html, token: /name="token" value="([^"]+)"/.exec(html)?.[1] ?? '' };
}

/** Posts the form as a browser on this origin would (Origin and Sec-Fetch-Site), unless told otherwise. */
async function post(
  body: string,
  visit: Visit & { contentType?: string } = {},
): Promise<{ res: Response; html: string; key: string | null }> {
  const headers = new Headers({
    'content-type': visit.contentType ?? 'application/x-www-form-urlencoded',
    origin: ORIGIN,
    'sec-fetch-site': 'same-origin',
  });
  for (const [k, v] of Object.entries(visit.headers ?? {})) {
    if (v === '') headers.delete(k);
    else headers.set(k, v);
  }
  const res = await t.app.fetch(new Request(`${ORIGIN}/keys`, { method: 'POST', headers, body }), {
    peerAddress: visit.peer === undefined ? '127.0.0.1' : visit.peer,
  });
  const html = await res.text();
  return { res, html, key: /id="api-key">([^<]+)</.exec(html)?.[1] ?? null };
}

/** Loads the page and submits its form, as one visitor. */
async function issue(visit: Visit = {}) {
  const { token } = await loadPage(visit);
  return post(`token=${encodeURIComponent(token)}`, visit);
}

function rowOf(html: string, tool: string): string {
  const row = html.split('<tr>').find((r) => r.includes(`<code>GET /api/v1/${tool}</code>`));
  if (!row) throw new Error(`no row for ${tool}`);
  return row;
}

describe('GET /', () => {
  it('is a small, self-contained HTML page with the key form, examples and links', async () => {
    t = await createTestApp();
    const { res, html, token } = await loadPage();
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('content-security-policy')).toMatch(
      /default-src 'none'; style-src 'sha256-[A-Za-z0-9+/]+=*'/,
    );
    expect(Buffer.byteLength(html)).toBeLessThan(32 * 1024);
    // works without JavaScript and without internet: no script, nothing loaded from elsewhere
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/(src|href)="(https?:)?\/\//i);
    // accessible structure: language, one h1, landmarks, a described form with a real button
    expect(html).toContain('<html lang="en">');
    expect(html.match(/<h1>/g)).toHaveLength(1);
    for (const landmark of [
      '<header>',
      '<nav aria-label=',
      '<main id="main">',
      '<footer>',
      '<a class="skip" href="#main">',
    ]) {
      expect(html).toContain(landmark);
    }
    expect(html).toMatch(/<form method="post" action="\/keys" aria-describedby="key-terms">/);
    expect(html).toContain('<button type="submit">Get a free API key</button>');
    expect(token).toMatch(/^\d+\.[\w-]{22}\.[\w-]{43}$/);
    // curl with the key in the header and in the query, GraphiQL and OpenAPI links
    // the example is one that answers on any instance, even offline and from a loopback client (not my-ip)
    expect(html).toContain(`curl -H &#39;x-api-key: YOUR_KEY&#39; &#39;${ORIGIN}/api/v1/ip-info?target=8.8.8.8&#39;`);
    expect(html).toContain(`${ORIGIN}/api/v1/ip-info?target=8.8.8.8&#38;api_key=YOUR_KEY`);
    expect(html).toContain('href="/graphql"');
    expect(html).toContain('href="/api/v1/openapi.json"');
    expect(html).toContain('href="/docs#/Jobs"');
    expect(html).toContain('300 credits per rolling 24 hours');
    expect(html).toContain('One address (an IPv6 /48 network counts as one) may obtain 3 keys per rolling 24 hours');
  });

  it('lists every REST route with its parameters and its configured cost', async () => {
    t = await createTestApp({ quota: { costs: { 'dns-lookup': 7, 'my-ip': 2 } } });
    const { html } = await loadPage();
    expect(html).toContain(`${restRoutes.size} endpoints`);
    for (const route of restRoutes.values()) {
      const row = rowOf(html, route.tool);
      expect(row).toContain(`<td>${costOf(t.services.config, route.tool)}</td>`);
      const operation = route.document.definitions.find(
        (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION,
      )!;
      for (const v of operation.variableDefinitions ?? []) {
        const required = v.type.kind === Kind.NON_NULL_TYPE;
        expect(row).toContain(`<code>${v.variable.name.value}</code> (`);
        expect(row).toMatch(
          new RegExp(`<code>${v.variable.name.value}</code> \\([a-z ]+, ${required ? 'required' : 'optional'}\\)`),
        );
      }
      if (!operation.variableDefinitions?.length) expect(row).toContain('<td>none</td>');
    }
    expect(rowOf(html, 'dns-lookup')).toContain('<td>7</td>');
    expect(rowOf(html, 'my-ip')).toContain('<td>2</td>');
    expect(rowOf(html, 'dns-lookup')).toContain('GraphQL field <code>dnsLookup</code>');
    // every price that is not the common one is named (each priced tool, in the endpoints' order)
    for (const named of [
      'dns-lookup 7 credits',
      'tls-configuration 4 credits',
      'tls-rating 10 credits',
      'my-ip 2 credits',
    ])
      expect(html).toContain(named);
    expect(html).toContain('my-ip 2 credits, every other endpoint 3 credits');
  });

  it('documents exactly the parameters each route reads', () => {
    const endpoints = describeEndpoints(restRoutes.values(), schema, () => 1);
    const sample = (type: string) => (type === 'integer' ? '443' : 'example.com');
    for (const e of endpoints) {
      const route = restRoutes.get(e.tool)!;
      const all = new URLSearchParams(e.parameters.map((p) => [p.name, sample(p.type)]));
      expect(() => route.variables(new QueryReader(all)), e.tool).not.toThrow();
      for (const p of e.parameters) {
        const without = new URLSearchParams(all);
        without.delete(p.name);
        const read = () => route.variables(new QueryReader(without));
        if (p.required) {
          expect(read, `${e.tool} ${p.name}`).toThrow(InputError);
          expect(read).toThrow(new RegExp(`^${p.name}:`));
        } else {
          expect(read, `${e.tool} ${p.name}`).not.toThrow();
        }
      }
    }
  });

  it('answers HEAD without a body and refuses other methods', async () => {
    t = await createTestApp();
    const head = await t.app.fetch(new Request(`${ORIGIN}/`, { method: 'HEAD' }), { peerAddress: '127.0.0.1' });
    expect(head.status).toBe(200);
    expect(await head.text()).toBe('');
    const put = await t.app.fetch(new Request(`${ORIGIN}/`, { method: 'PUT' }), { peerAddress: '127.0.0.1' });
    expect(put.status).toBe(405);
    expect(put.headers.get('allow')).toBe('GET, HEAD');
  });

  it('has no form when issuance is turned off, and the endpoint refuses', async () => {
    t = await createTestApp({ auth: { issuePerIpPerDay: 0 } });
    const { html } = await loadPage();
    expect(html).not.toContain('<form');
    expect(html).toContain('Ask its operator');
    const refused = await post(`token=${encodeURIComponent(mintFormToken(t.services.secret, Date.now()))}`);
    expect(refused.res.status).toBe(403);
    expect(refused.html).toContain('Key issuance is off');
    expect(refused.key).toBeNull();
  });

  it('uses colours with enough contrast (WCAG 2.2 1.4.3: 4.5:1 for text)', () => {
    const luminance = (hex: string) => {
      const [r, g, b] = [1, 3, 5].map((i) => {
        const c = parseInt(hex.slice(i, i + 2), 16) / 255;
        return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
      });
      return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
    };
    const contrast = (a: string, b: string) => {
      const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
      return (hi! + 0.05) / (lo! + 0.05);
    };
    for (const p of Object.values(PALETTE)) {
      for (const [fg, bg] of [
        [p.text, p.background],
        [p.muted, p.background],
        [p.link, p.background],
        [p.text, p.surface],
        [p.buttonText, p.button],
      ] as const) {
        expect(contrast(fg, bg), `${fg} on ${bg}`).toBeGreaterThanOrEqual(4.5);
      }
      expect(contrast(p.border, p.background)).toBeGreaterThanOrEqual(3); // 1.4.11 non-text contrast
    }
  });

  it('formats durations for people', () => {
    expect(formatDuration(86_400)).toBe('24 hours');
    expect(formatDuration(3600)).toBe('1 hour');
    expect(formatDuration(5400)).toBe('1 hour 30 minutes');
    expect(formatDuration(86_399)).toBe('24 hours');
    expect(formatDuration(61)).toBe('61 seconds');
    expect(formatDuration(1)).toBe('1 second');
    expect(formatDuration(600)).toBe('10 minutes');
  });
});

describe('POST /keys', () => {
  it('issues a key once, with its allowance, that then works', async () => {
    t = await createTestApp({ server: { trustedProxies: ['127.0.0.1/32'] } });
    const { res, html, key } = await issue();
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    expect(key).toMatch(/^nd_[\w-]{46}$/);
    expect(html).toContain('300 credits per rolling 24 hours');
    for (const named of ['tls-configuration 4 credits', 'tls-rating 10 credits']) expect(html).toContain(named);
    expect(html).toContain('my-ip 1 credit, every other endpoint 3 credits');
    expect(html).toContain('may obtain 2 more keys');
    expect(html).toContain(`x-api-key: ${key}`);
    // "try it" names a call that answers from a local instance too (ip-info from the bundled data)
    expect(html).toContain(`/api/v1/ip-info?target=8.8.8.8`);
    const tryIt = await t.get('/api/v1/ip-info?target=8.8.8.8', { key });
    expect(tryIt.status).toBe(200);
    const api = await t.get('/api/v1/my-ip', { key, headers: { 'x-forwarded-for': PUBLIC } });
    expect(api.status).toBe(200);
    expect(await api.json()).toEqual({
      ok: true,
      data: { ip: PUBLIC, version: 'IPv4' },
      meta: { tool: 'my-ip', version: 'v1' },
    });
    expect(api.headers.get('ratelimit-remaining')).toBe(String(300 - 3 - 1));
    // a second visit gets a different key
    const again = await issue();
    expect(again.key).toMatch(/^nd_/);
    expect(again.key).not.toBe(key);
  });

  it('never logs the key: only its id', async () => {
    t = await createTestApp({ server: { trustedProxies: ['127.0.0.1/32'] } });
    const { key } = await issue();
    expect(key).not.toBeNull();
    await t.get(`/api/v1/my-ip?api_key=${key}`, { key: null, headers: { 'x-forwarded-for': PUBLIC } });
    const id = t.services.keyring.verify(key!)!.id;
    expect(JSON.stringify(t.logs)).not.toContain(key!);
    expect(JSON.stringify(t.logs)).not.toContain(key!.slice(25)); // not even the tag
    expect(t.logs.find((l) => l.event === 'key_issued')).toEqual({ level: 'info', event: 'key_issued', keyId: id });
    expect(t.logs.find((l) => l.event === 'request' && l.tool === 'key-issuance')).toMatchObject({
      method: 'POST',
      path: '/keys',
      status: 200,
    });
  });

  it('limits keys per client address, loopback and private addresses included', async () => {
    t = await createTestApp({ auth: { issuePerIpPerDay: 2 } });
    expect((await issue()).res.status).toBe(200);
    expect((await issue()).res.status).toBe(200);
    const third = await issue();
    expect(third.res.status).toBe(429);
    expect(third.key).toBeNull();
    expect(third.html).toContain('Key limit reached for your address');
    expect(third.html).toContain(
      'limited to 2 per client address per rolling 24 hours, and the address 127.0.0.1 has received 2',
    );
    expect(Number(third.res.headers.get('retry-after'))).toBeGreaterThan(86_300);
    expect(third.res.headers.get('cache-control')).toBe('no-store');
    // another address is not affected
    expect((await issue({ peer: '10.20.30.40' })).res.status).toBe(200);
    // the IPv4-mapped form of the same address is the same address
    expect((await issue({ peer: '::ffff:127.0.0.1' })).res.status).toBe(429);
  });

  it('counts over a rolling 24 h: each key frees its slot exactly one day after it was issued', async () => {
    let now = Date.UTC(2026, 0, 1);
    t = await createTestApp({ auth: { issuePerIpPerDay: 2 } }, { now: () => now });
    expect((await issue()).res.status).toBe(200); // T0
    now += 10 * HOUR;
    expect((await issue()).res.status).toBe(200); // T0+10h
    now += 10 * HOUR;
    const refused = await issue(); // T0+20h: both still count
    expect(refused.res.status).toBe(429);
    expect(refused.res.headers.get('retry-after')).toBe(String(4 * 3600));
    expect(refused.html).toContain('The next key can be issued in 4 hours');
    now += 4 * HOUR - 1000; // one second before the first key's day is over
    expect((await issue()).res.status).toBe(429);
    now += 1000; // T0+24h
    expect((await issue()).res.status).toBe(200);
    expect((await issue()).res.status).toBe(429); // the T0+10h key still counts until T0+34h
  });

  it('takes the address a trusted proxy forwarded, and ignores X-Forwarded-For from anyone else', async () => {
    t = await createTestApp({ server: { trustedProxies: ['127.0.0.1/32'] }, auth: { issuePerIpPerDay: 1 } });
    expect((await issue({ headers: { 'x-forwarded-for': PUBLIC } })).res.status).toBe(200);
    expect((await issue({ headers: { 'x-forwarded-for': PUBLIC } })).res.status).toBe(429);
    expect((await issue({ headers: { 'x-forwarded-for': '198.18.0.1' } })).res.status).toBe(200);
    // an untrusted peer cannot dodge the limit by inventing forwarded addresses
    expect((await issue({ peer: '203.0.114.7', headers: { 'x-forwarded-for': '8.8.4.4' } })).res.status).toBe(200);
    const dodge = await issue({ peer: '203.0.114.7', headers: { 'x-forwarded-for': '8.8.8.8' } });
    expect(dodge.res.status).toBe(429);
    expect(dodge.html).toContain('the address 203.0.114.7');
  });

  it('counts an IPv6 client by its /48 (one site’s routed prefix, test/security/key-farming.test.ts)', async () => {
    t = await createTestApp({ auth: { issuePerIpPerDay: 1 } });
    expect((await issue({ peer: '2001:db8:1:2::1' })).res.status).toBe(200);
    const sameNetwork = await issue({ peer: '2001:db8:1:3:aaaa::99' });
    expect(sameNetwork.res.status).toBe(429);
    expect(sameNetwork.html).toContain('the network 2001:db8:1::/48');
    expect((await issue({ peer: '2001:db8:2:2::1' })).res.status).toBe(200);
  });

  it('issues nothing when the issuance ledger is unavailable (fails closed)', async () => {
    t = await createTestApp();
    const failing: QuotaStore = {
      charge: async () => {
        throw new UnavailableError('issuance ledger unavailable: Redis at 127.0.0.1:1 is unreachable');
      },
      refund: async () => undefined,
      close: async () => undefined,
    };
    const app = createApp({ ...t.services, issueLedger: failing });
    const { token } = await loadPage();
    const res = await app.fetch(
      new Request(`${ORIGIN}/keys`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: `token=${token}`,
      }),
      { peerAddress: '127.0.0.1' },
    );
    expect(res.status).toBe(503);
    const html = await res.text();
    expect(html).toContain('Keys cannot be issued right now');
    expect(html).toContain('Redis at 127.0.0.1:1 is unreachable');
    expect(html).not.toContain('id="api-key"');
  });

  it('answers 400 when the connection has no client address', async () => {
    t = await createTestApp();
    const res = await issue({ peer: null });
    expect(res.res.status).toBe(400);
    expect(res.html).toContain('No client address');
  });
});

describe('cross-site posting protection', () => {
  it('refuses a post without a token, with a forged token, or with another deployment’s token', async () => {
    t = await createTestApp({ auth: { issuePerIpPerDay: 1 } });
    const { token } = await loadPage();
    const [issued, nonce, tag] = token.split('.') as [string, string, string];
    const forgedTag = `${tag[0] === 'A' ? 'B' : 'A'}${tag.slice(1)}`;
    const cases = [
      '',
      'token=',
      `other=${token}`,
      `token=${issued}.${nonce}.${forgedTag}`,
      `token=${Number(issued) + 60}.${nonce}.${tag}`, // the tag covers the time
      `token=${encodeURIComponent(mintFormToken('another-deployment-secret', Date.now()))}`,
      `token=${token}&token=${token}`,
    ];
    for (const body of cases) {
      const refused = await post(body);
      expect(refused.res.status, body).toBe(403);
      expect(refused.html).toContain('security token is missing or invalid');
      expect(refused.key).toBeNull();
    }
    // none of the refusals used up the address's only key
    expect((await post(`token=${token}`)).res.status).toBe(200);
  });

  it('refuses a form that has expired', async () => {
    let now = Date.UTC(2026, 0, 1);
    t = await createTestApp({}, { now: () => now });
    const { token } = await loadPage();
    now += HOUR;
    expect((await post(`token=${token}`)).res.status).toBe(200); // an hour old is still fine
    now += 1000;
    const expired = await post(`token=${token}`);
    expect(expired.res.status).toBe(403);
    expect(expired.html).toContain('The form has expired');
    expect(expired.html).toContain('Reload the developer page');
  });

  it('refuses posts the browser marks as cross-site, even with a valid token', async () => {
    t = await createTestApp();
    const { token } = await loadPage();
    const body = `token=${token}`;
    const crossSite: Array<Record<string, string>> = [
      { origin: 'https://evil.example', 'sec-fetch-site': '' }, // no Fetch Metadata: Origin decides
      { origin: 'null', 'sec-fetch-site': '' },
      { origin: 'http://netdiag.test.evil.example', 'sec-fetch-site': '' },
      { origin: 'http://netdiag.test:8080', 'sec-fetch-site': '' },
      { origin: 'not a url', 'sec-fetch-site': '' },
      { 'sec-fetch-site': 'cross-site' },
      { 'sec-fetch-site': 'same-site', origin: 'https://www.netdiag.test' },
    ];
    for (const headers of crossSite) {
      const refused = await post(body, { headers });
      expect(refused.res.status, JSON.stringify(headers)).toBe(403);
      expect(refused.html).toContain('posted from another site');
      expect(refused.key).toBeNull();
    }
  });

  it('trusts the token alone when the client sends neither Origin nor Sec-Fetch-Site', async () => {
    t = await createTestApp();
    const first = (await loadPage()).token;
    expect((await post(`token=${first}`, { headers: { origin: '', 'sec-fetch-site': '' } })).res.status).toBe(200);
    // Sec-Fetch-Site is the browser's own verdict: it wins over an Origin a Host-rewriting proxy made look foreign
    const second = (await loadPage()).token;
    expect((await post(`token=${second}`, { headers: { origin: 'https://netdiag.example' } })).res.status).toBe(200);
  });

  it('takes each token once: the form cannot be replayed', async () => {
    t = await createTestApp();
    const { token } = await loadPage();
    expect((await post(`token=${token}`)).res.status).toBe(200);
    const replay = await post(`token=${token}`);
    expect(replay.res.status).toBe(403);
    expect(replay.html).toContain('This form was already used; reload the page');
    expect(replay.key).toBeNull();
  });

  it('accepts a token minted by another instance that shares the secret', async () => {
    const secret = 's'.repeat(32);
    t = await createTestApp({ auth: { secret } });
    const { token } = await loadPage();
    await t.close();
    t = await createTestApp({ auth: { secret } });
    expect((await post(`token=${token}`)).res.status).toBe(200);
  });
});

describe('the form post itself', () => {
  it('refuses other methods, other content types and oversized bodies', async () => {
    t = await createTestApp();
    const get = await t.app.fetch(new Request(`${ORIGIN}/keys`), { peerAddress: '127.0.0.1' });
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    const { token } = await loadPage();
    const json = await post(JSON.stringify({ token }), { contentType: 'application/json' });
    expect(json.res.status).toBe(415);
    const big = await post(`token=${token}&pad=${'x'.repeat(MAX_FORM_BYTES)}`);
    expect(big.res.status).toBe(413);
    expect(big.key).toBeNull();
    // the same, streamed without a content-length: the read stops at the bound
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        controller.enqueue(new Uint8Array(1024).fill(0x61));
      },
    });
    const streamed = await t.app.fetch(
      new Request(`${ORIGIN}/keys`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'sec-fetch-site': 'same-origin' },
        body: stream,
        duplex: 'half',
      } as RequestInit),
      { peerAddress: '127.0.0.1' },
    );
    expect(streamed.status).toBe(413);
    // a charset parameter is fine
    expect(
      (await post(`token=${token}`, { contentType: 'application/x-www-form-urlencoded; charset=UTF-8' })).res.status,
    ).toBe(200);
  });
});

describe('GraphiQL example', () => {
  it('is a valid operation that composes several checks', async () => {
    const document = parse(GRAPHIQL_EXAMPLE);
    expect(validate(schema, document)).toEqual([]);
    const operation = document.definitions[0] as OperationDefinitionNode;
    const checks = operation.selectionSet.selections.filter((s) => s.kind === Kind.FIELD && checkOfField(s.name.value));
    expect(checks.length).toBeGreaterThanOrEqual(3);
    t = await createTestApp();
    const page = await t.app.fetch(new Request(`${ORIGIN}/graphql`, { headers: { accept: 'text/html' } }));
    // the options travel in the page's JSON block, which GraphiQL's script (one file whatever the options) reads
    const options = /<script type="application\/json" id="graphiql-options">([\s\S]*?)<\/script>/.exec(
      await page.text(),
    )?.[1];
    expect(JSON.parse(options!).defaultQuery).toBe(GRAPHIQL_EXAMPLE);
  });
});
