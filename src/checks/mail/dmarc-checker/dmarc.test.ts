import { describe, expect, it } from 'vitest';
import { ProbeError } from '../../../probes/errors.js';
import { checkDmarc, isDmarcRecord, organizationalDomain, parseDmarcRecord } from './dmarc.js';
import type { TxtAnswer } from '../shared/txt.js';

type Zone = Record<string, string[] | ProbeError>;

function lookup(zone: Zone, asked: string[] = []) {
  return async (name: string): Promise<TxtAnswer> => {
    asked.push(name);
    const entry = zone[name];
    if (entry instanceof ProbeError) throw entry;
    return entry === undefined ? { rcode: 'NXDOMAIN', records: [] } : { rcode: 'NOERROR', records: entry };
  };
}

describe('isDmarcRecord (RFC 7489 §6.4)', () => {
  it.each([
    ['v=DMARC1; p=none', true],
    ['v=DMARC1', true],
    ['V = DMARC1 ;p=reject', true],
    ['v=DMARC1;p=reject', true],
    ['v=dmarc1; p=none', false], // the version value is case-sensitive
    ['v=DMARC10; p=none', false],
    ['p=none; v=DMARC1', false],
    [' v=DMARC1; p=none', false],
    ['v=spf1 -all', false],
  ])('%j → %s', (txt, expected) => {
    expect(isDmarcRecord(txt)).toBe(expected);
  });
});

describe('parseDmarcRecord', () => {
  it('parses a complete record into tags', () => {
    const a = parseDmarcRecord(
      'v=DMARC1; p=reject; sp=quarantine; pct=50; adkim=s; aspf=r; fo=0:1:d:s; rf=afrf; ri=3600; rua=mailto:agg@example.com,mailto:x@thirdparty.example!10m; ruf=mailto:forensic@example.com',
    );
    expect(a.errors).toEqual([]);
    expect(a.valid).toBe(true);
    expect(a.appliesAsNone).toBe(false);
    expect(a.policy).toBe('reject');
    expect(a.subdomainPolicy).toBe('quarantine');
    expect(a.percentage).toBe(50);
    expect(a.aggregateReportUris).toEqual(['mailto:agg@example.com', 'mailto:x@thirdparty.example']);
    expect(a.failureReportUris).toEqual(['mailto:forensic@example.com']);
    expect(a.tags).toEqual({
      v: 'DMARC1',
      p: 'reject',
      sp: 'quarantine',
      pct: '50',
      adkim: 's',
      aspf: 'r',
      fo: '0:1:d:s',
      rf: 'afrf',
      ri: '3600',
      rua: 'mailto:agg@example.com,mailto:x@thirdparty.example!10m',
      ruf: 'mailto:forensic@example.com',
    });
    expect(a.warnings.join('\n')).toContain('pct=50');
  });

  it('accepts white space around tags and values and a trailing separator', () => {
    const a = parseDmarcRecord('v = DMARC1 ;  p = Quarantine ;\trua = mailto:d@example.com ; ');
    expect(a.errors).toEqual([]);
    expect(a.policy).toBe('quarantine');
    expect(a.tags).toEqual({ v: 'DMARC1', p: 'Quarantine', rua: 'mailto:d@example.com' });
  });

  it('folds tag names to lower case and keeps unknown tags with a warning', () => {
    const a = parseDmarcRecord('v=DMARC1; P=none; np=reject; rua=mailto:a@example.com');
    expect(a.tags).toEqual({ v: 'DMARC1', p: 'none', np: 'reject', rua: 'mailto:a@example.com' });
    expect(a.valid).toBe(true);
    expect(a.warnings.join('\n')).toContain('unknown tags are ignored: np');
    expect(a.warnings.join('\n')).toContain('p=none only monitors');
  });

  it.each([
    ['v=DMARC1', 'p= tag is missing'],
    ['v=DMARC1; p=block', 'p=block is not one of'],
    ['v=DMARC1; p=none; sp=maybe', 'sp=maybe'],
    ['v=DMARC1; p=none; pct=101', 'pct=101'],
    ['v=DMARC1; p=none; pct=-1', 'pct=-1'],
    ['v=DMARC1; p=none; pct=5.5', 'pct=5.5'],
    ['v=DMARC1; p=none; adkim=x', 'adkim=x'],
    ['v=DMARC1; p=none; aspf=relaxed', 'aspf=relaxed'],
    ['v=DMARC1; p=none; fo=2', 'fo=2'],
    ['v=DMARC1; p=none; fo=', 'fo='],
    ['v=DMARC1; p=none; ri=soon', 'ri=soon'],
    ['v=DMARC1; p=none; ri=4294967296', 'ri=4294967296'],
    ['v=DMARC1; p=none; rua=dmarc@example.com', 'not a URI'],
    ['v=DMARC1; p=none; rua=mailto:nobody', 'not a mailto: address'],
    ['v=DMARC1; p=none; rua=', 'rua= is empty'],
    ['v=DMARC1; p=none; rf=', 'rf= is empty'],
    ['v=DMARC1; p=none; p=reject', 'appears more than once'],
    ['v=DMARC1; p=none; this is garbage', 'not a tag=value pair'],
    ['v=DMARC1; p=none; 1x=2', 'not a valid tag name'],
    ['p=none; v=DMARC1', 'must start with v=DMARC1'],
    ['v=DMARC2; p=none', 'must start with v=DMARC1'],
  ])('%j → error %s', (record, error) => {
    const a = parseDmarcRecord(record);
    expect(a.errors.join('\n')).toContain(error);
  });

  it('makes a record with duplicate tags invalid', () => {
    expect(parseDmarcRecord('v=DMARC1; p=none; p=reject').valid).toBe(false);
  });

  it('applies a record without a valid p= as p=none when it has a valid rua= (§6.6.3 step 6)', () => {
    const rescued = parseDmarcRecord('v=DMARC1; p=bogus; rua=mailto:a@example.com');
    expect(rescued.valid).toBe(true);
    expect(rescued.appliesAsNone).toBe(true);
    const lost = parseDmarcRecord('v=DMARC1; p=bogus');
    expect(lost.valid).toBe(false);
    expect(parseDmarcRecord('v=DMARC1; p=reject; sp=bogus').valid).toBe(false);
  });

  it('warns about non-mailto report URIs and unknown report formats', () => {
    const a = parseDmarcRecord('v=DMARC1; p=reject; rua=https://reports.example.com/dmarc; rf=iodef');
    expect(a.errors).toEqual([]);
    expect(a.aggregateReportUris).toEqual(['https://reports.example.com/dmarc']);
    expect(a.warnings.join('\n')).toContain('not mailto:');
    expect(a.warnings.join('\n')).toContain('iodef');
  });

  it('checks hostile report URIs in linear time', () => {
    const started = performance.now();
    const a = parseDmarcRecord(`v=DMARC1; p=none; rua=mailto:a@${'.'.repeat(60_000)}@, mailto:${'!1'.repeat(30_000)}`);
    expect(a.errors).toHaveLength(2);
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('survives garbage without throwing', () => {
    for (const garbage of [
      '',
      ';;;;',
      '=',
      '==;==',
      'v=DMARC1;'.repeat(1000),
      '\u0000\u0001',
      'v=DMARC1; p=\u00e9',
      'v=DMARC1; constructor=1; __proto__=x',
    ]) {
      const a = parseDmarcRecord(garbage);
      expect(Array.isArray(a.errors)).toBe(true);
    }
    expect(parseDmarcRecord('v=DMARC1; p=\u00e9').errors.join('\n')).toContain('characters');
    expect(Object.getPrototypeOf(parseDmarcRecord('v=DMARC1; constructor=1; p=none').tags)).toBe(Object.prototype);
  });
});

describe('organizationalDomain (RFC 7489 §3.2, Public Suffix List)', () => {
  it.each([
    ['mail.example.com', 'example.com'],
    ['example.com', 'example.com'],
    ['a.b.example.co.uk', 'example.co.uk'],
    ['Example.COM.', 'example.com'],
    ['site.github.io', 'site.github.io'],
    ['co.uk', null],
  ])('%s → %s', (domain, org) => {
    expect(organizationalDomain(domain)).toBe(org);
  });
});

describe('checkDmarc', () => {
  it('finds the record at _dmarc.<domain>', async () => {
    const asked: string[] = [];
    const result = await checkDmarc(
      'example.com',
      lookup({ '_dmarc.example.com': ['v=DMARC1; p=reject; rua=mailto:d@example.com'] }, asked),
    );
    expect(result).toMatchObject({
      domain: 'example.com',
      found: true,
      record: 'v=DMARC1; p=reject; rua=mailto:d@example.com',
      tags: { v: 'DMARC1', p: 'reject', rua: 'mailto:d@example.com' },
      inherited: false,
      orgDomain: 'example.com',
      queriedName: '_dmarc.example.com',
      policy: 'reject',
      effectivePolicy: 'reject',
      valid: true,
      multiple: false,
    });
    expect(asked).toEqual(['_dmarc.example.com']);
  });

  it('falls back to the organisational domain and applies sp=', async () => {
    const asked: string[] = [];
    const zone: Zone = { '_dmarc.example.co.uk': ['v=DMARC1; p=reject; sp=quarantine'] };
    const result = await checkDmarc('mail.shop.example.co.uk', lookup(zone, asked));
    expect(asked).toEqual(['_dmarc.mail.shop.example.co.uk', '_dmarc.example.co.uk']);
    expect(result).toMatchObject({
      found: true,
      inherited: true,
      orgDomain: 'example.co.uk',
      queriedName: '_dmarc.example.co.uk',
      policy: 'reject',
      effectivePolicy: 'quarantine',
    });
  });

  it('uses p= for an inherited record without sp=', async () => {
    const result = await checkDmarc('www.example.com', lookup({ '_dmarc.example.com': ['v=DMARC1; p=reject'] }));
    expect(result.effectivePolicy).toBe('reject');
  });

  it('falls back when the domain has only non-DMARC TXT records, and mentions near misses', async () => {
    const zone: Zone = {
      '_dmarc.www.example.com': ['v=dmarc1; p=reject', 'unrelated'],
      '_dmarc.example.com': ['v=DMARC1; p=none'],
    };
    const result = await checkDmarc('www.example.com', lookup(zone));
    expect(result.inherited).toBe(true);
    expect(result.warnings.join('\n')).toContain('is not a DMARC record');
  });

  it('does not fall back from the organisational domain itself', async () => {
    const asked: string[] = [];
    const result = await checkDmarc('example.com', lookup({}, asked));
    expect(asked).toEqual(['_dmarc.example.com']);
    expect(result).toMatchObject({ found: false, record: '', tags: {}, inherited: false, effectivePolicy: null });
  });

  it('reports none found when neither name has a record', async () => {
    const result = await checkDmarc('a.example.com', lookup({}));
    expect(result).toMatchObject({ found: false, queriedName: '_dmarc.example.com', inherited: false });
  });

  it('treats several records as none valid, without falling back (§6.6.3)', async () => {
    const asked: string[] = [];
    const zone: Zone = {
      '_dmarc.www.example.com': ['v=DMARC1; p=none', 'v=DMARC1; p=reject'],
      '_dmarc.example.com': ['v=DMARC1; p=reject'],
    };
    const result = await checkDmarc('www.example.com', lookup(zone, asked));
    expect(asked).toEqual(['_dmarc.www.example.com']);
    expect(result).toMatchObject({ found: false, multiple: true, record: '', effectivePolicy: null });
    expect(result.errors[0]).toContain('2 DMARC records');
  });

  it('reports a record that is found but invalid', async () => {
    const result = await checkDmarc('example.com', lookup({ '_dmarc.example.com': ['v=DMARC1; p=sometimes'] }));
    expect(result.found).toBe(true);
    expect(result.valid).toBe(false);
    expect(result.effectivePolicy).toBeNull();
    expect(result.tags).toEqual({ v: 'DMARC1', p: 'sometimes' });
  });

  it('reports p=none for a record rescued by its rua=', async () => {
    const result = await checkDmarc(
      'example.com',
      lookup({ '_dmarc.example.com': ['v=DMARC1; rua=mailto:a@example.com'] }),
    );
    expect(result.effectivePolicy).toBe('none');
  });

  it('throws when a question fails (SERVFAIL is not "no record")', async () => {
    const failure = new ProbeError('SERVFAIL', '127.0.0.1:53', 'SERVFAIL');
    await expect(checkDmarc('example.com', lookup({ '_dmarc.example.com': failure }))).rejects.toBe(failure);
    const orgFailure = new ProbeError('TIMEOUT', '127.0.0.1:53', 'time-out');
    await expect(checkDmarc('www.example.com', lookup({ '_dmarc.example.com': orgFailure }))).rejects.toBe(orgFailure);
  });
});
