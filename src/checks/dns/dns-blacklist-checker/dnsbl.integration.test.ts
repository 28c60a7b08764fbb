/** dns-blacklist-checker end to end, against a loopback DNS lab as the system resolver playing the lists. */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { rr, startDnsLab, type DnsLab } from '../../../../test/lab/dns-server.js';
import { createTestApp, graphql, type TestApp } from '../../../../test/helpers/app.js';

const META = { tool: 'dns-blacklist-checker', version: 'v1' };
// the dead list costs one time-out per request; questions are re-sent at 40 % of it, so counts stay exact
const TIMEOUT_MS = 500;
// A public address, used only as labels of questions to the loopback lab.
const IP = '1.2.3.4';
const REVERSED = '4.3.2.1';

let lab: DnsLab;
let t: TestApp;

beforeAll(async () => {
  lab = await startDnsLab({
    authoritative: false,
    records: [
      rr.a(`${REVERSED}.bl.test`, '127.0.0.2'),
      rr.txt(`${REVERSED}.bl.test`, `Listed: see https://bl.test/lookup?ip=${IP}`),
      rr.a(`${REVERSED}.zen.spamhaus.org`, '127.0.0.4'),
      rr.a(`${REVERSED}.zen.spamhaus.org`, '127.0.0.10'),
      rr.a(`${REVERSED}.err.test`, '127.255.255.254'),
      rr.a('mail.example.test', IP),
      rr.a('mail.example.test', '5.6.7.8'),
      rr.aaaa('mail.example.test', '2001:4860::1'),
      rr.aaaa('v6.example.test', '2001:4860::2'),
      rr.a('intranet.example.test', '10.1.2.3'),
      rr.txt('noaddr.example.test', 'no addresses here'),
    ],
  });
  t = await createTestApp({
    dns: { system: [`127.0.0.1:${lab.port}`], timeoutMs: TIMEOUT_MS },
    dnsbl: {
      zones: [
        { zone: 'bl.test', name: 'Lab BL' },
        { zone: 'spam.test', name: 'Spam List' },
        { zone: 'zen.spamhaus.org', name: 'Spamhaus ZEN' },
        { zone: 'err.test', name: 'Error List' },
        { zone: 'dead.test', name: 'Dead List' },
      ],
    },
  });
});
afterAll(async () => {
  await t.close();
  await lab.close();
});
beforeEach(() => {
  lab.clearQueries();
  lab.clearBehaviours();
  lab.setBehaviour(/\.dead\.test$/, { drop: true });
  t.services.dnsCache.clear();
});

const rest = async (query: string) => {
  const res = await t.get(`/api/v1/dns-blacklist-checker?${query}`);
  return { status: res.status, body: await res.json() };
};

const expectedResults = [
  {
    zone: 'bl.test',
    name: 'Lab BL',
    query: `${REVERSED}.bl.test`,
    status: 'listed',
    codes: ['127.0.0.2'],
    reason: `Listed: see https://bl.test/lookup?ip=${IP}`,
  },
  { zone: 'spam.test', name: 'Spam List', query: `${REVERSED}.spam.test`, status: 'clean', codes: [], reason: null },
  {
    zone: 'zen.spamhaus.org',
    name: 'Spamhaus ZEN',
    query: `${REVERSED}.zen.spamhaus.org`,
    status: 'listed',
    codes: ['127.0.0.4', '127.0.0.10'],
    reason: 'XBL (exploited host), PBL (end-user range, ISP-maintained)',
  },
  {
    zone: 'err.test',
    name: 'Error List',
    query: `${REVERSED}.err.test`,
    status: 'error',
    codes: ['127.255.255.254'],
    reason: 'list error code 127.255.255.254; not a listing',
  },
  {
    zone: 'dead.test',
    name: 'Dead List',
    query: `${REVERSED}.dead.test`,
    status: 'error',
    codes: [],
    reason: expect.stringMatching(/^time-out: /),
  },
];

describe('dns-blacklist-checker', () => {
  it('asks every list in parallel: listed, clean, list error codes and a dead list, in one time-out', async () => {
    const started = Date.now();
    const { status, body } = await rest(`host=${IP}`);
    const took = Date.now() - started;
    expect(status).toBe(200);
    expect(body).toEqual({
      ok: true,
      data: { host: IP, ip: IP, resolvedFrom: null, results: expectedResults, listedCount: 2, ipv6Only: false },
      meta: META,
    });
    // five lists, one of which never answers: one time-out, not five
    expect(took).toBeLessThan(2 * TIMEOUT_MS);
    for (const zone of ['bl.test', 'spam.test', 'zen.spamhaus.org', 'err.test'])
      expect(lab.countQueries(`${REVERSED}.${zone}`, 'A')).toBe(1);
    // the explanation is asked only for listings
    expect(lab.countQueries(`${REVERSED}.bl.test`, 'TXT')).toBe(1);
    expect(lab.countQueries(`${REVERSED}.spam.test`, 'TXT')).toBe(0);
  });

  it("checks a domain's first IPv4 address and says it was resolved", async () => {
    const { status, body } = await rest('host=Mail.Example.TEST.');
    expect(status).toBe(200);
    expect(body.data).toEqual({
      host: 'mail.example.test',
      ip: IP,
      resolvedFrom: 'mail.example.test',
      results: expectedResults,
      listedCount: 2,
      ipv6Only: false,
    });
    expect(lab.countQueries('8.7.6.5.bl.test')).toBe(0);
  });

  it('checks nothing for a domain with only IPv6 addresses', async () => {
    const { status, body } = await rest('host=v6.example.test');
    expect(status).toBe(200);
    expect(body.data).toEqual({
      host: 'v6.example.test',
      ip: '2001:4860::2',
      resolvedFrom: 'v6.example.test',
      results: [],
      listedCount: 0,
      ipv6Only: true,
    });
    expect(lab.queries.map((q) => `${q.name} ${q.type}`).sort()).toEqual(['v6.example.test A', 'v6.example.test AAAA']);
  });

  it('refuses private and special-purpose addresses without asking any list (no allow list needed or used)', async () => {
    for (const host of ['192.168.1.1', '127.0.0.2', '100.64.0.1', '2130706433']) {
      const { status, body } = await rest(`host=${host}`);
      expect(status, host).toBe(400);
      expect(body.error, host).toMatch(/checks of private or internal addresses are refused/);
    }
    const named = await rest('host=intranet.example.test');
    expect(named).toEqual({
      status: 400,
      body: {
        ok: false,
        error:
          'target intranet.example.test resolves to 10.1.2.3, a private address; checks of private or internal addresses are refused',
        meta: META,
      },
    });
    const gql = await graphql(t, '{ dnsBlacklistChecker(host: "10.0.0.1") { listedCount } }');
    expect(gql.body.errors[0].extensions.code).toBe('TARGET_REFUSED');
    // only the domain's own addresses were asked: no list heard of any of these
    expect(lab.queries.map((q) => q.name).filter((n) => !n.startsWith('intranet.'))).toEqual([]);
  });

  it('rejects bad input with a 400 naming the parameter', async () => {
    const cases: [string, RegExp][] = [
      ['', /^host: missing required parameter$/],
      ['host=2001:4860::1', /^host: 2001:4860::1 is an IPv6 address; block lists are checked for IPv4 addresses/],
      ['host=1.2.3.256', /^host: .*neither a valid IPv4 address nor a hostname/],
      ['host=exa%20mple.test', /^host: .*contains " "/],
      [`host=${'a'.repeat(64)}.test`, /^host: label .* 63/],
      ['host=1.2.3.4&host=5.6.7.8', /^host: the parameter is repeated/],
    ];
    for (const [query, message] of cases) {
      const res = await rest(query);
      expect(res, query).toEqual({
        status: 400,
        body: { ok: false, error: expect.stringMatching(message), meta: META },
      });
    }
    const none = await rest('host=noaddr.example.test');
    expect(none).toEqual({
      status: 400,
      body: {
        ok: false,
        error: 'host: noaddr.example.test has no A or AAAA record, so there is no address to check',
        meta: META,
      },
    });
  });

  it('is a 502 when the domain cannot be resolved', async () => {
    lab.setBehaviour('sf.example.test', { servfail: true });
    const { status, body } = await rest('host=sf.example.test');
    expect(status).toBe(502);
    expect(body.error).toMatch(/SERVFAIL/);
  });

  it('answers through GraphQL with the same results', async () => {
    const res = await graphql(
      t,
      `{ dnsBlacklistChecker(host: "${IP}") { ip listedCount results { zone status codes } } }`,
    );
    expect(res.body).toEqual({
      data: {
        dnsBlacklistChecker: {
          ip: IP,
          listedCount: 2,
          results: expectedResults.map(({ zone, status, codes }) => ({ zone, status, codes })),
        },
      },
    });
  });
});

describe('dns-blacklist-checker: targets.allow and lists that cannot be asked', () => {
  const withApp = async (config: Record<string, any>, body: (app: TestApp) => Promise<void>) => {
    const app = await createTestApp({ dns: { system: [`127.0.0.1:${lab.port}`], timeoutMs: TIMEOUT_MS }, ...config });
    try {
      await body(app);
    } finally {
      await app.close();
    }
  };
  const ask = async (app: TestApp, query: string) => {
    const res = await app.get(`/api/v1/dns-blacklist-checker?${query}`);
    return { status: res.status, body: await res.json() };
  };

  it('checks an address that targets.allow treats as public, given or resolved (the same rule as the connection checks)', async () => {
    await withApp(
      { targets: { allow: ['10.0.0.0/8'] }, dnsbl: { zones: [{ zone: 'bl.test', name: 'Lab BL' }] } },
      async (app) => {
        const literal = await ask(app, 'host=10.1.2.3');
        expect(literal.status).toBe(200);
        expect(literal.body.data).toMatchObject({
          ip: '10.1.2.3',
          results: [{ query: '3.2.1.10.bl.test', status: 'clean' }],
        });
        const named = await ask(app, 'host=intranet.example.test');
        expect(named.status).toBe(200);
        expect(named.body.data).toMatchObject({ ip: '10.1.2.3', resolvedFrom: 'intranet.example.test' });
        // an address outside the allowed ranges is still refused
        expect((await ask(app, 'host=192.168.1.1')).status).toBe(400);
      },
    );
  });

  it('is a 504 when every list ran out of time', async () => {
    await withApp(
      {
        dnsbl: {
          zones: [
            { zone: 'dead.test', name: 'Dead List' },
            { zone: 'also.dead.test', name: 'Also Dead' },
          ],
        },
      },
      async (app) => {
        const { status, body } = await ask(app, `host=${IP}`);
        expect(status).toBe(504);
        expect(body.error).toMatch(/^no block list could be checked \(dead\.test: .*; also\.dead\.test: /);
      },
    );
  });

  it("is a 502 when no list could answer (SERVFAIL, or only the lists' own error codes)", async () => {
    lab.setBehaviour(/\.sf\.test$/, { servfail: true });
    await withApp(
      {
        dnsbl: {
          zones: [
            { zone: 'sf.test', name: 'Failing' },
            { zone: 'err.test', name: 'Error List' },
          ],
        },
      },
      async (app) => {
        const { status, body } = await ask(app, `host=${IP}`);
        expect(status).toBe(502);
        expect(body.error).toMatch(/^no block list could be checked \(sf\.test: .*SERVFAIL.*; err\.test: /);
      },
    );
  });
});
