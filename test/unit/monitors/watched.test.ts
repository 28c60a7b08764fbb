/**
 * The watch specs (each check's `watch`, src/graphql-server/watch-specs.ts): every tool a monitor may run has one; over the recorded example
 * answers, timings, TTLs and the order of sets never make a change, and every watched field the contract
 * lists (docs/contract/monitors.md "Events") does, at a stable path and with the contract's severity.
 */
import { readdirSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { diffProjections } from '../../../src/monitors/diff.js';
import { carryForward, type Projection } from '../../../src/watch/projection.js';
import { severityOf } from '../../../src/monitors/severity.js';
import { watchSpecs } from '../../../src/graphql-server/watch-specs.js';

const WATCH_SPECS = watchSpecs();
import { EXAMPLE_TOOLS, example, noisy } from './examples.js';

const NOT_FOR_MONITORS = ['my-ip', 'what-is-my-ip'];

function projectionOf(tool: string, data: unknown, previous: Projection | null = null): Projection {
  return carryForward(previous, WATCH_SPECS.get(tool)!.project(data as any));
}

/** The changes between the recorded answer and the same answer changed by `mutate`, with their severity. */
function changesAfter(tool: string, mutate: (data: any) => void) {
  const before = example(tool);
  const after = example(tool);
  mutate(after);
  const spec = WATCH_SPECS.get(tool)!;
  return diffProjections(projectionOf(tool, before), projectionOf(tool, after)).map((c) => ({
    path: c.path,
    before: c.before,
    after: c.after,
    severity: severityOf(c, spec.rankedKeys),
  }));
}

describe('watch specs', () => {
  it('cover every v1 GET tool but my-ip and what-is-my-ip', () => {
    const tools = readdirSync(resolve(import.meta.dirname, '../../../schema/rest'))
      .map((f) => f.replace(/\.graphql$/, ''))
      .filter((t) => !NOT_FOR_MONITORS.includes(t))
      .sort();
    expect([...WATCH_SPECS.keys()].sort()).toEqual(tools);
  });

  it.each(EXAMPLE_TOOLS.filter((t) => !NOT_FOR_MONITORS.includes(t)))(
    '%s: the projection is plain JSON, and timings, texts and set order make no change',
    (tool) => {
      const projection = projectionOf(tool, example(tool));
      expect(JSON.parse(JSON.stringify(projection))).toEqual(projection);
      expect(diffProjections(projection, projectionOf(tool, noisy(example(tool))))).toEqual([]);
    },
  );

  it.each(EXAMPLE_TOOLS.filter((t) => !NOT_FOR_MONITORS.includes(t)))(
    '%s: assesses its answer in one sentence',
    (tool) => {
      const assessment = WATCH_SPECS.get(tool)!.assess(example(tool));
      expect(['ok', 'info', 'warning', 'critical']).toContain(assessment.status);
      expect(assessment.summary).toMatch(/^\S.*[.!?]$/);
      expect(assessment.summary).not.toContain('?');
    },
  );
});

/** [tool, what changes, the change made to the answer, the path expected, its severity] */
const WATCHED: [string, string, (d: any) => void, string, string][] = [
  // tls-rating: the letter, caps, warnings, supported protocols, the certificate's fingerprint, issuer and notAfter
  ['tls-rating', 'a letter drop to B', (d) => (d.grade.letter = 'B'), 'grade.letter', 'warning'],
  ['tls-rating', 'a letter drop to C', (d) => (d.grade.letter = 'C'), 'grade.letter', 'critical'],
  ['tls-rating', 'a letter drop to T', (d) => (d.grade.letter = 'T'), 'grade.letter', 'critical'],
  [
    'tls-rating',
    'a cap',
    (d) => d.grade.caps.push({ code: 'no-tls13', cap: 'A-', reason: 'x' }),
    'grade.caps[no-tls13]',
    'warning',
  ],
  ['tls-rating', 'a warning', (d) => d.grade.warnings.push({ code: 'no-hsts', reason: 'x' }), 'grade.warnings', 'info'],
  ['tls-rating', 'TLS 1.1 offered', (d) => (d.protocols[2].result = 'supported'), 'protocols[TLSv1.1]', 'warning'],
  ['tls-rating', 'TLS 1.3 dropped', (d) => (d.protocols[4].result = 'not-supported'), 'protocols[TLSv1.3]', 'warning'],
  ['tls-rating', 'the fingerprint', (d) => (d.certificate.fingerprint = 'AB:CD'), 'certificate.fingerprint', 'info'],
  ['tls-rating', 'the issuer', (d) => (d.certificate.issuer = 'Other CA'), 'certificate.issuer', 'info'],
  [
    'tls-rating',
    'the expiry date',
    (d) => (d.certificate.expiryDate = '2027-01-01T00:00:00.000Z'),
    'certificate.expiryDate',
    'info',
  ],
  [
    'tls-rating',
    'an untrusted certificate',
    (d) => (d.certificate.status = 'untrusted'),
    'certificate.status',
    'critical',
  ],
  // http-rating: the grade, score and each test's result
  ['http-rating', 'the grade', (d) => (d.grade = 'A'), 'grade', 'info'],
  ['http-rating', 'the score', (d) => (d.score = 40), 'score', 'info'],
  [
    'http-rating',
    "a test's result",
    (d) => (d.tests[1].result = 'cookies-without-secure-flag'),
    'tests[cookies].result',
    'info',
  ],
  ['http-rating', 'a test failing', (d) => (d.tests[1].pass = false), 'tests[cookies].pass', 'warning'],
  // mailhealth-check: each part's status, the MX set, the SPF and DMARC records, the block-list listings
  ...example('mailhealth-check')
    .checks.filter((c: any) => c.host === null)
    .map((c: any) => c.id as string)
    .map((id: string): [string, string, (d: any) => void, string, string] => [
      'mailhealth-check',
      `the ${id} part becoming critical`,
      (d) => (d.checks.find((c: any) => c.id === id).status = 'critical'),
      `parts[${id}]`,
      'critical',
    ]),
  [
    'mailhealth-check',
    'STARTTLS of an MX host',
    (d) => (d.checks.find((c: any) => c.id === 'starttls' && c.host === 'mx2.lab.test').status = 'warning'),
    'mx[mx2.lab.test].starttls',
    'warning',
  ],
  [
    'mailhealth-check',
    'STARTTLS no longer offered',
    (d) =>
      (d.checks.find((c: any) => c.id === 'starttls' && c.host === 'mx1.lab.test').details.starttls = 'not-offered'),
    'mx[mx1.lab.test].starttlsOffered',
    'critical',
  ],
  [
    'mailhealth-check',
    'DANE of an MX host',
    (d) => (d.checks.find((c: any) => c.id === 'dane' && c.host === 'mx1.lab.test').status = 'ok'),
    'mx[mx1.lab.test].dane',
    'info',
  ],
  [
    'mailhealth-check',
    'the MX set',
    (d) => (d.checks[0].details.hosts[1].exchange = 'mx3.lab.test'),
    'mxHosts',
    'info',
  ],
  ['mailhealth-check', 'the SPF record', (d) => (d.checks[1].details.record = 'v=spf1 mx ~all'), 'spf', 'info'],
  [
    'mailhealth-check',
    'the DMARC record',
    (d) => (d.checks[2].details.record = 'v=DMARC1; p=none'),
    'dmarc.record',
    'info',
  ],
  [
    'mailhealth-check',
    'an address listed',
    (d) => Object.assign(d.checks[4].details.results[1], { listed: true, listedOn: ['bl.test'] }),
    'listings[127.0.0.5]',
    'critical',
  ],
  // website-health-check: each part's status (every part of the recorded answer)
  ...example('website-health-check')
    .checks.map((c: any) => c.id as string)
    .map((id: string): [string, string, (d: any) => void, string, string] => [
      'website-health-check',
      `the ${id} part becoming a warning`,
      (d) => (d.checks.find((c: any) => c.id === id).status = 'warning'),
      `parts[${id}]`,
      'warning',
    ]),
  // dnssec-chain: the status and the broken link
  ['dnssec-chain', 'the status', (d) => (d.status = 'secure'), 'status', 'info'],
  ['dnssec-chain', 'the broken link', (d) => (d.brokenLink.code = 'DS_DIGEST_MISMATCH'), 'brokenLink.code', 'info'],
  // whois: the registrar, the expiry date, the name servers
  ['whois', 'the registrar', (d) => (d.registrar = 'Other Registrar'), 'registrar', 'info'],
  ['whois', 'the expiry date', (d) => (d.expiryDate = '2030-01-01T00:00:00.000Z'), 'expiryDate', 'info'],
  ['whois', 'the name servers', (d) => d.nameServers.push('ns1.other.test'), 'nameServers', 'info'],
  // the DNS and mail checks: their record sets
  ['dns-lookup', 'an A record', (d) => d.records.A.push('192.0.2.11'), 'records.A', 'info'],
  ['dns-lookup', 'an MX record', (d) => (d.records.MX[1].priority = 30), 'records.MX', 'info'],
  ['dns-lookup', 'a TXT record', (d) => (d.records.TXT[0] = 'v=spf1 mx -all'), 'records.TXT', 'info'],
  ['dns-lookup', 'the NS set', (d) => d.records.NS.push('ns2.example.test'), 'records.NS', 'info'],
  ['dns-lookup', 'the name gone', (d) => (d.rcode = 'NXDOMAIN'), 'rcode', 'warning'],
  [
    'mx-lookup',
    'an MX host',
    (d) => (d.hosts[1].exchange = 'mx3.example.test'),
    'hosts[mx3.example.test].priority',
    'info',
  ],
  [
    'mx-lookup',
    "an MX host's address",
    (d) => d.hosts[0].addresses.push('192.0.2.31'),
    'hosts[aspmx.l.google.com].addresses',
    'info',
  ],
  ['dns-propagation', 'the expected set', (d) => (d.expected = ['20 mx.prop.test']), 'expected', 'info'],
  [
    'dns-propagation',
    "a resolver's answer",
    (d) => Object.assign(d.resolvers[2], { records: ['20 mx.prop.test'], matches: false }),
    'resolvers[Stale].matches',
    'warning',
  ],
  [
    'dns-blacklist-checker',
    'a new listing',
    (d) => Object.assign(d.results[1], { status: 'listed', codes: ['127.0.0.2'] }),
    'listings[spam.test]',
    'critical',
  ],
  [
    'dns-blacklist-checker',
    'a delisting',
    (d) => Object.assign(d.results[0], { status: 'clean', codes: [] }),
    'listings[bl.test]',
    'info',
  ],
  ['spf-checker', 'the SPF record', (d) => (d.record = 'v=spf1 -all'), 'record', 'info'],
  ['spf-checker', 'a permerror', (d) => (d.evaluation = 'permerror'), 'evaluation', 'critical'],
  ['dmarc-checker', 'the DMARC record', (d) => (d.record = 'v=DMARC1; p=none'), 'record', 'info'],
  ['dmarc-checker', 'a weaker policy', (d) => (d.policy = 'none'), 'policy', 'warning'],
  ['dkim-checker', 'the key record', (d) => (d.record = 'v=DKIM1; p=MIIB'), 'record', 'info'],
  ['mta-sts', 'the mode', (d) => (d.status = 'testing'), 'status', 'warning'],
  ['mta-sts', 'the policy id', (d) => (d.id = '20270101'), 'id', 'info'],
  ['tls-rpt', 'the report address', (d) => (d.rua = ['mailto:other@rpt.test']), 'rua', 'info'],
  ['bimi', 'the record', (d) => (d.record = 'v=BIMI1; l=https://logos.brand.test/new.svg'), 'record', 'info'],
  ['dane', 'a TLSA record', (d) => (d.tlsa[0].data = '00ff'), 'tlsa[3 1 1 00ff]', 'info'],
  ['dane', 'a mismatch', (d) => (d.status = 'mismatch'), 'status', 'critical'],
  ['smtp-starttls', 'STARTTLS no longer offered', (d) => (d.starttls = 'not-offered'), 'starttls', 'critical'],
  [
    'smtp-starttls',
    'the certificate',
    (d) => (d.tls.certificate.validTo = '2028-01-01T00:00:00.000Z'),
    'tls.certificate.validTo',
    'info',
  ],
  // ssl-checker and tls-configuration: the certificate and the protocols
  ['ssl-checker', 'the expiry date', (d) => (d.expiryDate = '2028-01-01T00:00:00.000Z'), 'expiryDate', 'info'],
  ['ssl-checker', 'the issuer', (d) => (d.issuer = 'Other CA'), 'issuer', 'info'],
  ['ssl-checker', 'an expired certificate', (d) => (d.status = 'expired'), 'status', 'critical'],
  [
    'tls-configuration',
    'the fingerprint',
    (d) => (d.families[0].certFingerprint = 'AB:CD'),
    'families[IPv4].certFingerprint',
    'info',
  ],
  [
    'tls-configuration',
    'the expiry date',
    (d) => (d.certificate.expiryDate = '2028-01-01T00:00:00.000Z'),
    'certificate.expiryDate',
    'info',
  ],
  [
    'tls-configuration',
    'TLS 1.1 offered',
    (d) => (d.protocols[2].result = 'supported'),
    'protocols[TLSv1.1]',
    'warning',
  ],
  [
    'tls-configuration',
    'an untrusted chain',
    (d) => (d.certificate.trusted = false),
    'certificate.trusted',
    'critical',
  ],
  // the other checks
  [
    'http-headers',
    'a header',
    (d) => (d.headers['x-frame-options'] = 'SAMEORIGIN'),
    'headers[x-frame-options]',
    'info',
  ],
  ['http-headers', 'an error status', (d) => (d.statusCode = 503), 'statusCode', 'warning'],
  ['open-graph-checker', 'the title', (d) => (d.title = 'Fish'), 'title', 'info'],
  ['ping', 'the host gone quiet', (d) => (d.status = 'Online'), 'status', 'info'],
  ['port-checker', 'the port closed', (d) => (d.status = 'closed'), 'status', 'warning'],
  ['ip-info', 'another AS', (d) => (d.asn = 'AS64500'), 'asn', 'info'],
  ['asn-lookup', 'another AS', (d) => (d.asn = 'AS64500'), 'asn', 'info'],
  ['abuse-contact-lookup', 'another address', (d) => (d.email = 'abuse@other.test'), 'email', 'info'],
  ['dnssec-test', 'bogus', (d) => (d.status = 'bogus'), 'status', 'critical'],
  // caa and security-txt: declared with their checks
  ['caa', 'another CA allowed', (d) => d.mayIssue.issuers.push('pki.goog'), 'mayIssue', 'info'],
  [
    'caa',
    'a critical finding',
    (d) => d.findings.push({ code: 'unknown-critical', severity: 'critical', message: 'x' }),
    'findings[unknown-critical]',
    'critical',
  ],
  ['security-txt', 'another first contact', (d) => d.contact.reverse(), 'contact', 'info'],
  ['security-txt', 'the file gone', (d) => (d.found = false), 'found', 'warning'],
  [
    'security-txt',
    'the file expired',
    (d) => d.findings.push({ code: 'expired', severity: 'critical', message: 'x' }),
    'findings[expired]',
    'critical',
  ],
];

describe('watched fields', () => {
  it.each(WATCHED)('%s: %s makes a change at its path', (tool, _what, mutate, path, severity) => {
    const changes = changesAfter(tool, mutate);
    expect(changes.map((c) => c.path)).toContain(path);
    expect(changes.find((c) => c.path === path)!.severity).toBe(severity);
  });

  it('a letter that improves is info, and C+ is above the critical line', () => {
    const drop = (letter: string) => changesAfter('http-rating', (d) => (d.grade = letter));
    // the example is graded F
    expect(drop('C')[0]!.severity).toBe('info');
    // the tls-rating example is graded A+
    const fromAPlus = (letter: string) =>
      changesAfter('tls-rating', (d) => (d.grade.letter = letter)).find((c) => c.path === 'grade.letter')!.severity;
    expect(fromAPlus('C+')).toBe('warning');
    expect(fromAPlus('C-')).toBe('critical');
    expect(fromAPlus('M')).toBe('critical');
    expect(fromAPlus('A')).toBe('warning');
  });

  it('a chain that becomes bogus is critical', () => {
    const secure = example('dnssec-chain');
    Object.assign(secure, { status: 'secure', brokenLink: null });
    for (const zone of secure.chain) zone.status = 'secure';
    const spec = WATCH_SPECS.get('dnssec-chain')!;
    const changes = diffProjections(
      projectionOf('dnssec-chain', secure),
      projectionOf('dnssec-chain', example('dnssec-chain')),
    );
    expect(changes.find((c) => c.path === 'status')).toMatchObject({ before: 'secure', after: 'bogus' });
    expect(changes.map((c) => severityOf(c, spec.rankedKeys))).toContain('critical');
    expect(changes.map((c) => c.path)).toEqual(['status', 'brokenLink.zone', 'brokenLink.code', 'zones[expired.lab]']);
  });

  it('an MX host added to mailhealth-check makes each of its watched values a change from nothing', () => {
    const changes = changesAfter('mailhealth-check', (d) => {
      const starttls = structuredClone(d.checks.find((c: any) => c.id === 'starttls'));
      Object.assign(starttls, { host: 'mx3.lab.test', status: 'critical' });
      starttls.details.starttls = 'not-offered';
      d.checks.push(starttls);
    });
    expect(changes.filter((c) => c.path.startsWith('mx[mx3.lab.test]'))).toEqual([
      { path: 'mx[mx3.lab.test].starttls', before: null, after: 'critical', severity: 'critical' },
      { path: 'mx[mx3.lab.test].starttlsOffered', before: null, after: 'not-offered', severity: 'critical' },
      ...['subject', 'issuer', 'validTo', 'status'].map((f) =>
        expect.objectContaining({ path: `mx[mx3.lab.test].certificate.${f}`, before: null }),
      ),
    ]);
  });
});

describe('what a run does not learn', () => {
  it('dns-blacklist-checker: a list that errors keeps its last answer, so an outage is no delisting', () => {
    const listed = projectionOf('dns-blacklist-checker', example('dns-blacklist-checker'));
    const outage = example('dns-blacklist-checker');
    Object.assign(outage.results[0], { status: 'error', codes: [], reason: 'time-out' });
    const during = projectionOf('dns-blacklist-checker', outage, listed);
    expect(diffProjections(listed, during)).toEqual([]);
    const cleared = example('dns-blacklist-checker');
    Object.assign(cleared.results[0], { status: 'clean', codes: [] });
    expect(diffProjections(during, projectionOf('dns-blacklist-checker', cleared, during)).map((c) => c.path)).toEqual([
      'listings[bl.test]',
    ]);
  });

  it('dns-lookup: a type whose question failed keeps its last set', () => {
    const first = projectionOf('dns-lookup', example('dns-lookup'));
    const failed = example('dns-lookup');
    failed.records.MX = [];
    failed.errors = [{ type: 'MX', code: 'UPSTREAM_TIMEOUT', message: 'time-out' }];
    expect(diffProjections(first, projectionOf('dns-lookup', failed, first))).toEqual([]);
  });

  it('dns-propagation: a resolver that did not answer keeps its last answer', () => {
    const first = projectionOf('dns-propagation', example('dns-propagation'));
    const quiet = example('dns-propagation');
    Object.assign(quiet.resolvers[0], { records: [], error: 'time-out', matches: false });
    expect(diffProjections(first, projectionOf('dns-propagation', quiet, first))).toEqual([]);
  });

  it('mailhealth-check: a part that errored changes its status only', () => {
    const first = projectionOf('mailhealth-check', example('mailhealth-check'));
    const errored = example('mailhealth-check');
    Object.assign(errored.checks[1], { status: 'error', details: null, error: 'time-out' });
    expect(diffProjections(first, projectionOf('mailhealth-check', errored, first))).toEqual([
      { path: 'parts[spf]', keys: ['parts', '[spf]'], before: 'ok', after: 'error' },
    ]);
  });

  it('tls-rating: a rating cut short keeps the suites and groups it did not finish', () => {
    const first = projectionOf('tls-rating', example('tls-rating'));
    const partial = example('tls-rating');
    partial.partial = true;
    partial.cipherSuites = partial.cipherSuites.slice(0, 1);
    partial.groups = [];
    expect(diffProjections(first, projectionOf('tls-rating', partial, first))).toEqual([]);
  });

  it("tls-rating: the answer's certificate carries its fingerprint, issuer and end, so a new certificate changes and its end is an expiry", () => {
    const data = example('tls-rating');
    const { certificate } = projectionOf('tls-rating', data) as { certificate: Record<string, unknown> };
    expect(certificate.fingerprint).toMatch(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/);
    expect(certificate.issuer).toEqual(expect.any(String));
    expect(certificate.expiryDate).toBe(data.certificate.expiryDate);
    expect(WATCH_SPECS.get('tls-rating')!.expiries!(data)).toEqual([
      {
        subject: 'certificate',
        kind: 'certificate',
        description: `the certificate of ${data.host}:${data.port}`,
        expiresAt: data.certificate.expiryDate,
      },
    ]);
    // the days remaining change every day: not watched
    const later = example('tls-rating');
    later.certificate.daysRemaining -= 1;
    expect(diffProjections(projectionOf('tls-rating', data), projectionOf('tls-rating', later))).toEqual([]);
  });
});
