/**
 * Threat: getting checks run for fewer credits than they cost (or being charged for what did not run).
 * Every way GraphQL lets a client shape an operation is priced to exactly the documented price of the
 * check fields that ran: decisions §1 as the README's "Keys and credits" states it.
 */
import { describe, expect, it } from 'vitest';
import { createTestApp, graphql, TEST_KEY, type TestApp } from '../helpers/app.js';

// distinct prices, so that every sum names the fields it came from
const COSTS = { 'ip-info': 2, 'asn-lookup': 5, 'dns-lookup': 7, 'mx-lookup': 11 };
const CREDITS = 1000;
const PROBE = '{ ipInfo(target: "9.9.9.9") { asn } }';

/** Credits an interaction spent, read from the ledger through one probe operation of known price. */
async function spentBy(interact: (t: TestApp) => Promise<unknown>): Promise<number> {
  const t = await createTestApp({ quota: { credits: CREDITS, costs: COSTS } });
  try {
    await interact(t);
    const probe = await graphql(t, PROBE);
    return CREDITS - COSTS['ip-info'] - Number(probe.headers.get('ratelimit-remaining'));
  } finally {
    await t.close();
  }
}

const post = (body: unknown) => (t: TestApp) =>
  t.app.fetch(
    new Request('http://netdiag.test/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': TEST_KEY },
      body: JSON.stringify(body),
    }),
    { peerAddress: '127.0.0.1' },
  );

describe('GraphQL pricing', () => {
  it.each([
    [
      'each aliased occurrence',
      '{ a: ipInfo(target: "8.8.8.8") { asn } b: ipInfo(target: "1.1.1.1") { asn } }',
      {},
      2 + 2,
    ],
    [
      'fields inside fragments and inline fragments',
      '{ ...F ... on Query { mxLookup(domain: "x.test") { domain } } } fragment F on Query { asnLookup(target: "1.1.1.1") { asn } }',
      {},
      5 + 11,
    ],
    [
      'a field whose target comes from a variable',
      'query ($t: String!) { ipInfo(target: $t) { asn } }',
      { t: '8.8.8.8' },
      2,
    ],
    [
      '@include(if: false) and @skip(if: true) fields not at all',
      'query ($x: Boolean!) { ipInfo(target: "8.8.8.8") @include(if: $x) { asn } asnLookup(target: "1.1.1.1") @skip(if: true) { asn } }',
      { x: false },
      0,
    ],
    [
      '@include(if: true) fields in full',
      'query ($x: Boolean!) { ipInfo(target: "8.8.8.8") @include(if: $x) { asn } }',
      { x: true },
      2,
    ],
    [
      'introspection beside a check: only the check',
      '{ __schema { queryType { name } } __typename ipInfo(target: "8.8.8.8") { asn } }',
      {},
      2,
    ],
    ['a field that failed upstream (the work was done)', '{ dnsLookup(domain: "example.com") { domain } }', {}, 7],
    [
      'not a field refused as bad input',
      '{ mxLookup(domain: "not a domain") { domain } ipInfo(target: "8.8.8.8") { asn } }',
      {},
      2,
    ],
    [
      'not a field whose target is refused (private address)',
      '{ ipInfo(target: "10.0.0.1") { asn } asnLookup(target: "1.1.1.1") { asn } }',
      {},
      5,
    ],
    ['nothing for an operation refused before execution', '{ ipInfo(target: "8.8.8.8") { nope } }', {}, 0],
  ])('charges %s', async (_case, query, variables, expected) => {
    expect(await spentBy((t) => graphql(t, query, variables))).toBe(expected);
  });

  it('prices a GET operation like a POST', async () => {
    const query = '{ a: ipInfo(target: "8.8.8.8") { asn } b: asnLookup(target: "1.1.1.1") { asn } }';
    const spent = await spentBy((t) =>
      t.app.fetch(
        new Request(`http://netdiag.test/graphql?query=${encodeURIComponent(query)}`, {
          headers: { 'x-api-key': TEST_KEY, accept: 'application/json' },
        }),
        {
          peerAddress: '127.0.0.1',
        },
      ),
    );
    expect(spent).toBe(2 + 5);
  });

  it('refuses a batch array whole and charges nothing', async () => {
    let status = 0;
    const spent = await spentBy(async (t) => {
      status = (await post([{ query: PROBE }, { query: PROBE }])(t)).status;
    });
    expect(status).toBe(400);
    expect(spent).toBe(0);
  });
});
