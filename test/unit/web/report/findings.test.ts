/**
 * The findings catalogue (src/web/report/findings.ts) covers every code the API names — the DNSSEC error and
 * warning codes of the schema, the TLS caps and warnings of docs/contract/grades.md, the Observatory's ten
 * tests, the composites' check ids — and each finding says why, how, and where it is written.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  CHECK_ADVICE,
  DNSSEC_ADVICE,
  findingsOf,
  OBSERVATORY_ADVICE,
  TLS_CAP_ADVICE,
  TLS_WARNING_ADVICE,
  worstSeverity,
} from '../../../../src/web/report/findings.js';

const root = resolve(import.meta.dirname, '../../../..');
const schema = readFileSync(resolve(root, 'schema/schema.graphql'), 'utf8');
const enumValues = (name: string) => {
  const body = new RegExp(`enum ${name} \\{([^}]*)\\}`).exec(schema)![1]!;
  return body
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => /^[A-Z_0-9]+$/.test(l));
};

describe('the catalogue', () => {
  it('advises on every DNSSEC error and warning code of the schema', () => {
    const codes = [...enumValues('DnssecChainErrorCode'), ...enumValues('DnssecChainWarningCode')];
    expect(codes.length).toBeGreaterThan(15);
    expect(codes.filter((c) => !DNSSEC_ADVICE[c])).toEqual([]);
  });

  it('advises on every cap and warning of the TLS grade (docs/contract/grades.md)', () => {
    const contract = readFileSync(resolve(root, 'docs/contract/grades.md'), 'utf8');
    const caps = contract.slice(contract.indexOf('4. **Caps**'), contract.indexOf('5. **A+ and A-**'));
    const codes = [...caps.matchAll(/`([a-z0-9-]+)`/g)].map((m) => m[1]!);
    expect(codes).toEqual(expect.arrayContaining(['sslv3-best', 'tls10', 'tls11', 'incomplete-chain']));
    expect(codes.filter((c) => !TLS_CAP_ADVICE[c])).toEqual([]);
    expect(Object.keys(TLS_WARNING_ADVICE).sort()).toEqual(['hsts-short', 'no-tls13']);
  });

  it("advises on the Observatory's ten tests and on every part of both composites", () => {
    expect(Object.keys(OBSERVATORY_ADVICE)).toHaveLength(10);
    const websiteIds = [
      'dns',
      'location',
      'organization',
      'ping',
      'latency',
      'http',
      'redirects',
      'ssl',
      'security',
      'protocol',
      'compression',
      'ports',
      'tls-rating',
      'http-rating',
    ];
    const mailIds = ['mx', 'spf', 'dmarc', 'dkim', 'blacklist', 'mta-sts', 'tls-rpt', 'starttls', 'dane', 'bimi'];
    expect([...websiteIds, ...mailIds].filter((id) => !CHECK_ADVICE[id])).toEqual([]);
  });

  it('gives every piece of advice a why, a fix and an https reference', () => {
    for (const table of [CHECK_ADVICE, DNSSEC_ADVICE, OBSERVATORY_ADVICE, TLS_CAP_ADVICE, TLS_WARNING_ADVICE]) {
      for (const [code, advice] of Object.entries(table)) {
        expect(advice.why.length, code).toBeGreaterThan(20);
        expect(advice.fix.length, code).toBeGreaterThan(10);
        expect(advice.link.url, code).toMatch(/^https:\/\//);
      }
    }
  });
});

describe('findings of an answer', () => {
  it('a composite: each check that is not ok, error counted as a warning', () => {
    const findings = findingsOf('mailhealth-check', {
      checks: [
        { id: 'mx', label: 'MX', status: 'ok', summary: 'fine' },
        { id: 'spf', label: 'SPF record', status: 'critical', summary: 'no SPF record' },
        { id: 'starttls', label: 'STARTTLS', status: 'error', summary: '', error: 'timed out', host: 'mx.example' },
      ],
    });
    expect(findings.map((f) => [f.severity, f.code, f.title, f.what])).toEqual([
      ['critical', 'spf', 'SPF record', 'no SPF record'],
      ['warning', 'starttls', 'STARTTLS (mx.example)', 'timed out'],
    ]);
    expect(findings[0]!.advice?.link.title).toBe('RFC 7208');
    expect(worstSeverity(findings)).toBe('critical');
  });

  it('tls-rating: the certificate gate, caps to F as critical, other caps and warnings as warnings', () => {
    const findings = findingsOf('tls-rating', {
      grade: {
        letter: 'T',
        letterIgnoringTrust: 'B',
        caps: [
          { code: 'tls10', cap: 'B', reason: 'TLS 1.0 supported' },
          { code: 'weak-cipher', cap: 'F', reason: 'DES accepted' },
        ],
        warnings: [{ code: 'no-tls13', reason: 'no TLS 1.3' }],
      },
      certificate: { status: 'untrusted' },
    });
    expect(findings.map((f) => [f.severity, f.code])).toEqual([
      ['critical', 'untrusted'],
      ['warning', 'tls10'],
      ['critical', 'weak-cipher'],
      ['warning', 'no-tls13'],
    ]);
  });

  it('dnssec-chain: the broken link once, critical when bogus', () => {
    const findings = findingsOf('dnssec-chain', {
      status: 'bogus',
      brokenLink: { zone: 'example', code: 'DS_DIGEST_MISMATCH', message: 'the digest differs' },
      chain: [
        { zone: 'example', errors: [{ code: 'DS_DIGEST_MISMATCH', message: 'the digest differs' }], warnings: [] },
      ],
    });
    expect(findings.map((f) => [f.severity, f.code])).toEqual([['critical', 'DS_DIGEST_MISMATCH']]);
  });

  it('whois: expired is critical, within 30 days a warning, later nothing', () => {
    expect(findingsOf('whois', { daysUntilExpiry: -2 })[0]?.severity).toBe('critical');
    expect(findingsOf('whois', { daysUntilExpiry: 12 })[0]?.severity).toBe('warning');
    expect(findingsOf('whois', { daysUntilExpiry: 200 })).toEqual([]);
    expect(findingsOf('dns-lookup', { records: {} })).toEqual([]);
  });
});
