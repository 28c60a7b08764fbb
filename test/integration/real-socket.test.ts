/**
 * Every kind of endpoint over a real listening socket (node:http + the @whatwg-node adapter, as
 * `npm start` serves them): faults of the adapter layer — a response never written, a socket torn
 * down while a refusal is sent — do not show through `app.fetch`.
 */
import { STATUS_CODES, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpServer } from '../../src/http-server.js';
import { createTestApp, TEST_KEY, type TestApp } from '../helpers/app.js';

let t: TestApp;
let server: Server;
let base: string;

beforeAll(async () => {
  t = await createTestApp({ auth: { keys: [TEST_KEY], issuePerIpPerDay: 3 } });
  server = createHttpServer(t.app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await t.close();
});

interface RawAnswer {
  status: number;
  /** the status line's reason phrase */
  reason: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** One request with node:http, whose errors (an empty reply, a reset) fail the test instead of hiding. */
function send(
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string | Buffer,
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${base}${path}`, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          reason: res.statusMessage ?? '',
          headers: res.headers,
          body: Buffer.concat(chunks).toString('utf8'),
        }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('REST over a socket', () => {
  it('answers a check, a missing key and an unknown tool with the envelope', async () => {
    const ok = await send('GET', '/api/v1/ip-info?target=8.8.8.8', { 'x-api-key': TEST_KEY });
    expect(ok.status).toBe(200);
    expect(JSON.parse(ok.body)).toMatchObject({
      ok: true,
      data: { ip: '8.8.8.8', asn: 'AS15169' },
      meta: { tool: 'ip-info' },
    });
    expect(ok.headers['ratelimit-policy']).toBe('"daily";q=300;w=86400');

    const noKey = await send('GET', '/api/v1/ip-info?target=8.8.8.8', {});
    expect(noKey.status).toBe(401);
    expect(JSON.parse(noKey.body).error).toMatch(/x-api-key/);

    const unknown = await send('GET', '/api/v1/no-such-tool', { 'x-api-key': TEST_KEY });
    expect(unknown.status).toBe(404);
    expect(JSON.parse(unknown.body).meta).toEqual({ tool: 'no-such-tool', version: 'v1' });
  });

  it('answers a 502 from a failed upstream with its reason', async () => {
    const failed = await send('GET', '/api/v1/dns-lookup?domain=example.com', { 'x-api-key': TEST_KEY });
    expect(failed.status).toBe(502);
    expect(JSON.parse(failed.body).error).toMatch(/^the service's resolver is not listening /);
  });
});

describe('GraphQL over a socket', () => {
  it('answers a composed operation, the failing field in its own place', async () => {
    const query = '{ ipInfo(target: "8.8.8.8") { asn } dnsLookup(domain: "example.com") { domain } }';
    const res = await send(
      'POST',
      '/graphql',
      { 'content-type': 'application/json', 'x-api-key': TEST_KEY },
      JSON.stringify({ query }),
    );
    expect(res.status).toBe(200);
    const body = JSON.parse(res.body);
    expect(body.data).toEqual({ ipInfo: { asn: 'AS15169' }, dnsLookup: null });
    expect(body.errors[0].path).toEqual(['dnsLookup']);
  });

  it('sends its 413 for an oversized body instead of dropping the connection', async () => {
    const huge = Buffer.alloc(200 * 1024, 'a');
    const res = await send(
      'POST',
      '/graphql',
      { 'content-type': 'application/json', 'transfer-encoding': 'chunked' },
      huge,
    );
    expect(res.status).toBe(413);
    expect(res.body).toMatch(/too large/);
  });
});

describe('developer page over a socket', () => {
  const form = 'application/x-www-form-urlencoded';

  it('serves the page', async () => {
    const page = await send('GET', '/', {});
    expect(page.status).toBe(200);
    expect(page.body).toMatch(/<form/);
  });

  it.each([
    ['a cross-site Origin', { origin: 'http://evil.example', 'content-type': form }, 403, /another site/],
    ['Sec-Fetch-Site: cross-site', { 'sec-fetch-site': 'cross-site', 'content-type': form }, 403, /another site/],
    ['a body that is not a form', { 'content-type': 'application/json' }, 415, /Not a form post/],
  ])('sends its refusal of %s to the client', async (_name, headers, status, text) => {
    const res = await send('POST', '/keys', headers as Record<string, string>, 'email=someone%40example.com&token=x');
    expect(res.status).toBe(status);
    expect(res.body).toMatch(text);
  });

  it('sends its 413 for an oversized form', async () => {
    const res = await send('POST', '/keys', { 'content-type': form }, `token=${'x'.repeat(64 * 1024)}`);
    expect(res.status).toBe(413);
    expect(res.body).toMatch(/Form too large/);
  });
});

describe('status lines', () => {
  it('carry the standard reason phrase whatever made the answer', async () => {
    const answers = await Promise.all([
      send('GET', '/api/v1/ip-info?target=8.8.8.8', { 'x-api-key': TEST_KEY }),
      send('GET', '/api/v1/no-such-tool', {}),
      send('POST', '/keys', { 'content-type': 'application/x-www-form-urlencoded' }, 'token=forged'),
      send('POST', '/graphql', { 'content-type': 'text/plain', 'x-api-key': TEST_KEY }, '{ __typename }'),
      send('GET', '/healthz', {}),
    ]);
    for (const answer of answers) expect(answer.reason, String(answer.status)).toBe(STATUS_CODES[answer.status]);
    expect(answers.map((a) => a.status)).toEqual([200, 404, 403, 415, 200]);
  });
});

describe('what node:http refuses before the app', () => {
  it('answers a request line over the header limit with 431 in the envelope, naming the tool', async () => {
    const answer = await send('GET', `/api/v1/dns-lookup?domain=${'a'.repeat(100 * 1024)}`, {});
    expect(answer.status).toBe(431);
    expect(answer.reason).toBe('Request Header Fields Too Large');
    expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(JSON.parse(answer.body)).toEqual({
      ok: false,
      error: expect.stringMatching(/too large/),
      meta: { tool: 'dns-lookup', version: 'v1' },
    });
  });
});
