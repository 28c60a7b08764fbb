/**
 * Threat: getting checks run for fewer credits than they cost (or being charged for what did not run).
 * Every way GraphQL lets a client shape an operation is priced to exactly the documented price of the
 * check fields that ran: decisions §1 as docs/keys-and-limits.md "Keys and credits" states it.
 */
import net, { type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, graphql, TEST_KEY, type TestApp } from '../helpers/app.js';
import { rr, startDnsLab, type DnsLab } from '../lab/dns-server.js';

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
    [
      'fields whose argument is a variable left to its declared default',
      'query ($d: String! = "x.test") { a: mxLookup(domain: $d) { domain } b: mxLookup(domain: $d) { domain } }',
      {},
      11 + 11,
    ],
    [
      '@include on a variable left to its declared default (true)',
      'query ($x: Boolean = true) { ipInfo(target: "8.8.8.8") @include(if: $x) { asn } }',
      {},
      2,
    ],
    [
      'nothing for @skip on a variable left to its declared default (true)',
      'query ($x: Boolean = true) { ipInfo(target: "8.8.8.8") @skip(if: $x) { asn } }',
      {},
      0,
    ],
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

  it('charges fields whose variable default applies when the request has no variables at all', async () => {
    let status = 0;
    const spent = await spentBy(async (t) => {
      status = (
        await post({
          query:
            'query ($d: String! = "x.test") { a: mxLookup(domain: $d) { domain } b: mxLookup(domain: $d) { domain } }',
        })(t)
      ).status;
    });
    expect(status).toBe(200);
    expect(spent).toBe(11 + 11);
  });

  it('refuses an operation whose variables do not coerce, with 400, before anything runs or is charged', async () => {
    let answer: { status: number; body: any } = { status: 0, body: null };
    const spent = await spentBy(async (t) => {
      answer = await graphql(t, 'query ($t: String!) { ipInfo(target: $t) { asn } }', { t: 42 });
    });
    expect(answer.status).toBe(400);
    expect(answer.body.errors[0].extensions.code).toBe('BAD_INPUT');
    expect(answer.body.errors[0].message).toMatch(/\$t/);
    expect(answer.body.data ?? null).toBeNull();
    expect(spent).toBe(0);
    const missing = await spentBy(async (t) => {
      answer = await graphql(t, 'query ($t: String!) { ipInfo(target: $t) { asn } }', {});
    });
    expect(answer.status).toBe(400);
    expect(missing).toBe(0);
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

/**
 * decisions §1: a 400 is free only when it was decided before the first packet. A redirect chain that
 * ends on a refused address had its hops fetched from third parties: it stays a 400 but is charged.
 */
describe('refunds only what was refused before anything was sent upstream', () => {
  const HTTP_COSTS = { ...COSTS, 'http-headers': 13, 'open-graph-checker': 17 };
  const PLAYS_PUBLIC = '127.0.0.2';
  let server: net.Server;
  let port: number;
  let lab: DnsLab;
  let hops = 0;

  beforeAll(async () => {
    server = net.createServer((socket) => {
      socket.on('error', () => {});
      socket.once('data', (chunk) => {
        hops++;
        const path = /^[A-Z]+ (\S+)/.exec(chunk.toString('latin1'))?.[1] ?? '/';
        const next = path === '/one' ? `http://${PLAYS_PUBLIC}:${port}/two` : `http://127.0.0.1:${port}/inside`;
        socket.end(`HTTP/1.1 302 Found\r\nLocation: ${next}\r\nContent-Length: 0\r\nConnection: close\r\n\r\n`);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, PLAYS_PUBLIC, resolve));
    port = (server.address() as AddressInfo).port;
    lab = await startDnsLab({ authoritative: false, records: [rr.a('inside.attacker.test', '127.0.0.1')] });
  });
  afterAll(async () => {
    await lab?.close();
    await new Promise((resolve) => server?.close(resolve));
  });

  async function spentOn(query: string): Promise<{ spent: number; body: any }> {
    const t = await createTestApp({
      quota: { credits: CREDITS, costs: HTTP_COSTS },
      dns: { system: [`127.0.0.1:${lab.port}`], timeoutMs: 1000 },
      targets: { allow: [`${PLAYS_PUBLIC}/32`] },
      http: { timeoutMs: 3000 },
    });
    try {
      const answer = await graphql(t, query);
      const probe = await graphql(t, PROBE);
      return {
        spent: CREDITS - COSTS['ip-info'] - Number(probe.headers.get('ratelimit-remaining')),
        body: answer.body,
      };
    } finally {
      await t.close();
    }
  }

  it('charges a redirect chain refused at its third hop, for each alias', async () => {
    hops = 0;
    const url = `http://${PLAYS_PUBLIC}:${port}/one`;
    const { spent, body } = await spentOn(
      `{ a: httpHeaders(url: "${url}") { finalUrl } b: openGraphChecker(url: "${url}") { fetched } }`,
    );
    expect(body.errors.map((e: any) => e.extensions.code)).toEqual(['TARGET_REFUSED', 'TARGET_REFUSED']);
    expect(hops).toBeGreaterThanOrEqual(2);
    expect(spent).toBe(13 + 17);
  });

  it('charges a target name that resolved to a refused address (a question was asked upstream)', async () => {
    const { spent, body } = await spentOn('{ httpHeaders(url: "http://inside.attacker.test/") { finalUrl } }');
    expect(body.errors[0].extensions.code).toBe('TARGET_REFUSED');
    expect(spent).toBe(13);
  });

  it('gives back a refused address literal and a malformed argument (nothing was sent)', async () => {
    const { spent, body } = await spentOn(
      '{ a: httpHeaders(url: "http://127.0.0.1/") { finalUrl } b: httpHeaders(url: "ftp://x.test/") { finalUrl } }',
    );
    expect(body.errors.map((e: any) => e.extensions.code).sort()).toEqual(['BAD_INPUT', 'TARGET_REFUSED']);
    expect(spent).toBe(0);
  });
});
