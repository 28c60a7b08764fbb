import { describe, expect, it } from 'vitest';
import { dnssecVerdict } from './dnssec.js';
import type { DnssecObservations } from './dnssec.js';
import { ProbeError } from '../../../probes/errors.js';

const unsigned: DnssecObservations = {
  dnskeyCount: 0,
  adWithDo: false,
  servfailWithoutCd: false,
  answerWithCd: true,
  dsPresent: false,
};

describe('dnssecVerdict (decision table)', () => {
  it.each([
    ['signed with a chain of trust', { dnskeyCount: 2, adWithDo: true, dsPresent: true }, 'enabled', true],
    [
      'a name inside a signed zone (no own DNSKEY)',
      { dnskeyCount: 0, adWithDo: true, dsPresent: false },
      'enabled',
      true,
    ],
    ['signed, no DS at the parent', { dnskeyCount: 2, dsPresent: false }, 'insecure', false],
    ['signed with DS, but not authenticated', { dnskeyCount: 2, dsPresent: true }, 'insecure', false],
    ['unsigned', {}, 'disabled', false],
    ['DS but no DNSKEY', { dsPresent: true }, 'bogus', false],
    [
      'validation failure',
      { dnskeyCount: 2, dsPresent: true, servfailWithoutCd: true, answerWithCd: true },
      'bogus',
      false,
    ],
    [
      'validation failure wins over AD',
      { dnskeyCount: 2, adWithDo: true, servfailWithoutCd: true, answerWithCd: true },
      'bogus',
      false,
    ],
  ] as [string, Partial<DnssecObservations>, string, boolean][])('%s → %s', (_label, observed, status, validated) => {
    const verdict = dnssecVerdict({ ...unsigned, ...observed });
    expect(verdict.status).toBe(status);
    expect(verdict.validated).toBe(validated);
    expect(verdict.keyCount).toBe(observed.dnskeyCount ?? 0);
    expect(verdict.reason.length).toBeGreaterThan(10);
  });

  it('throws SERVFAIL when the zone fails with and without CD (no verdict possible)', () => {
    const observe = { ...unsigned, servfailWithoutCd: true, answerWithCd: false, resolver: '127.0.0.1:5353' };
    expect(() => dnssecVerdict(observe)).toThrow(ProbeError);
    try {
      dnssecVerdict(observe);
    } catch (e) {
      expect(e).toMatchObject({ kind: 'SERVFAIL', upstream: '127.0.0.1:5353', status: 502 });
    }
  });
});
