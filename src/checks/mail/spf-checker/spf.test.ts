import { describe, expect, it } from 'vitest';
import { ProbeError } from '../../../probes/errors.js';
import { expandDomainSpec } from './macro.js';
import {
  domainSpecError,
  isSpfRecord,
  parseSpfRecord,
  parseTerm,
  spfIncludeTargets,
  type SpfMechanism,
} from './syntax.js';
import { checkSpf, type SpfLookups } from './walk.js';
import type { TxtAnswer } from '../shared/txt.js';

/** An in-memory zone: name → records (missing name = NXDOMAIN), or an error to throw. */
type Zone = Record<string, string[] | ProbeError>;

function lookupFrom(zone: Zone, asked: string[] = []) {
  return async (name: string): Promise<TxtAnswer> => {
    asked.push(name);
    const entry = zone[name];
    if (entry instanceof ProbeError) throw entry;
    return entry === undefined ? { rcode: 'NXDOMAIN', records: [] } : { rcode: 'NOERROR', records: entry };
  };
}

function dns(txt: Zone, extra: { a?: Zone; aaaa?: Zone; mx?: Zone } = {}, asked: string[] = []): SpfLookups {
  return {
    txt: lookupFrom(txt, asked),
    ...(extra.a ? { a: lookupFrom(extra.a, asked) } : {}),
    ...(extra.aaaa ? { aaaa: lookupFrom(extra.aaaa, asked) } : {}),
    ...(extra.mx ? { mx: lookupFrom(extra.mx, asked) } : {}),
  };
}

describe('isSpfRecord (RFC 7208 §4.5)', () => {
  it.each([
    ['v=spf1 -all', true],
    ['v=spf1', true],
    ['V=SPF1 ~all', true],
    ['v=spf10 -all', false],
    ['v=spf1-all', false],
    [' v=spf1 -all', false],
    ['spf1 -all', false],
    ['google-site-verification=abc', false],
  ])('%j → %s', (txt, expected) => {
    expect(isSpfRecord(txt)).toBe(expected);
  });
});

describe('parseTerm', () => {
  it.each([
    ['-all', { name: 'all', qualifier: '-' }],
    ['all', { name: 'all', qualifier: '+' }],
    ['~ALL', { name: 'all', qualifier: '~' }],
    ['include:_spf.google.com', { name: 'include', domainSpec: '_spf.google.com' }],
    ['?include:example.org.', { name: 'include', qualifier: '?', domainSpec: 'example.org.' }],
    ['a', { name: 'a', domainSpec: null, ip4Prefix: null, ip6Prefix: null }],
    ['a/24', { name: 'a', domainSpec: null, ip4Prefix: 24 }],
    ['a//64', { name: 'a', ip4Prefix: null, ip6Prefix: 64 }],
    ['a:mail.example.com/24//48', { name: 'a', domainSpec: 'mail.example.com', ip4Prefix: 24, ip6Prefix: 48 }],
    ['mx', { name: 'mx', domainSpec: null }],
    ['mx:example.com/30', { name: 'mx', domainSpec: 'example.com', ip4Prefix: 30 }],
    ['ptr', { name: 'ptr', domainSpec: null }],
    ['ptr:example.com', { name: 'ptr', domainSpec: 'example.com' }],
    ['ip4:192.0.2.0/24', { name: 'ip4', network: '192.0.2.0', ip4Prefix: 24 }],
    ['ip4:192.0.2.1', { name: 'ip4', network: '192.0.2.1', ip4Prefix: null }],
    ['ip6:2001:db8::/32', { name: 'ip6', network: '2001:db8::', ip6Prefix: 32 }],
    ['ip6:::1', { name: 'ip6', network: '::1' }],
    ['exists:%{i}._spf.%{d}', { name: 'exists', domainSpec: '%{i}._spf.%{d}' }],
    ['a:%{l/}.example.com', { name: 'a', domainSpec: '%{l/}.example.com' }],
  ])('%s', (text, expected) => {
    const term = parseTerm(text);
    expect(term.kind).toBe('mechanism');
    expect(term).toMatchObject({ text, ...expected });
  });

  it.each([
    ['redirect=_spf.example.com', 'redirect', '_spf.example.com'],
    ['exp=explain.%{d}', 'exp', 'explain.%{d}'],
    ['REDIRECT=example.com', 'redirect', 'example.com'],
    ['foo.bar=anything-at_all', 'foo.bar', 'anything-at_all'],
  ])('modifier %s', (text, name, value) => {
    expect(parseTerm(text)).toEqual({ kind: 'modifier', text, name, value });
  });

  it.each([
    ['all:foo', 'takes no argument'],
    ['include', 'needs ":domain"'],
    ['include:', 'empty domain-spec'],
    ['include:com', 'top-level label'],
    ['include:example.123', 'top-level label'],
    ['include:a..example.com', 'empty label'],
    [`include:${'a'.repeat(64)}.example.com`, 'longer than 63'],
    [`include:${'abcdefghi.'.repeat(26)}com`, 'longer than 253'],
    ['include:exa mple.com', 'not allowed'], // cannot occur after splitting on spaces; guards the scanner anyway
    ['include:bücher.example', 'not allowed'],
    ['ip4:192.0.2.0/33', 'prefix length'],
    ['ip4:192.0.2.0/024', 'prefix length'],
    ['ip4:192.0.2', 'not an IPv4 address'],
    ['ip4:192.0.2.256', 'not an IPv4 address'],
    ['ip4:192.0.02.1', 'not an IPv4 address'],
    ['ip4', 'needs ":address"'],
    ['ip6:2001:db8::/129', 'prefix length'],
    ['ip6:192.0.2.1', 'not an IPv6 address'],
    ['a/33', 'prefix length'],
    ['a//129', 'prefix length'],
    ['a:', 'empty domain-spec'],
    ['mx:/24', 'empty domain-spec'],
    ['a/abc', 'other than'],
    ['mx:example.com/abc', 'top-level label'],
    ['foo:bar', 'unknown mechanism'],
    ['-redirect=example.com', 'unknown mechanism'],
    ['include:%{x}.example.com', 'not allowed here'],
    ['include:%{c}.example.com', 'not allowed here'],
    ['include:%{d0}.example.com', 'must not be zero'],
    ['include:%{d.example.com', 'invalid macro'],
    ['include:50%.example.com', 'invalid macro'],
    ['redirect=', 'empty domain-spec'],
    ['unknown=%z', 'invalid macro'],
    ['=', 'neither'],
  ])('invalid %j (%s)', (text, reason) => {
    const term = parseTerm(text);
    expect(term.kind).toBe('invalid');
    if (term.kind === 'invalid') expect(term.error).toContain(reason);
  });
});

describe('domain-spec macros (RFC 7208 §7)', () => {
  it.each([
    ['%{d}', 'example.com', 'example.com'],
    ['_spf.%{d}', 'Example.COM', '_spf.example.com'],
    ['%{d2}', 'a.b.example.com', 'example.com'],
    ['%{dr}.rev.example.net', 'a.b.example.com', 'com.example.b.a.rev.example.net'],
    ['%{d1r}.x.example.net', 'a.b.example.com', 'a.x.example.net'],
    ['%{d-}.example.net', 'my-host.example.com', 'my.host.example.com.example.net'],
    ['%%.example.com', 'x.test', '%.example.com'],
    ['example.com.', 'x.test', 'example.com'],
  ])('%s for %s → %s', (spec, domain, expected) => {
    expect(domainSpecError(spec)).toBeNull();
    expect(expandDomainSpec(spec, domain)).toEqual({ domain: expected });
  });

  it('reports sender-dependent letters instead of expanding them', () => {
    expect(expandDomainSpec('%{i}._spf.%{d}', 'example.com')).toEqual({ senderMacros: ['i'] });
    expect(expandDomainSpec('%{l}.%{o}.%{ir}.example.com', 'example.com')).toEqual({ senderMacros: ['l', 'o', 'i'] });
  });

  it('truncates an expansion longer than 253 characters from the left (§7.3)', () => {
    const long = `${'label.'.repeat(40)}example.com`; // 251 characters
    const result = expandDomainSpec('%{d}.suffix.example', long);
    expect('domain' in result && result.domain.length).toBeLessThanOrEqual(253);
    expect('domain' in result && result.domain.endsWith('example.com.suffix.example')).toBe(true);
  });
});

describe('parseSpfRecord', () => {
  it('keeps terms in order and ignores extra spaces', () => {
    const parsed = parseSpfRecord('v=spf1  ip4:192.0.2.0/24   include:_spf.example.com ~all ');
    expect(parsed.terms.map((t) => t.text)).toEqual(['ip4:192.0.2.0/24', 'include:_spf.example.com', '~all']);
    expect(parsed.errors).toEqual([]);
    expect(parsed.warnings).toEqual([]);
    expect(parsed.endsNeutral).toBe(false);
  });

  it.each([
    ['v=spf1 +all', 'every host'],
    ['v=spf1 all', 'every host'],
    ['v=spf1 ptr -all', 'ptr mechanism'],
    ['v=spf1 -all a', 'never evaluated'],
    ['v=spf1 a -all redirect=example.net', 'redirect= is ignored'],
    ['v=spf1 a -all foo=bar', 'unknown modifier "foo"'],
  ])('warns about %j', (record, warning) => {
    const parsed = parseSpfRecord(record);
    expect(parsed.errors).toEqual([]);
    expect(parsed.warnings.join('\n')).toContain(warning);
  });

  it.each([
    ['v=spf1 redirect=a.example redirect=b.example', 'redirect= appears 2 times'],
    ['v=spf1 exp=a.example exp=b.example -all', 'exp= appears 2 times'],
    ['v=spf1 ip4:1.2.3.4.5 -all', 'not an IPv4 address'],
    ['v=spf1 include:example.com\t-all', 'not allowed'],
  ])('errors on %j', (record, error) => {
    expect(parseSpfRecord(record).errors.join('\n')).toContain(error);
  });

  it('says when nothing decides the result for unlisted hosts', () => {
    expect(parseSpfRecord('v=spf1 a mx').endsNeutral).toBe(true);
    expect(parseSpfRecord('v=spf1 a redirect=x.example').endsNeutral).toBe(false);
  });

  it('scans hostile 64 KiB terms without super-linear blow-up', () => {
    // Each input would take seconds to minutes with a backtracking or re-slicing scanner.
    const hostile = [
      `v=spf1 include:${'%{d}'.repeat(13_000)}.example.com`,
      `v=spf1 include:a.${'1'.repeat(65_000)}`,
      `v=spf1 include:a.${'1-'.repeat(32_000)}`,
      `v=spf1 a:${'/1'.repeat(32_000)}x`,
      `v=spf1 ${'%'.repeat(65_000)}`,
    ];
    const started = performance.now();
    for (const record of hostile)
      expect(parseSpfRecord(record).errors.length + parseSpfRecord(record).terms.length).toBeGreaterThan(0);
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('parses a huge record (5001 terms) without throwing', () => {
    const record = `v=spf1 ${'ip4:192.0.2.1 '.repeat(5000)}-all`;
    const parsed = parseSpfRecord(record);
    expect(parsed.terms).toHaveLength(5001);
    expect(parsed.errors).toEqual([]);
  });
});

describe('spfIncludeTargets', () => {
  it('lists include and redirect targets written as plain names', () => {
    const { terms } = parseSpfRecord('v=spf1 include:_spf.Google.com. include:%{i}.x.example redirect=spf.example.net');
    expect(spfIncludeTargets(terms)).toEqual(['_spf.google.com', 'spf.example.net']);
  });
});

describe('checkSpf', () => {
  it('reports no record as found:false (a finding, not an error)', async () => {
    const result = await checkSpf('example.com', dns({ 'example.com': ['some other text'] }));
    expect(result).toMatchObject({
      domain: 'example.com',
      found: false,
      record: '',
      mechanisms: [],
      multiple: false,
      evaluation: 'none',
    });
    const nx = await checkSpf('nx.example', dns({}));
    expect(nx.found).toBe(false);
  });

  it('throws the ProbeError of the first question (the check could not run)', async () => {
    const failure = new ProbeError('SERVFAIL', '127.0.0.1:53', 'SERVFAIL for TXT example.com');
    await expect(checkSpf('example.com', dns({ 'example.com': failure }))).rejects.toBe(failure);
  });

  it('gives the api fields for a simple record', async () => {
    const result = await checkSpf('example.com', dns({ 'example.com': ['v=spf1 ip4:192.0.2.0/24 -all', 'other'] }));
    expect(result).toMatchObject({
      found: true,
      record: 'v=spf1 ip4:192.0.2.0/24 -all',
      mechanisms: ['ip4:192.0.2.0/24', '-all'],
      multiple: false,
      recordCount: 1,
      lookupCount: 0,
      voidLookupCount: 0,
      evaluation: 'ok',
      errors: [],
    });
    expect(result.terms[0]).toMatchObject({ kind: 'mechanism', name: 'ip4', network: '192.0.2.0', ip4Prefix: 24 });
  });

  it('flags multiple records as a permerror and still analyses the first', async () => {
    const result = await checkSpf('example.com', dns({ 'example.com': ['v=spf1 a -all', 'v=spf1 mx -all'] }));
    expect(result.multiple).toBe(true);
    expect(result.recordCount).toBe(2);
    expect(result.record).toBe('v=spf1 a -all');
    expect(result.evaluation).toBe('permerror');
    expect(result.errors[0]).toContain('2 SPF records');
    expect(result.lookupCount).toBe(1);
  });

  it('walks the include tree and counts every DNS-querying term', async () => {
    const asked: string[] = [];
    const zone: Zone = {
      'example.com': ['v=spf1 include:_spf.example.com mx a:mail.example.com ip4:192.0.2.1 -all'],
      '_spf.example.com': ['v=spf1 include:_spf.provider.example ip6:2001:db8::/32 ~all'],
      '_spf.provider.example': ['v=spf1 exists:%{i}.rbl.provider.example ptr ?all'],
    };
    const result = await checkSpf(
      'example.com',
      dns(zone, { mx: { 'example.com': ['mx1.example.com'] }, a: { 'mail.example.com': ['192.0.2.2'] } }, asked),
    );
    // include, mx, a (root) + include (_spf) + exists, ptr (provider) = 6
    expect(result.lookupCount).toBe(6);
    expect(result.voidLookupCount).toBe(0);
    expect(result.evaluation).toBe('ok');
    const tree = result.lookupTree;
    expect(tree).toMatchObject({ domain: 'example.com', via: 'root', status: 'ok', lookups: 3 });
    expect(tree?.children[0]).toMatchObject({ domain: '_spf.example.com', via: 'include', lookups: 1 });
    expect(tree?.children[0]?.children[0]).toMatchObject({ domain: '_spf.provider.example', lookups: 2 });
    expect(result.notEvaluated.join('\n')).toContain('%{i}');
    expect(result.notEvaluated.join('\n')).toContain('ptr not evaluated');
    // the root's TXT first, then its terms together (siblings are asked concurrently), then the next level
    expect(asked).toEqual([
      'example.com',
      '_spf.example.com',
      'example.com',
      'mail.example.com',
      '_spf.provider.example',
    ]);
  });

  it('reports 11 lookups as a permerror but keeps the parsed data', async () => {
    const zone: Zone = {
      'example.com': [`v=spf1 ${Array.from({ length: 11 }, (_, i) => `include:s${i}.example.net`).join(' ')} -all`],
    };
    for (let i = 0; i < 11; i += 1) zone[`s${i}.example.net`] = ['v=spf1 ip4:192.0.2.1 -all'];
    const result = await checkSpf('example.com', dns(zone));
    expect(result.lookupCount).toBe(11);
    expect(result.evaluation).toBe('permerror');
    expect(result.errors.join('\n')).toContain('11 DNS-querying terms');
    expect(result.mechanisms).toHaveLength(12);
    expect(result.lookupTree?.children).toHaveLength(11);
    expect(result.truncated).toBe(false);
  });

  it('accepts exactly 10 lookups', async () => {
    const result = await checkSpf('example.com', dns({ 'example.com': [`v=spf1 ${'a '.repeat(10)}-all`] }));
    expect(result.lookupCount).toBe(10);
    expect(result.errors).toEqual([]);
  });

  it('counts nested lookups across the tree, a domain included twice counting twice', async () => {
    const zone: Zone = {
      'example.com': ['v=spf1 include:a.example include:b.example -all'],
      'a.example': ['v=spf1 include:shared.example -all'],
      'b.example': ['v=spf1 include:shared.example -all'],
      'shared.example': ['v=spf1 a mx ptr exists:x.example ~all'],
    };
    const result = await checkSpf('example.com', dns(zone));
    expect(result.lookupCount).toBe(2 + 1 + 1 + 4 + 4);
    expect(result.errors.join('\n')).toContain('12 DNS-querying terms');
    expect(result.errors.join('\n')).not.toContain('loop');
  });

  it('counts void lookups and errors past two (§4.6.4)', async () => {
    const zone: Zone = {
      'example.com': ['v=spf1 a:gone1.example a:gone2.example mx:gone3.example exists:gone4.example -all'],
    };
    const result = await checkSpf('example.com', dns(zone, { a: {}, aaaa: {}, mx: { 'gone3.example': [] } }));
    expect(result.voidLookupCount).toBe(4);
    expect(result.evaluation).toBe('permerror');
    expect(result.errors.join('\n')).toContain('4 void lookups exceed the limit of 2');
    expect(result.lookupTree?.voidLookups).toBe(4);
  });

  it('does not count an a mechanism as void when only AAAA exists', async () => {
    const zone: Zone = { 'example.com': ['v=spf1 a:v6.example -all'] };
    const result = await checkSpf('example.com', dns(zone, { a: {}, aaaa: { 'v6.example': ['2001:db8::1'] } }));
    expect(result.voidLookupCount).toBe(0);
  });

  it('counts an include of a name without TXT as void and as a permerror', async () => {
    const result = await checkSpf('example.com', dns({ 'example.com': ['v=spf1 include:missing.example -all'] }));
    expect(result.voidLookupCount).toBe(1);
    expect(result.errors.join('\n')).toContain('include:missing.example has no SPF record');
    expect(result.lookupTree?.children[0]?.status).toBe('no-record');
  });

  it('treats an include with TXT but no SPF record as a permerror without a void lookup', async () => {
    const result = await checkSpf(
      'example.com',
      dns({ 'example.com': ['v=spf1 include:x.example -all'], 'x.example': ['hello'] }),
    );
    expect(result.voidLookupCount).toBe(0);
    expect(result.evaluation).toBe('permerror');
  });

  it('detects an include loop and stops', async () => {
    const asked: string[] = [];
    const zone: Zone = {
      'example.com': ['v=spf1 include:a.example -all'],
      'a.example': ['v=spf1 include:b.example -all'],
      'b.example': ['v=spf1 include:example.com -all'],
    };
    const result = await checkSpf('example.com', dns(zone, {}, asked));
    expect(result.errors.join('\n')).toContain('include loop: example.com → a.example → b.example → example.com');
    expect(asked).toEqual(['example.com', 'a.example', 'b.example']);
    expect(result.lookupTree?.children[0]?.children[0]?.children[0]?.status).toBe('loop');
  });

  it('detects a redirect to itself', async () => {
    const result = await checkSpf('example.com', dns({ 'example.com': ['v=spf1 redirect=%{d}'] }));
    expect(result.errors.join('\n')).toContain('redirect loop');
  });

  it('follows redirect= and counts it, but ignores it beside "all"', async () => {
    const zone: Zone = {
      'example.com': ['v=spf1 mx redirect=_spf.example.net'],
      '_spf.example.net': ['v=spf1 ip4:192.0.2.0/24 -all'],
      'other.example': ['v=spf1 -all redirect=_spf.example.net'],
    };
    const followed = await checkSpf('example.com', dns(zone));
    expect(followed.lookupCount).toBe(2);
    expect(followed.lookupTree?.children[0]).toMatchObject({
      via: 'redirect',
      domain: '_spf.example.net',
      status: 'ok',
    });
    const ignored = await checkSpf('other.example', dns(zone));
    expect(ignored.lookupCount).toBe(0);
    expect(ignored.lookupTree?.children).toEqual([]);
  });

  it('reports a redirect to a domain without SPF as a permerror', async () => {
    const result = await checkSpf('example.com', dns({ 'example.com': ['v=spf1 redirect=none.example'] }));
    expect(result.errors.join('\n')).toContain('redirect:none.example has no SPF record');
  });

  it('reports an include failing with SERVFAIL or time-out as a temperror and goes on', async () => {
    const zone: Zone = {
      'example.com': ['v=spf1 include:broken.example include:slow.example include:fine.example -all'],
      'broken.example': new ProbeError('SERVFAIL', '127.0.0.1:53', 'SERVFAIL for TXT broken.example'),
      'slow.example': new ProbeError('TIMEOUT', '127.0.0.1:53', 'no answer for TXT slow.example within 2000 ms'),
      'fine.example': ['v=spf1 -all'],
    };
    const result = await checkSpf('example.com', dns(zone));
    expect(result.evaluation).toBe('temperror');
    expect(result.temporaryErrors).toHaveLength(2);
    expect(result.lookupTree?.children.map((c) => c.status)).toEqual(['temperror', 'temperror', 'ok']);
  });

  it('stops the walk when the request is aborted', async () => {
    const aborted = new ProbeError('ABORTED', '127.0.0.1:53', 'aborted');
    const zone: Zone = { 'example.com': ['v=spf1 include:x.example -all'], 'x.example': aborted };
    await expect(checkSpf('example.com', dns(zone))).rejects.toBe(aborted);
  });

  it('flags an mx mechanism with more than 10 MX hosts', async () => {
    const exchanges = Array.from({ length: 11 }, (_, i) => `mx${i}.example.com`);
    const result = await checkSpf(
      'example.com',
      dns({ 'example.com': ['v=spf1 mx -all'] }, { mx: { 'example.com': exchanges } }),
    );
    expect(result.errors.join('\n')).toContain('11 MX hosts');
    const ten = await checkSpf(
      'example.com',
      dns({ 'example.com': ['v=spf1 mx -all'] }, { mx: { 'example.com': exchanges.slice(0, 10) } }),
    );
    expect(ten.errors).toEqual([]);
  });

  it('reports syntax errors of included records with their domain', async () => {
    const zone: Zone = {
      'example.com': ['v=spf1 include:bad.example -all'],
      'bad.example': ['v=spf1 ip4:300.1.1.1 -all'],
    };
    const result = await checkSpf('example.com', dns(zone));
    expect(result.errors.join('\n')).toContain('bad.example: "ip4:300.1.1.1"');
    expect(result.lookupTree?.children[0]?.status).toBe('invalid');
  });

  it('bounds the work a hostile tree can cause', async () => {
    // Every record includes 20 more names: unbounded without a budget.
    const asked: string[] = [];
    const txt = async (name: string): Promise<TxtAnswer> => {
      asked.push(name);
      const children = Array.from({ length: 20 }, (_, i) => `include:c${i}.${name}`).join(' ');
      return { rcode: 'NOERROR', records: [`v=spf1 ${children} -all`] };
    };
    const result = await checkSpf('example.com', { txt }, { maxQueries: 30 });
    expect(asked).toHaveLength(30);
    expect(result.truncated).toBe(true);
    expect(result.errors.join('\n')).toContain('at least');
    expect(result.lookupCount).toBeGreaterThan(10);
    expect(result.notEvaluated.length).toBeLessThanOrEqual(101);
  });

  it('bounds the nesting depth', async () => {
    const asked: string[] = [];
    const txt = async (name: string): Promise<TxtAnswer> => {
      asked.push(name);
      return { rcode: 'NOERROR', records: [`v=spf1 include:x.${name} -all`] };
    };
    const result = await checkSpf('example.com', { txt }, { maxDepth: 3, maxQueries: 100 });
    expect(asked).toHaveLength(4);
    expect(result.truncated).toBe(true);
    expect(result.notEvaluated.join('\n')).toContain('nesting deeper than 3');
  });

  it('handles a huge record with thousands of includes within the budget', async () => {
    const asked: string[] = [];
    const includes = Array.from({ length: 4000 }, (_, i) => `include:n${i}.example`).join(' ');
    const txt = async (name: string): Promise<TxtAnswer> => {
      asked.push(name);
      return name === 'example.com'
        ? { rcode: 'NOERROR', records: [`v=spf1 ${includes} -all`] }
        : { rcode: 'NOERROR', records: ['v=spf1 -all'] };
    };
    const result = await checkSpf('example.com', { txt });
    expect(asked).toHaveLength(30);
    expect(result.lookupCount).toBe(4000);
    expect(result.mechanisms).toHaveLength(4001);
    expect(result.notEvaluated).toHaveLength(101);
    expect(result.lookupTree?.notes.length).toBeLessThanOrEqual(100);
  });

  it('expands %{d} in an include target and follows it', async () => {
    const zone: Zone = {
      'example.com': ['v=spf1 include:_spf.%{d} -all'],
      '_spf.example.com': ['v=spf1 ip4:192.0.2.9 -all'],
    };
    const result = await checkSpf('example.com', dns(zone));
    expect(result.lookupTree?.children[0]).toMatchObject({ domain: '_spf.example.com', status: 'ok' });
  });

  it('truncates a huge %{d} expansion to 253 characters before asking (§7.3)', async () => {
    const asked: string[] = [];
    const record = `v=spf1 include:${'%{d}'.repeat(13_000)}.example.net -all`;
    const started = performance.now();
    const result = await checkSpf('example.com', dns({ 'example.com': [record] }, {}, asked));
    expect(performance.now() - started).toBeLessThan(2000);
    expect(asked).toHaveLength(2);
    expect(asked[1]?.length).toBeLessThanOrEqual(253);
    expect(asked[1]?.endsWith('example.comexample.com.example.net')).toBe(true);
    expect(result.lookupCount).toBe(1);
  });

  it('does not ask for an expansion that breaks DNS name rules', async () => {
    const asked: string[] = [];
    const record = `v=spf1 include:${'%{d1}'.repeat(7)}.example.net -all`;
    const result = await checkSpf('example.abcdefghij', dns({ 'example.abcdefghij': [record] }, {}, asked));
    expect(asked).toEqual(['example.abcdefghij']);
    expect(result.errors.join('\n')).toContain('expands to an invalid name');
  });

  it('does not ask for a literal name with a backslash (valid SPF, not a DNS name)', async () => {
    const asked: string[] = [];
    const result = await checkSpf(
      'example.com',
      dns({ 'example.com': ['v=spf1 include:a\\b.example.net -all'] }, {}, asked),
    );
    expect(asked).toEqual(['example.com']);
    expect(result.errors.join('\n')).toContain('backslash');
  });

  it('warns about a record without all only where it decides the result', async () => {
    const zone: Zone = { 'example.com': ['v=spf1 include:p.example -all'], 'p.example': ['v=spf1 ip4:192.0.2.1'] };
    const included = await checkSpf('example.com', dns(zone));
    expect(included.warnings.join('\n')).not.toContain('neutral');
    const root = await checkSpf('p.example', dns(zone));
    expect(root.warnings.join('\n')).toContain('neutral');
  });

  it('warns about +all inside an include, which passes everyone', async () => {
    const zone: Zone = { 'example.com': ['v=spf1 include:open.example -all'], 'open.example': ['v=spf1 +all'] };
    const result = await checkSpf('example.com', dns(zone));
    expect(result.warnings.join('\n')).toContain('open.example: "+all" lets every host');
  });

  it('leaves a/mx/exists unresolved when no lookup for them is given', async () => {
    const asked: string[] = [];
    const result = await checkSpf(
      'example.com',
      dns({ 'example.com': ['v=spf1 a mx exists:x.example -all'] }, {}, asked),
    );
    expect(asked).toEqual(['example.com']);
    expect(result.lookupCount).toBe(3);
    expect(result.voidLookupCount).toBe(0);
  });

  it('types mechanism fields', () => {
    const term = parseTerm('~ip6:2001:db8::/48') as SpfMechanism;
    expect(term).toEqual({
      kind: 'mechanism',
      text: '~ip6:2001:db8::/48',
      qualifier: '~',
      name: 'ip6',
      domainSpec: null,
      network: '2001:db8::',
      ip4Prefix: null,
      ip6Prefix: 48,
    });
  });
});
