/**
 * A GraphQL client composes several checks in one operation: a check that fails must cost only its own
 * field (null, with its error at its path), never the data of the others (docs/getting-started.md "GraphQL").
 */
import { afterEach, describe, expect, it } from 'vitest';
import { GRAPHIQL_EXAMPLE } from '../../src/graphql-server/yoga.js';
import { createTestApp, graphql, type TestApp } from '../helpers/app.js';

let t: TestApp;
afterEach(async () => {
  await t?.close();
});

// The test app's resolvers point at a closed loopback port: dnsLookup fails upstream there,
// while ipInfo answers from the bundled IP database.
const COMPOSED = `{
  ipInfo(target: "8.8.8.8") { ip asn country }
  dnsLookup(domain: "example.com") { domain }
  bad: mxLookup(domain: "not a domain") { domain }
}`;

describe('composed GraphQL operations', () => {
  it('keep the data of the fields that worked and put each error at its own path', async () => {
    t = await createTestApp({ quota: { credits: 100, costs: { 'ip-info': 3, 'dns-lookup': 5, 'mx-lookup': 7 } } });
    const { status, body } = await graphql(t, COMPOSED);
    expect(status).toBe(200);
    expect(body.data.ipInfo).toEqual({ ip: '8.8.8.8', asn: 'AS15169', country: 'United States' });
    expect(body.data.dnsLookup).toBeNull();
    expect(body.data.bad).toBeNull();

    const byPath = Object.fromEntries(body.errors.map((e: any) => [e.path.join('.'), e]));
    expect(Object.keys(byPath).sort()).toEqual(['bad', 'dnsLookup']);
    expect(byPath.dnsLookup.extensions).toMatchObject({ tool: 'dns-lookup' });
    expect(byPath.dnsLookup.extensions.status).toBeGreaterThanOrEqual(502);
    expect(byPath.bad.extensions).toMatchObject({ code: 'BAD_INPUT', status: 400, tool: 'mx-lookup' });
    expect(byPath.bad.message).toMatch(/domain/);
  });

  it('charge the fields that ran (upstream failures included) and not the one refused as bad input', async () => {
    t = await createTestApp({ quota: { credits: 100, costs: { 'ip-info': 3, 'dns-lookup': 5, 'mx-lookup': 7 } } });
    const { headers } = await graphql(t, COMPOSED);
    // decisions §1: 400s are not charged; a check that ran and failed upstream is (the work was done)
    expect(headers.get('ratelimit-remaining')).toBe(String(100 - 3 - 5));
    const again = await graphql(t, '{ ipInfo(target: "1.1.1.1") { asn } }');
    expect(again.headers.get('ratelimit-remaining')).toBe(String(100 - 3 - 5 - 3));
  });

  it('GraphiQL opens with an example that answers on a machine without internet access', async () => {
    t = await createTestApp();
    const { status, body } = await graphql(t, GRAPHIQL_EXAMPLE);
    expect(status).toBe(200);
    expect(body.data.ipInfo).toMatchObject({ ip: '8.8.8.8', asn: 'AS15169', source: 'database' });
    expect(body.data.asnLookup).toMatchObject({ asn: 'AS13335' });
    // offline, dnsLookup fails in its own field only
    expect(body.errors.map((e: any) => e.path[0])).toEqual(['dnsLookup']);
    expect(GRAPHIQL_EXAMPLE).not.toMatch(/myIp/);
  });
});
