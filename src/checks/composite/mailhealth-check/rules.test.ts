/**
 * mailhealth-check's rules (rules.ts): each status of each check, from inputs made by the single
 * checks' own pure functions (checkSpf, checkDmarc, evaluateDkim, classifyDnsblOutcome) over
 * in-memory zones, so the rules are tested against the shapes they really get.
 */
import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { classifyDnsblOutcome, type DnsblListResult } from '../../dns/dns-blacklist-checker/dnsbl.js';
import type { MxHost, MxLookupResult } from '../../dns/mx-lookup/run.js';
import { flattenSpfTree, type SpfCheckerResult } from '../../mail/spf-checker/run.js';
import { evaluateDkim } from '../../mail/dkim-checker/dkim.js';
import { checkDmarc } from '../../mail/dmarc-checker/dmarc.js';
import { checkSpf } from '../../mail/spf-checker/walk.js';
import type { TxtAnswer } from '../../mail/shared/txt.js';
import {
  BLACKLIST_LISTINGS_CRITICAL,
  blacklistFinding,
  dkimFinding,
  dmarcFinding,
  mailNotRunFinding,
  MAIL_PART_BOUND_MS,
  mxFinding,
  SPF_LOOKUPS_NEAR_LIMIT,
  spfFinding,
  type BlacklistFacts,
  type DkimSelectorOutcome,
} from './rules.js';
import { mailDetailsNotMeasured, MAIL_CHECK_IDS, MAIL_CHECK_LABELS } from './details.js';
import { ProbeError } from '../../../probes/errors.js';

const keyOf = (bits: number) =>
  generateKeyPairSync('rsa', { modulusLength: bits })
    .publicKey.export({ type: 'spki', format: 'der' })
    .toString('base64');
const RSA_2048 = keyOf(2048);
const RSA_1024 = keyOf(1024);

type Zone = Record<string, string[] | ProbeError>;
const lookupFrom =
  (zone: Zone) =>
  async (name: string): Promise<TxtAnswer> => {
    const entry = zone[name];
    if (entry instanceof ProbeError) throw entry;
    return entry === undefined ? { rcode: 'NXDOMAIN', records: [] } : { rcode: 'NOERROR', records: entry };
  };

async function spf(txt: Zone, a: Zone = {}): Promise<SpfCheckerResult> {
  const result = await checkSpf('mail.test', {
    txt: lookupFrom(txt),
    a: lookupFrom(a),
    aaaa: lookupFrom({}),
    mx: lookupFrom({ 'mail.test': ['10 mx.mail.test'] }),
  });
  return { ...result, lookupTree: result.lookupTree === null ? [] : flattenSpfTree(result.lookupTree) };
}

const dmarc = (zone: Zone, domain = 'mail.test') => checkDmarc(domain, lookupFrom(zone));

const host = (exchange: string, ip: string, priority = 10, provider: string | null = null): MxHost => ({
  priority,
  exchange,
  ip,
  addresses: ip === '' ? [] : [ip],
  omittedAddresses: 0,
  provider,
});
const mx = (hosts: MxHost[], extra: Partial<MxLookupResult> = {}): MxLookupResult => ({
  domain: 'mail.test',
  hosts,
  omittedExchanges: 0,
  truncated: false,
  nullMx: false,
  rcode: 'NOERROR',
  ...extra,
});

describe('the check list', () => {
  it('has the ids of api-v1.md (the transport parts join from their checks), each with a label, and a part bound under the 30 s composite bound', () => {
    expect(MAIL_CHECK_IDS).toEqual(['mx', 'spf', 'dmarc', 'dkim', 'blacklist']);
    for (const id of MAIL_CHECK_IDS) expect(MAIL_CHECK_LABELS[id]).toMatch(/\w/);
    expect(MAIL_PART_BOUND_MS).toBeLessThan(30_000);
  });

  it('a check that could not run is error, says why, and keeps its detail keys with nothing found', () => {
    const f = mailNotRunFinding('dmarc', 'DNS server 127.0.0.1:53 answered TXT _dmarc.mail.test with rcode SERVFAIL.');
    expect(f.status).toBe('error');
    expect(f.error).toBe('DNS server 127.0.0.1:53 answered TXT _dmarc.mail.test with rcode SERVFAIL.');
    expect(f.summary).toBe(
      "This check could not run (DNS server 127.0.0.1:53 answered TXT _dmarc.mail.test with rcode SERVFAIL); run the health check again, and if it persists, check that the domain's name servers answer.",
    );
    expect(f.details).toEqual({ record: null, policy: null, found: null, inherited: null, queriedName: null });
    expect(Object.keys(mailDetailsNotMeasured('mx'))).toEqual([
      'hosts',
      'total',
      'omittedExchanges',
      'nullMx',
      'rcode',
    ]);
    expect(Object.keys(mailDetailsNotMeasured('blacklist'))).toEqual([
      'checkedIps',
      'listedIps',
      'cleanIps',
      'results',
      'listCount',
      'skipped',
      'omittedExchanges',
      'omittedAddresses',
    ]);
  });
});

describe('mx', () => {
  it('ok: hosts with public addresses, naming the first and its provider', () => {
    const f = mxFinding(
      mx([host('aspmx.l.google.com', '1.2.3.4', 1, 'Google Workspace'), host('alt1.aspmx.l.google.com', '1.2.3.5', 5)]),
      [],
    );
    expect(f).toEqual({
      status: 'ok',
      summary: '2 MX hosts with addresses; mail goes first to aspmx.l.google.com (Google Workspace), priority 1.',
      details: {
        hosts: [
          host('aspmx.l.google.com', '1.2.3.4', 1, 'Google Workspace'),
          host('alt1.aspmx.l.google.com', '1.2.3.5', 5),
        ],
        total: 2,
        omittedExchanges: 0,
        nullMx: false,
        rcode: 'NOERROR',
      },
    });
  });

  it('info when MX hosts beyond the best were left out, counting them in total', () => {
    const f = mxFinding(mx([host('mx0.mail.test', '1.2.3.4', 0)], { omittedExchanges: 390, truncated: true }), []);
    expect(f.status).toBe('info');
    expect(f.summary).toBe(
      '391 MX hosts: only the 10 best by preference were checked; senders try them in that order and stop after a few (RFC 5321 §5.1), so the other 390 are almost never used: remove those MX records.',
    );
    expect(f.details).toMatchObject({ total: 391, omittedExchanges: 390 });
    // a problem with the hosts followed still comes first
    expect(mxFinding(mx([host('mx0.mail.test', '10.1.2.3', 0)], { omittedExchanges: 390 }), []).status).toBe('warning');
  });

  it('info for a null MX, critical for NXDOMAIN, warning with no MX record', () => {
    const nullMx = mxFinding(mx([], { nullMx: true }), []);
    expect(nullMx.status).toBe('info');
    expect(nullMx.summary).toMatch(/accepts no mail \(RFC 7505\)/);
    expect(nullMx.details).toMatchObject({ total: 0, nullMx: true });
    expect(mxFinding(mx([], { rcode: 'NXDOMAIN' }), [])).toMatchObject({
      status: 'critical',
      summary: expect.stringMatching(/^mail\.test does not exist \(NXDOMAIN\)/),
    });
    expect(mxFinding(mx([]), [])).toMatchObject({
      status: 'warning',
      summary: expect.stringMatching(/no MX record.*RFC 5321 §5\.1.*null MX/),
    });
  });

  it('critical when no host has an address, warning when some have none', () => {
    expect(mxFinding(mx([host('a.mail.test', ''), host('b.mail.test', '', 20)]), [])).toMatchObject({
      status: 'critical',
      summary:
        'None of the 2 MX hosts (a.mail.test and b.mail.test) has an address, so mail cannot be delivered; give them A records or point the MX records at working mail servers.',
    });
    expect(mxFinding(mx([host('a.mail.test', '1.2.3.4'), host('b.mail.test', '', 20)]), [])).toMatchObject({
      status: 'warning',
      summary: expect.stringMatching(/^b\.mail\.test has no address/),
    });
  });

  it('ok for a special-purpose address that targets.allow treats as public', () => {
    expect(mxFinding(mx([host('mx.mail.test', '10.1.2.3')]), ['10.0.0.0/8']).status).toBe('ok');
    expect(mxFinding(mx([host('mx.mail.test', '10.1.2.3')]), ['192.168.0.0/16']).status).toBe('warning');
  });

  it('warning when a host has a special-purpose address', () => {
    const f = mxFinding(mx([host('mx.mail.test', '10.1.2.3')]), []);
    expect(f.status).toBe('warning');
    expect(f.summary).toMatch(/^mx\.mail\.test \(10\.1\.2\.3, private[^)]*\) is not reachable from the Internet/);
  });
});

describe('spf', () => {
  it('ok: one valid record ending in -all, with its details', async () => {
    const f = spfFinding(await spf({ 'mail.test': ['v=spf1 mx ip4:1.2.3.0/24 -all', 'other=1'] }), false);
    expect(f).toEqual({
      status: 'ok',
      summary: 'One valid SPF record ending in "-all", using 1 of 10 DNS lookups.',
      details: {
        record: 'v=spf1 mx ip4:1.2.3.0/24 -all',
        recordCount: 1,
        mechanismCount: 3,
        evaluation: 'ok',
        lookupCount: 1,
        lookupLimit: 10,
      },
    });
  });

  it('no record: critical, or a warning advising "v=spf1 -all" for a null-MX domain', async () => {
    const none = await spf({ 'mail.test': ['something else'] });
    expect(spfFinding(none, false)).toMatchObject({
      status: 'critical',
      details: { record: '', recordCount: 0, mechanismCount: 0, evaluation: 'none' },
    });
    expect(spfFinding(none, true)).toMatchObject({
      status: 'warning',
      summary: expect.stringContaining('"v=spf1 -all"'),
    });
  });

  it('critical for a permerror (two records), saying to merge them', async () => {
    const f = spfFinding(await spf({ 'mail.test': ['v=spf1 -all', 'v=spf1 ~all'] }), false);
    expect(f.status).toBe('critical');
    expect(f.summary).toBe(
      'The domain publishes 2 SPF records, so receivers treat SPF as an error (permerror, RFC 7208 §4.5), as if there were none; merge them into one record.',
    );
    expect(f.details.recordCount).toBe(2);
  });

  it('critical for any other permerror, quoting the reason', async () => {
    const f = spfFinding(await spf({ 'mail.test': ['v=spf1 include:nothing.test -all'] }), false);
    expect(f).toMatchObject({
      status: 'critical',
      summary:
        'Receivers treat this SPF record as an error (permerror: include:nothing.test has no SPF record (RFC 7208 §5.2)), as if there were none; correct the record.',
    });
  });

  it('critical for +all, warning for a temperror, ?all, no all, lookups near the limit and ptr', async () => {
    expect(spfFinding(await spf({ 'mail.test': ['v=spf1 +all'] }), false)).toMatchObject({
      status: 'critical',
      summary: expect.stringMatching(/every host on the Internet passes/),
    });
    const temp = await spf({
      'mail.test': ['v=spf1 include:down.test -all'],
      'down.test': new ProbeError('SERVFAIL', '127.0.0.1:53', 'SERVFAIL for down.test'),
    });
    expect(spfFinding(temp, false)).toMatchObject({
      status: 'warning',
      summary: expect.stringMatching(/failed \(include:down\.test: SERVFAIL for down\.test\).*temperror/),
    });
    expect(spfFinding(await spf({ 'mail.test': ['v=spf1 mx ?all'] }), false)).toMatchObject({
      status: 'warning',
      summary: expect.stringMatching(/"\?all"/),
    });
    expect(spfFinding(await spf({ 'mail.test': ['v=spf1 mx'] }), false)).toMatchObject({
      status: 'warning',
      summary: expect.stringMatching(/no "all" and no redirect=/),
    });
    const includes = Array.from({ length: SPF_LOOKUPS_NEAR_LIMIT }, (_, i) => `include:i${i}.test`);
    const zone: Zone = { 'mail.test': [`v=spf1 ${includes.join(' ')} -all`] };
    for (let i = 0; i < SPF_LOOKUPS_NEAR_LIMIT; i++) zone[`i${i}.test`] = ['v=spf1 -all'];
    expect(spfFinding(await spf(zone), false)).toMatchObject({
      status: 'warning',
      summary: expect.stringMatching(new RegExp(`needs ${SPF_LOOKUPS_NEAR_LIMIT} of at most 10`)),
    });
    expect(spfFinding(await spf({ 'mail.test': ['v=spf1 ptr -all'] }), false)).toMatchObject({
      status: 'warning',
      summary: expect.stringMatching(/ptr mechanism/),
    });
  });

  it('info for a valid record with a remark; ~all is ok', async () => {
    expect(spfFinding(await spf({ 'mail.test': ['v=spf1 -all foo=bar'] }), false)).toMatchObject({
      status: 'info',
      summary: expect.stringMatching(/remark: mail\.test: unknown modifier "foo"/),
    });
    expect(spfFinding(await spf({ 'mail.test': ['v=spf1 mx ~all'] }), false).status).toBe('ok');
  });
});

describe('dmarc', () => {
  it('ok for reject or quarantine, saying where an inherited policy comes from', async () => {
    expect(
      dmarcFinding(await dmarc({ '_dmarc.mail.test': ['v=DMARC1; p=reject; rua=mailto:r@mail.test'] }), false),
    ).toEqual({
      status: 'ok',
      summary: 'The DMARC policy is reject.',
      details: {
        record: 'v=DMARC1; p=reject; rua=mailto:r@mail.test',
        policy: 'reject',
        found: true,
        inherited: false,
        queriedName: '_dmarc.mail.test',
      },
    });
    const inherited = dmarcFinding(
      await dmarc({ '_dmarc.mail.test': ['v=DMARC1; p=reject; sp=quarantine'] }, 'sub.mail.test'),
      false,
    );
    expect(inherited).toMatchObject({
      status: 'ok',
      summary: 'The DMARC policy is quarantine (inherited from _dmarc.mail.test).',
      details: { policy: 'quarantine', inherited: true },
    });
  });

  it('warning when missing (a null-MX domain is told to publish p=reject)', async () => {
    const none = await dmarc({});
    expect(dmarcFinding(none, false)).toMatchObject({
      status: 'warning',
      summary: expect.stringMatching(/^No DMARC record.*publish one at _dmarc\.mail\.test/),
      details: { record: '', policy: null, found: false },
    });
    expect(dmarcFinding(none, true)).toMatchObject({
      status: 'warning',
      summary: expect.stringContaining('"v=DMARC1; p=reject"'),
    });
  });

  it('critical for several records or an invalid one', async () => {
    expect(
      dmarcFinding(await dmarc({ '_dmarc.mail.test': ['v=DMARC1; p=none', 'v=DMARC1; p=reject'] }), false),
    ).toMatchObject({
      status: 'critical',
      summary: expect.stringMatching(/more than one DMARC record, so none applies/),
    });
    expect(dmarcFinding(await dmarc({ '_dmarc.mail.test': ['v=DMARC1; p=sometimes'] }), false)).toMatchObject({
      status: 'critical',
      summary: expect.stringMatching(/is not valid \(p=sometimes is not one of none, quarantine, reject\)/),
    });
  });

  it('info for p=none and for pct under 100; a null-MX domain without reject is a warning', async () => {
    expect(
      dmarcFinding(await dmarc({ '_dmarc.mail.test': ['v=DMARC1; p=none; rua=mailto:r@mail.test'] }), false),
    ).toMatchObject({ status: 'info', summary: expect.stringMatching(/move to quarantine or reject/) });
    expect(dmarcFinding(await dmarc({ '_dmarc.mail.test': ['v=DMARC1; p=quarantine; pct=20'] }), false)).toMatchObject({
      status: 'info',
      summary: expect.stringMatching(/only 20% of failing mail/),
    });
    expect(dmarcFinding(await dmarc({ '_dmarc.mail.test': ['v=DMARC1; p=quarantine'] }), true)).toMatchObject({
      status: 'warning',
      summary: expect.stringMatching(/set p=reject/),
    });
    expect(dmarcFinding(await dmarc({ '_dmarc.mail.test': ['v=DMARC1; p=reject'] }), true).status).toBe('ok');
  });
});

describe('dkim', () => {
  const outcome = (selector: string, records: string[] | null): DkimSelectorOutcome => ({
    selector,
    result: evaluateDkim(
      'mail.test',
      selector,
      records === null ? { rcode: 'NXDOMAIN', records: [] } : { rcode: 'NOERROR', records },
    ),
  });
  const failed = (selector: string): DkimSelectorOutcome => ({
    selector,
    failure: `DNS server 127.0.0.1:53 did not answer TXT ${selector}._domainkey.mail.test within 2000 ms`,
  });
  const google = { name: 'Google Workspace', evidence: ['mx:aspmx.l.google.com'] };

  it('ok with a usable key; details list what was found, checked, the providers and failures', () => {
    const f = dkimFinding({
      nullMx: false,
      outcomes: [outcome('default', null), outcome('google', [`v=DKIM1; k=rsa; p=${RSA_2048}`]), failed('s1')],
      providers: [google],
    });
    expect(f).toEqual({
      status: 'ok',
      summary: 'DKIM key found for google among the 3 selectors checked (default, google and s1).',
      details: {
        selectorsFound: ['google'],
        selectorsChecked: ['default', 'google', 's1'],
        providers: ['Google Workspace'],
        failedSelectors: [
          {
            selector: 's1',
            reason: 'DNS server 127.0.0.1:53 did not answer TXT s1._domainkey.mail.test within 2000 ms',
          },
        ],
      },
    });
  });

  it('nothing found is a warning, never critical; info for a null-MX domain', () => {
    const none = { outcomes: [outcome('default', null), outcome('google', ['not a key'])], providers: [] };
    expect(dkimFinding({ nullMx: false, ...none })).toMatchObject({
      status: 'warning',
      summary: expect.stringMatching(
        /^No DKIM key among the 2 selectors checked \(default and google\); if the domain signs/,
      ),
      details: { selectorsFound: [] },
    });
    expect(dkimFinding({ nullMx: true, ...none }).status).toBe('info');
  });

  it('warning when no key found is usable, or one has an error; info for a short key', () => {
    expect(dkimFinding({ nullMx: false, outcomes: [outcome('old', ['v=DKIM1; p='])], providers: [] })).toMatchObject({
      status: 'warning',
      summary: expect.stringMatching(/none can verify signatures \(every key found is revoked/),
    });
    expect(
      dkimFinding({ nullMx: false, outcomes: [outcome('bad', ['v=DKIM1; p=not-base64!'])], providers: [] }),
    ).toMatchObject({ status: 'warning', summary: expect.stringMatching(/bad: p= is not valid base64/) });
    expect(
      dkimFinding({
        nullMx: false,
        outcomes: [outcome('good', [`v=DKIM1; p=${RSA_2048}`]), outcome('bad', ['v=DKIM1; p=not-base64!'])],
        providers: [],
      }),
    ).toMatchObject({
      status: 'warning',
      summary: expect.stringMatching(/usable \(good\), but the key at bad has an error/),
    });
    expect(
      dkimFinding({ nullMx: false, outcomes: [outcome('short', [`v=DKIM1; p=${RSA_1024}`])], providers: [] }),
    ).toMatchObject({ status: 'info', summary: expect.stringMatching(/1024 bits/) });
    // a revoked old selector beside a usable key is a finished rotation
    expect(
      dkimFinding({
        nullMx: false,
        outcomes: [outcome('old', ['v=DKIM1; p=']), outcome('new', [`v=DKIM1; p=${RSA_2048}`])],
        providers: [],
      }).status,
    ).toBe('ok');
  });

  it('error when every selector question failed', () => {
    const f = dkimFinding({ nullMx: false, outcomes: [failed('a'), failed('b')], providers: [] });
    expect(f.status).toBe('error');
    expect(f.summary).toMatch(/could not run \(DNS server 127\.0\.0\.1:53 did not answer TXT a\._domainkey/);
    expect(f.details.selectorsChecked).toEqual(['a', 'b']);
  });
});

describe('blacklist', () => {
  const lists = [
    { zone: 'bl.test', name: 'Lab BL' },
    { zone: 'dead.test', name: 'Dead List' },
  ];
  const clean = (ip: string, zone = lists[0]!): DnsblListResult =>
    classifyDnsblOutcome(zone, `q.${zone.zone}`, { kind: 'answer', rcode: 'NXDOMAIN', addresses: [] });
  const listed = (zone = lists[0]!): DnsblListResult =>
    classifyDnsblOutcome(zone, `q.${zone.zone}`, { kind: 'answer', rcode: 'NOERROR', addresses: ['127.0.0.2'] });
  const dead = (zone = lists[1]!): DnsblListResult =>
    classifyDnsblOutcome(zone, `q.${zone.zone}`, {
      kind: 'error',
      error: new ProbeError('TIMEOUT', '127.0.0.1:53', 'DNS server 127.0.0.1:53 did not answer'),
    });
  const facts = (f: Partial<BlacklistFacts>): BlacklistFacts => ({
    nullMx: false,
    implicitMx: false,
    addresses: [],
    skipped: [],
    listCount: 2,
    omittedExchanges: 0,
    omittedAddresses: 0,
    ...f,
  });

  it('ok when every address is clean on every list, with the counts of api-v1.md', () => {
    const f = blacklistFinding(
      facts({
        addresses: [
          {
            ip: '1.2.3.4',
            hosts: ['mx1.mail.test', 'mx2.mail.test'],
            lists: [clean('1.2.3.4'), clean('1.2.3.4', lists[1])],
          },
        ],
      }),
    );
    expect(f).toEqual({
      status: 'ok',
      summary: 'No listing found for 1 address on 2 lists.',
      details: {
        checkedIps: 1,
        listedIps: 0,
        cleanIps: 1,
        results: [
          { ip: '1.2.3.4', listed: false, listedOn: [], hosts: ['mx1.mail.test', 'mx2.mail.test'], failedLists: [] },
        ],
        listCount: 2,
        skipped: [],
        omittedExchanges: 0,
        omittedAddresses: 0,
      },
    });
  });

  it('info when nothing is listed but MX hosts or addresses were left out, saying what', () => {
    const address = { ip: '1.2.3.4', hosts: ['mx.mail.test'], lists: [clean('1.2.3.4'), clean('1.2.3.4', lists[1])] };
    const both = blacklistFinding(facts({ addresses: [address], omittedExchanges: 390, omittedAddresses: 6 }));
    expect(both.status).toBe('info');
    expect(both.summary).toBe(
      'No listing found for 1 address on 2 lists, but 390 MX hosts beyond the 10 best and 6 addresses beyond the first 4 of a host were not looked up.',
    );
    expect(both.details).toMatchObject({ omittedExchanges: 390, omittedAddresses: 6 });
    expect(blacklistFinding(facts({ addresses: [address], omittedAddresses: 1 })).summary).toBe(
      'No listing found for 1 address on 2 lists, but 1 address beyond the first 4 of a host was not looked up.',
    );
    // a listing is still the finding
    expect(
      blacklistFinding(
        facts({ addresses: [{ ...address, lists: [listed(), clean('1.2.3.4', lists[1])] }], omittedExchanges: 390 }),
      ).status,
    ).toBe('critical');
  });

  it(`critical for an address on ${BLACKLIST_LISTINGS_CRITICAL} list or more, naming it, its host and the list`, () => {
    const f = blacklistFinding(
      facts({
        addresses: [
          { ip: '1.2.3.4', hosts: ['mx1.mail.test'], lists: [listed(), clean('1.2.3.4', lists[1])] },
          { ip: '5.6.7.8', hosts: ['mx2.mail.test'], lists: [clean('5.6.7.8'), clean('5.6.7.8', lists[1])] },
        ],
      }),
    );
    expect(f.status).toBe('critical');
    expect(f.summary).toMatch(/^1\.2\.3\.4 \(mx1\.mail\.test\) on Lab BL: .*request delisting/);
    expect(f.details).toMatchObject({ checkedIps: 2, listedIps: 1, cleanIps: 1 });
    expect(f.details.results?.[0]).toEqual({
      ip: '1.2.3.4',
      listed: true,
      listedOn: ['Lab BL'],
      hosts: ['mx1.mail.test'],
      failedLists: [],
    });
  });

  it('info when nothing is listed but a list did not answer; error when none answered', () => {
    const partial = blacklistFinding(
      facts({ addresses: [{ ip: '1.2.3.4', hosts: ['mx.mail.test'], lists: [clean('1.2.3.4'), dead()] }] }),
    );
    expect(partial.status).toBe('info');
    expect(partial.summary).toMatch(
      /^No listing found for 1 address on 2 lists, but 1 list answer unusable \(Dead List: time-out: DNS server/,
    );
    expect(partial.details.results?.[0]?.failedLists).toEqual([
      'Dead List: time-out: DNS server 127.0.0.1:53 did not answer',
    ]);
    const none = blacklistFinding(
      facts({ addresses: [{ ip: '1.2.3.4', hosts: ['mx.mail.test'], lists: [dead(lists[0]), dead()] }] }),
    );
    expect(none.status).toBe('error');
    expect(none.summary).toMatch(/no block list answered/);
    expect(none.details.checkedIps).toBe(1);
  });

  it('info for a null MX or no IPv4 address; error when no exchange could be resolved', () => {
    expect(blacklistFinding(facts({ nullMx: true }))).toMatchObject({
      status: 'info',
      summary: expect.stringMatching(/null MX/),
      details: { checkedIps: 0, results: [] },
    });
    const v6 = blacklistFinding(
      facts({
        skipped: [
          { target: '2001:db8::1', reason: 'IPv6 address of mx.mail.test: block lists are checked for IPv4 addresses' },
        ],
      }),
    );
    expect(v6).toMatchObject({
      status: 'info',
      summary: expect.stringMatching(/No public IPv4 address of the MX hosts/),
    });
    expect(blacklistFinding(facts({ implicitMx: true })).summary).toMatch(/of the domain \(it has no MX record\)/);
    const unresolved = blacklistFinding(
      facts({
        skipped: [
          { target: 'mx.mail.test', reason: 'DNS server 127.0.0.1:53 answered A mx.mail.test with rcode SERVFAIL' },
        ],
      }),
    );
    expect(unresolved.status).toBe('error');
  });
});
