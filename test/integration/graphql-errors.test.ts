/**
 * The errors a new GraphQL client meets first, each with its documented code and one HTTP status whatever
 * the client accepts (docs: the table of GraphQL error codes): a syntax error and a validation error are
 * both 400, a body of another media type a 415 that says what to send. Over a real socket too, where the
 * status line's reason phrase is what the client reads.
 */
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpServer } from '../../src/http-server.js';
import { createTestApp, TEST_KEY, type TestApp } from '../helpers/app.js';

let t: TestApp;
let server: Server;
let base: string;

beforeAll(async () => {
  t = await createTestApp();
  server = createHttpServer(t.app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  if (server) await new Promise((resolve) => server.close(resolve));
  await t?.close();
});

function post(body: string, headers: Record<string, string>): Promise<Response> {
  return fetch(`${base}/graphql`, { method: 'POST', headers: { 'x-api-key': TEST_KEY, ...headers }, body });
}

describe('GraphQL request errors', () => {
  it.each(['application/json', 'application/graphql-response+json'])(
    'a syntax error and a validation error are both 400 for a client accepting %s',
    async (accept) => {
      const syntax = await post(JSON.stringify({ query: '{ __typename ' }), {
        'content-type': 'application/json',
        accept,
      });
      expect(syntax.status).toBe(400);
      expect((await syntax.json()).errors[0].extensions).toMatchObject({ code: 'GRAPHQL_PARSE_FAILED', status: 400 });
      const invalid = await post(JSON.stringify({ query: '{ nope }' }), { 'content-type': 'application/json', accept });
      expect(invalid.status).toBe(400);
      expect((await invalid.json()).errors[0].extensions).toMatchObject({ code: 'INVALID_OPERATION', status: 400 });
    },
  );

  it('a request without a query is a 400 (BAD_REQUEST) for every client, as a malformed body is', async () => {
    for (const body of ['{"variables":{}}', 'not json']) {
      const res = await post(body, { 'content-type': 'application/json', accept: 'application/json' });
      expect(res.status, body).toBe(400);
      expect((await res.json()).errors[0].extensions.code).toBe('BAD_REQUEST');
    }
  });

  it('a body of another media type is a 415 with a message that says what to send', async () => {
    const res = await post('{ __typename }', { 'content-type': 'text/plain' });
    expect(res.status).toBe(415);
    expect(res.statusText).toBe('Unsupported Media Type');
    const body = await res.json();
    expect(body.errors[0].extensions).toEqual({ code: 'UNSUPPORTED_MEDIA_TYPE', status: 415 });
    expect(body.errors[0].message).toMatch(/application\/json.*this request has Content-Type text\/plain/);
    const none = await fetch(`${base}/graphql`, {
      method: 'POST',
      headers: { 'x-api-key': TEST_KEY },
      body: new Uint8Array([123]),
    });
    expect(none.status).toBe(415);
    expect((await none.json()).errors[0].message).toMatch(/this request has no Content-Type/);
  });

  it('JSON sent as a form (curl -d without a content type) is a 415 that names the header; a form still works', async () => {
    const operation = JSON.stringify({ query: '{ __typename }' });
    const curlDefault = await post(operation, { 'content-type': 'application/x-www-form-urlencoded' });
    expect(curlDefault.status).toBe(415);
    const body = await curlDefault.json();
    expect(body.errors[0].extensions).toEqual({ code: 'UNSUPPORTED_MEDIA_TYPE', status: 415 });
    expect(body.errors[0].message).toMatch(
      /JSON but was sent as application\/x-www-form-urlencoded.*Content-Type: application\/json/,
    );
    const form = await post(`query=${encodeURIComponent('{ __typename }')}`, {
      'content-type': 'application/x-www-form-urlencoded',
    });
    expect(form.status).toBe(200);
    expect((await form.json()).data).toEqual({ __typename: 'Query' });
  });

  it("GraphiQL's prefilled placeholder sent as a key is a 401 that says to put a real key in the headers", async () => {
    const res = await fetch(`${base}/graphql`, {
      method: 'POST',
      headers: { 'x-api-key': 'YOUR_KEY', 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ dnsLookup(domain: "example.test") { rcode } }' }),
    });
    expect(res.status).toBe(401);
    expect((await res.json()).errors[0].message).toMatch(/YOUR_KEY is the examples' placeholder.*Headers tab/);
    const rest = await fetch(`${base}/api/v1/my-ip`, { headers: { 'x-api-key': 'YOUR_KEY' } });
    expect(rest.status).toBe(401);
    expect((await rest.json()).error).toMatch(/YOUR_KEY is the examples' placeholder/);
  });

  it('the forms yoga reads still work: JSON with a charset, application/graphql', async () => {
    const json = await post(JSON.stringify({ query: '{ __typename }' }), {
      'content-type': 'application/json; charset=utf-8',
    });
    expect(await json.json()).toEqual({ data: { __typename: 'Query' } });
    const graphql = await post('{ __typename }', { 'content-type': 'application/graphql' });
    expect(await graphql.json()).toEqual({ data: { __typename: 'Query' } });
  });
});
