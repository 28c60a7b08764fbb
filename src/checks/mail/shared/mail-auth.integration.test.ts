/** spf-checker, dkim-checker and dmarc-checker end to end, against a loopback DNS lab as the system resolver. */
import { generateKeyPairSync } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { rr, startDnsLab, type DnsLab } from '../../../../test/lab/dns-server.js';
import { createTestApp, graphql, type TestApp } from '../../../../test/helpers/app.js';

const RSA_2048 = generateKeyPairSync('rsa', { modulusLength: 2048 })
  .publicKey.export({ type: 'spki', format: 'der' })
  .toString('base64');
const meta = (tool: string) => ({ tool, version: 'v1' });

let lab: DnsLab;
let t: TestApp;

beforeAll(async () => {
  lab = await startDnsLab({
    authoritative: false,
    records: [
      // SPF
      rr.txt('spf.test', 'v=spf1 ip4:198.51.100.0/24 include:_spf.provider.test a mx -all'),
      rr.txt('spf.test', 'google-site-verification=abc'),
      rr.a('spf.test', '192.0.2.10'),
      rr.mx('spf.test', 10, 'mx.spf.test'),
      rr.txt('_spf.provider.test', 'v=spf1 ip4:203.0.113.0/24 ~all'),
      rr.txt('multi.test', 'v=spf1 -all'),
      rr.txt('multi.test', 'v=spf1 ~all'),
      rr.txt('many.test', `v=spf1 ${Array.from({ length: 11 }, (_, i) => `include:i${i}.many.test`).join(' ')} -all`),
      ...Array.from({ length: 11 }, (_, i) => rr.txt(`i${i}.many.test`, 'v=spf1 -all')),
      rr.txt('void.test', 'v=spf1 a:none1.void.test a:none2.void.test a:none3.void.test -all'),
      rr.txt('temp.test', 'v=spf1 include:down.test -all'),
      rr.txt('dup.test', 'v=spf1 include:shared.test include:other.test -all'),
      rr.txt('other.test', 'v=spf1 include:shared.test -all'),
      rr.txt('shared.test', 'v=spf1 ip4:198.51.100.7 -all'),
      rr.txt('nospf.test', 'google-site-verification=abc'),
      // DMARC
      rr.txt('_dmarc.dm.test', 'v=DMARC1; p=reject; sp=quarantine; pct=100; rua=mailto:reports@dm.test'),
      rr.a('sub.dm.test', '192.0.2.20'),
      rr.txt('_dmarc.two.test', 'v=DMARC1; p=none'),
      rr.txt('_dmarc.two.test', 'v=DMARC1; p=reject'),
      // DKIM
      rr.txt('s1._domainkey.dk.test', `v=DKIM1; k=rsa; p=${RSA_2048}`),
      rr.txt('old._domainkey.dk.test', 'v=DKIM1; p='),
      rr.txt('mail.2024._domainkey.dk.test', 'v=DKIM1; k=ed25519; p=11qYAYKxCrfVS/7TyWQHOg7hcvPapiMlrwIaaPcHURo='),
    ],
  });
  t = await createTestApp({ dns: { system: [`127.0.0.1:${lab.port}`], timeoutMs: 1000 } });
});
afterAll(async () => {
  await t.close();
  await lab.close();
});
beforeEach(() => {
  lab.clearQueries();
  lab.clearBehaviours();
  t.services.dnsCache.clear();
});

const rest = async (path: string) => {
  const res = await t.get(path);
  return { status: res.status, body: await res.json() };
};

describe('spf-checker', () => {
  it('returns the record, its terms and the evaluated include tree with the lookup counts', async () => {
    const { status, body } = await rest('/api/v1/spf-checker?domain=SPF.test.');
    expect(status).toBe(200);
    expect(body.meta).toEqual(meta('spf-checker'));
    const record = 'v=spf1 ip4:198.51.100.0/24 include:_spf.provider.test a mx -all';
    expect(body.data).toEqual({
      domain: 'spf.test',
      found: true,
      record,
      mechanisms: ['ip4:198.51.100.0/24', 'include:_spf.provider.test', 'a', 'mx', '-all'],
      multiple: false,
      recordCount: 1,
      terms: [
        {
          kind: 'mechanism',
          text: 'ip4:198.51.100.0/24',
          name: 'ip4',
          qualifier: '+',
          domainSpec: null,
          network: '198.51.100.0',
          ip4Prefix: 24,
          ip6Prefix: null,
          value: null,
          error: null,
        },
        {
          kind: 'mechanism',
          text: 'include:_spf.provider.test',
          name: 'include',
          qualifier: '+',
          domainSpec: '_spf.provider.test',
          network: null,
          ip4Prefix: null,
          ip6Prefix: null,
          value: null,
          error: null,
        },
        {
          kind: 'mechanism',
          text: 'a',
          name: 'a',
          qualifier: '+',
          domainSpec: null,
          network: null,
          ip4Prefix: null,
          ip6Prefix: null,
          value: null,
          error: null,
        },
        {
          kind: 'mechanism',
          text: 'mx',
          name: 'mx',
          qualifier: '+',
          domainSpec: null,
          network: null,
          ip4Prefix: null,
          ip6Prefix: null,
          value: null,
          error: null,
        },
        {
          kind: 'mechanism',
          text: '-all',
          name: 'all',
          qualifier: '-',
          domainSpec: null,
          network: null,
          ip4Prefix: null,
          ip6Prefix: null,
          value: null,
          error: null,
        },
      ],
      lookupTree: [
        {
          parent: null,
          depth: 0,
          domain: 'spf.test',
          via: 'root',
          status: 'ok',
          record,
          lookups: 3,
          voidLookups: 0,
          notes: [],
        },
        {
          parent: 0,
          depth: 1,
          domain: '_spf.provider.test',
          via: 'include',
          status: 'ok',
          record: 'v=spf1 ip4:203.0.113.0/24 ~all',
          lookups: 0,
          voidLookups: 0,
          notes: [],
        },
      ],
      lookupCount: 3,
      lookupLimit: 10,
      voidLookupCount: 0,
      voidLookupLimit: 2,
      evaluation: 'ok',
      errors: [],
      warnings: [],
      temporaryErrors: [],
      notEvaluated: [],
      truncated: false,
    });
    // the a and mx terms were resolved through the system resolver
    expect(lab.countQueries('spf.test', 'A')).toBe(1);
    expect(lab.countQueries('spf.test', 'MX')).toBe(1);
  });

  it('flags several SPF records as multiple (a permerror) and still analyses the first', async () => {
    const { body } = await rest('/api/v1/spf-checker?domain=multi.test');
    expect(body.data).toMatchObject({
      found: true,
      multiple: true,
      recordCount: 2,
      record: 'v=spf1 -all',
      evaluation: 'permerror',
    });
    expect(body.data.errors[0]).toMatch(/2 SPF records/);
  });

  it('still returns the parsed record when the lookup limit is exceeded', async () => {
    const { status, body } = await rest('/api/v1/spf-checker?domain=many.test');
    expect(status).toBe(200);
    expect(body.data).toMatchObject({ found: true, lookupCount: 11, evaluation: 'permerror', truncated: false });
    expect(body.data.mechanisms).toHaveLength(12);
    expect(body.data.lookupTree).toHaveLength(12);
    expect(
      body.data.lookupTree.slice(1).every((n: { parent: number; depth: number }) => n.parent === 0 && n.depth === 1),
    ).toBe(true);
    expect(body.data.errors).toContainEqual(expect.stringMatching(/11 DNS-querying terms .* exceed the limit of 10/));
  });

  it('counts void lookups against their limit of two', async () => {
    const { body } = await rest('/api/v1/spf-checker?domain=void.test');
    expect(body.data).toMatchObject({ voidLookupCount: 3, lookupCount: 3, evaluation: 'permerror' });
    expect(body.data.lookupTree[0]).toMatchObject({ voidLookups: 3 });
  });

  it('reports no record as found: false, and a failure inside the tree as temperror', async () => {
    for (const domain of ['nospf.test', 'nothing-here.test']) {
      const { status, body } = await rest(`/api/v1/spf-checker?domain=${domain}`);
      expect(status, domain).toBe(200);
      expect(body.data, domain).toMatchObject({
        found: false,
        record: '',
        mechanisms: [],
        multiple: false,
        lookupTree: [],
        evaluation: 'none',
      });
    }
    lab.setBehaviour('down.test', { servfail: true });
    const { status, body } = await rest('/api/v1/spf-checker?domain=temp.test');
    expect(status).toBe(200);
    expect(body.data).toMatchObject({
      evaluation: 'temperror',
      temporaryErrors: [expect.stringMatching(/include:down\.test: .*SERVFAIL/)],
    });
    expect(body.data.lookupTree[1]).toMatchObject({ domain: 'down.test', status: 'temperror', parent: 0 });
  });

  it('is a 502 or 504 naming the resolver when the first question fails', async () => {
    lab.setBehaviour('sf.test', { servfail: true });
    const sf = await rest('/api/v1/spf-checker?domain=sf.test');
    expect(sf).toEqual({
      status: 502,
      body: { ok: false, error: expect.stringMatching(/SERVFAIL/), meta: meta('spf-checker') },
    });
    lab.setBehaviour('dead.test', { drop: true });
    const dead = await rest('/api/v1/spf-checker?domain=dead.test');
    expect(dead.status).toBe(504);
    expect(dead.body.error).toMatch(/^the service's resolver /);
  });

  it('asks a name included twice once per request, and the next request is served from the cache', async () => {
    const { body } = await rest('/api/v1/spf-checker?domain=dup.test');
    expect(body.data.lookupCount).toBe(3);
    expect(lab.countQueries('shared.test', 'TXT')).toBe(1);
    const before = lab.queries.length;
    await rest('/api/v1/spf-checker?domain=dup.test');
    expect(lab.queries.length).toBe(before);
  });
});

describe('dmarc-checker', () => {
  it('parses the record at _dmarc.<domain>', async () => {
    const { status, body } = await rest('/api/v1/dmarc-checker?domain=dm.test');
    expect(status).toBe(200);
    expect(body).toEqual({
      ok: true,
      data: {
        domain: 'dm.test',
        found: true,
        record: 'v=DMARC1; p=reject; sp=quarantine; pct=100; rua=mailto:reports@dm.test',
        tags: { v: 'DMARC1', p: 'reject', sp: 'quarantine', pct: '100', rua: 'mailto:reports@dm.test' },
        queriedName: '_dmarc.dm.test',
        orgDomain: 'dm.test',
        inherited: false,
        multiple: false,
        policy: 'reject',
        effectivePolicy: 'reject',
        valid: true,
        errors: [],
        warnings: [],
      },
      meta: meta('dmarc-checker'),
    });
  });

  it("inherits the organisational domain's record, whose sp= then applies", async () => {
    const { body } = await rest('/api/v1/dmarc-checker?domain=sub.dm.test');
    expect(body.data).toMatchObject({
      domain: 'sub.dm.test',
      found: true,
      inherited: true,
      queriedName: '_dmarc.dm.test',
      orgDomain: 'dm.test',
      effectivePolicy: 'quarantine',
    });
    expect(lab.countQueries('_dmarc.sub.dm.test', 'TXT')).toBe(1);
    expect(lab.countQueries('_dmarc.dm.test', 'TXT')).toBe(1);
  });

  it('reports none and several records as findings, a failed question as a 502', async () => {
    const none = await rest('/api/v1/dmarc-checker?domain=nodmarc.test');
    expect(none.body.data).toMatchObject({ found: false, record: '', tags: {}, inherited: false, policy: null });
    const two = await rest('/api/v1/dmarc-checker?domain=two.test');
    expect(two.body.data).toMatchObject({
      found: false,
      multiple: true,
      errors: [expect.stringMatching(/2 DMARC records/)],
    });
    lab.setBehaviour('_dmarc.broken.test', { servfail: true });
    const broken = await rest('/api/v1/dmarc-checker?domain=broken.test');
    expect(broken.status).toBe(502);
    expect(broken.body.error).toMatch(/SERVFAIL/);
  });
});

describe('dkim-checker', () => {
  it('finds the key record at <selector>._domainkey.<domain>', async () => {
    const { status, body } = await rest('/api/v1/dkim-checker?domain=dk.test&selector=s1');
    expect(status).toBe(200);
    expect(body).toEqual({
      ok: true,
      data: {
        domain: 'dk.test',
        selector: 's1',
        found: true,
        record: `v=DKIM1; k=rsa; p=${RSA_2048}`,
        keyType: 'rsa',
        hasPublicKey: true,
        name: 's1._domainkey.dk.test',
        revoked: false,
        keyBits: 2048,
        testing: false,
        tags: { v: 'DKIM1', k: 'rsa', p: RSA_2048 },
        errors: [],
        warnings: [],
      },
      meta: meta('dkim-checker'),
    });
  });

  it('reports a revoked key, a dotted selector, and a missing selector', async () => {
    const revoked = await rest('/api/v1/dkim-checker?domain=dk.test&selector=old');
    expect(revoked.body.data).toMatchObject({ found: true, hasPublicKey: false, revoked: true, keyType: 'rsa' });
    const dotted = await rest('/api/v1/dkim-checker?domain=dk.test&selector=mail.2024');
    expect(dotted.body.data).toMatchObject({
      found: true,
      keyType: 'ed25519',
      hasPublicKey: true,
      name: 'mail.2024._domainkey.dk.test',
    });
    const missing = await rest('/api/v1/dkim-checker?domain=dk.test&selector=nope');
    expect(missing.body.data).toMatchObject({ found: false, record: null, keyType: null, hasPublicKey: false });
  });

  it('rejects bad selectors and domains with a 400 naming the parameter, asking nothing', async () => {
    const cases: [string, RegExp][] = [
      ['domain=dk.test', /^selector: missing required parameter$/],
      ['domain=dk.test&selector=...', /^selector: .*empty label/],
      ['domain=dk.test&selector=s%201', /^selector: .*contains " "/],
      ['domain=dk.test&selector=s1%2Fx', /^selector: .*contains "\/"/],
      [`domain=dk.test&selector=${'a'.repeat(64)}`, /^selector: label .* 63/],
      [`domain=dk.test&selector=${Array.from({ length: 4 }, () => 'a'.repeat(60)).join('.')}`, /^selector: .*253/],
      ['selector=s1', /^domain: missing required parameter$/],
      ['domain=dk..test&selector=s1', /^domain: .*empty label/],
      [`domain=${'b'.repeat(64)}.test&selector=s1`, /^domain: label .* 63/],
    ];
    for (const [query, message] of cases) {
      const res = await rest(`/api/v1/dkim-checker?${query}`);
      expect(res, query).toEqual({
        status: 400,
        body: { ok: false, error: expect.stringMatching(message), meta: meta('dkim-checker') },
      });
    }
    expect(lab.queries).toHaveLength(0);
  });
});

describe('GraphQL', () => {
  it('runs the three checks in one operation, asking each distinct question once', async () => {
    const res = await graphql(
      t,
      `{ spf: spfChecker(domain: "dup.test") { found lookupCount lookupTree { domain depth } }
         again: spfChecker(domain: "other.test") { found }
         dmarc: dmarcChecker(domain: "dm.test") { policy inherited tags }
         dkim: dkimChecker(domain: "dk.test", selector: "s1") { found keyBits } }`,
    );
    expect(res.status).toBe(200);
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data).toEqual({
      spf: {
        found: true,
        lookupCount: 3,
        lookupTree: [
          { domain: 'dup.test', depth: 0 },
          { domain: 'shared.test', depth: 1 },
          { domain: 'other.test', depth: 1 },
          { domain: 'shared.test', depth: 2 },
        ],
      },
      again: { found: true },
      dmarc: {
        policy: 'reject',
        inherited: false,
        tags: { v: 'DMARC1', p: 'reject', sp: 'quarantine', pct: '100', rua: 'mailto:reports@dm.test' },
      },
      dkim: { found: true, keyBits: 2048 },
    });
    expect(lab.countQueries('other.test', 'TXT')).toBe(1);
    expect(lab.countQueries('shared.test', 'TXT')).toBe(1);
  });

  it('names the parameter of a bad selector in the error', async () => {
    const res = await graphql(t, '{ dkimChecker(domain: "dk.test", selector: "a b") { found } }');
    expect(res.body.errors[0]).toMatchObject({
      message: expect.stringMatching(/^selector: /),
      extensions: { code: 'BAD_INPUT' },
    });
  });
});
