import { describe, expect, it } from 'vitest';
import {
  isMtaStsRecord,
  mtaStsVerdict,
  mxPatternMatches,
  parseMtaStsRecord,
  parsePolicy,
  type MtaStsEvidence,
} from './mta-sts.js';

const POLICY = 'version: STSv1\r\nmode: enforce\r\nmx: mx1.example.com\r\nmx: *.example.net\r\nmax_age: 604800\r\n';

describe('the record (RFC 8461 §3.1)', () => {
  it('is a record only when it begins with the version', () => {
    expect(isMtaStsRecord('v=STSv1; id=20260101T000000')).toBe(true);
    expect(isMtaStsRecord('v=STSv1')).toBe(true);
    expect(isMtaStsRecord('v=spf1 -all')).toBe(false);
    expect(isMtaStsRecord(' v=STSv1; id=1')).toBe(false);
  });

  it('needs an id of 1 to 32 letters and digits', () => {
    expect(parseMtaStsRecord('v=STSv1; id=20260101T000000;')).toEqual({ id: '20260101T000000', errors: [] });
    expect(parseMtaStsRecord('v=STSv1').errors).toEqual(['the record has no id= (RFC 8461 §3.1)']);
    expect(parseMtaStsRecord('v=STSv1; id=2026-01-01').errors).toEqual([
      'id "2026-01-01" must be 1 to 32 letters and digits (RFC 8461 §3.1)',
    ]);
    expect(parseMtaStsRecord(`v=STSv1; id=${'a'.repeat(33)}`).errors).toHaveLength(1);
  });
});

describe('the policy (RFC 8461 §3.2)', () => {
  it('reads CRLF and LF lines, keeps mx patterns as written, ignores unknown keys', () => {
    expect(parsePolicy(POLICY)).toEqual({
      policy: { version: 'STSv1', mode: 'enforce', mx: ['mx1.example.com', '*.example.net'], maxAge: 604800 },
      errors: [],
      warnings: [],
    });
    expect(parsePolicy('version: STSv1\nmode: none\nmax_age: 86400\nfuture: yes\n')).toMatchObject({
      policy: { mode: 'none', mx: [] },
      errors: [],
    });
  });

  it('names every missing or bad field', () => {
    expect(parsePolicy('mode: sometimes\nmax_age: forever\n').errors).toEqual([
      'the policy has no version',
      'mode "sometimes" is not enforce, testing or none',
      'max_age "forever" must be a number of seconds up to 31557600',
      'the policy names no mx (RFC 8461 §3.2: required unless mode is none)',
    ]);
    expect(
      parsePolicy('version: STSv1\nmode: testing\nmode: enforce\nmx: a.example\nmax_age: 99999999999\n').errors,
    ).toEqual(['mode appears more than once', 'max_age "99999999999" must be a number of seconds up to 31557600']);
    expect(parsePolicy('<html>not a policy</html>').errors[0]).toBe(
      'line 1 is not "key: value": "<html>not a policy</html>"',
    );
  });

  it('warns of a max_age under a week', () => {
    expect(parsePolicy('version: STSv1\nmode: testing\nmx: a.example\nmax_age: 3600\n').warnings).toEqual([
      'max_age 3600 is under a week; RFC 8461 §3.2 recommends weeks or more',
    ]);
  });
});

describe('MX matching (RFC 8461 §4.1)', () => {
  it('matches names case-insensitively, a trailing dot aside; "*." covers exactly one left-most label', () => {
    expect(mxPatternMatches('MX1.example.com', 'mx1.example.com.')).toBe(true);
    expect(mxPatternMatches('*.example.net', 'mx.example.net')).toBe(true);
    expect(mxPatternMatches('*.example.net', 'a.mx.example.net')).toBe(false);
    expect(mxPatternMatches('*.example.net', 'example.net')).toBe(false);
    expect(mxPatternMatches('mx1.example.com', 'mx2.example.com')).toBe(false);
  });
});

describe('mtaStsVerdict', () => {
  const evidence = (over: Partial<MtaStsEvidence>): MtaStsEvidence => ({
    domain: 'example.com',
    records: ['v=STSv1; id=1'],
    policyFetch: { status: 200, text: POLICY, error: null },
    exchanges: ['mx1.example.com', 'mx.example.net'],
    omittedExchanges: 0,
    ...over,
  });

  it('enforce with every MX host matched', () => {
    expect(mtaStsVerdict(evidence({}))).toEqual({
      domain: 'example.com',
      found: true,
      record: 'v=STSv1; id=1',
      id: '1',
      policyUrl: 'https://mta-sts.example.com/.well-known/mta-sts.txt',
      policy: { version: 'STSv1', mode: 'enforce', mx: ['mx1.example.com', '*.example.net'], maxAge: 604800 },
      fetch: { status: 200, error: null },
      mxMatches: [
        { exchange: 'mx1.example.com', matches: true },
        { exchange: 'mx.example.net', matches: true },
      ],
      omittedExchanges: 0,
      status: 'enforce',
      errors: [],
      warnings: [],
    });
  });

  it('reports the MX hosts it was not given (beyond the best by priority) as omitted, whatever the status', () => {
    expect(mtaStsVerdict(evidence({ omittedExchanges: 390 })).omittedExchanges).toBe(390);
    expect(mtaStsVerdict(evidence({ records: [], omittedExchanges: 390 }))).toMatchObject({
      status: 'not-configured',
      omittedExchanges: 390,
    });
  });

  it('not configured without a record; invalid with several, or without a usable policy', () => {
    expect(mtaStsVerdict(evidence({ records: ['v=spf1 -all'], policyFetch: null })).status).toBe('not-configured');
    const several = mtaStsVerdict(evidence({ records: ['v=STSv1; id=1', 'v=STSv1; id=2'], policyFetch: null }));
    expect(several).toMatchObject({ status: 'invalid', record: '', found: true });
    expect(several.errors[0]).toMatch(/^2 MTA-STS records/);
    const failed = mtaStsVerdict(
      evidence({ policyFetch: { status: 404, text: null, error: 'mta-sts.example.com answered 404 for the policy' } }),
    );
    expect(failed).toMatchObject({ status: 'invalid', fetch: { status: 404 }, policy: null });
    expect(failed.errors).toEqual(['the policy could not be fetched: mta-sts.example.com answered 404 for the policy']);
  });

  it('an unmatched MX host makes an enforced policy invalid and a testing one a warning', () => {
    const enforce = mtaStsVerdict(evidence({ exchanges: ['mx1.example.com', 'backup.example.org'] }));
    expect(enforce.status).toBe('invalid');
    expect(enforce.errors).toEqual([
      "MX host backup.example.org not matched by the policy's mx patterns (RFC 8461 §4.1): senders will not deliver to it",
    ]);
    const testing = mtaStsVerdict(
      evidence({
        exchanges: ['backup.example.org'],
        policyFetch: { status: 200, text: POLICY.replace('enforce', 'testing'), error: null },
      }),
    );
    expect(testing).toMatchObject({ status: 'testing', errors: [] });
    expect(testing.warnings).toHaveLength(1);
  });
});
