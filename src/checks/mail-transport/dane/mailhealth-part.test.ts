/** mailhealth-check's dane part (mailhealth-part.ts): one finding per MX host, dane's data as the details. */
import { describe, expect, it } from 'vitest';
import { daneFindings } from './mailhealth-part.js';
import type { DaneResult } from './dane.js';

const MX = { nullMx: false, hostCount: 2, smtpProbes: true };

function dane(host: string, status: DaneResult['status'], dnssec: DaneResult['dnssec'] = 'secure'): DaneResult {
  return {
    host,
    port: 25,
    name: `_25._tcp.${host}`,
    tlsa:
      status === 'no-tlsa' ? [] : [{ usage: 3, selector: 1, matchingType: 1, data: '00', matches: status === 'valid' }],
    dnssec,
    status,
    error: status === 'error' ? 'no certificate chain to match: mx.a.test does not offer STARTTLS' : null,
  };
}

const tested = <R extends { host: string }>(result: R) => ({ host: result.host, result });

describe('dane: one finding per MX host', () => {
  const statusOf = (result: DaneResult) => daneFindings([tested(result)], MX)[0]!.status;

  it('critical for a mismatch or bogus records; warning for unusable records or no chain', () => {
    const findings = daneFindings([tested(dane('mx.a.test', 'valid')), tested(dane('mx2.a.test', 'mismatch'))], MX);
    expect(findings.map((f) => [f.host, f.status])).toEqual([
      ['mx.a.test', 'ok'],
      ['mx2.a.test', 'critical'],
    ]);
    expect(statusOf(dane('mx.a.test', 'error', 'bogus'))).toBe('critical');
    expect(statusOf(dane('mx.a.test', 'unusable'))).toBe('warning');
    const noChain = daneFindings([tested(dane('mx.a.test', 'error'))], MX)[0];
    expect(noChain).toMatchObject({ status: 'warning', summary: expect.stringMatching(/does not offer STARTTLS/) });
  });

  it("info when DANE is not in use (no records, or unsigned ones); ok when valid; dane's data as the details", () => {
    expect(statusOf(dane('mx.a.test', 'no-tlsa'))).toBe('info');
    const unsigned = daneFindings([tested(dane('mx.a.test', 'insecure', 'insecure'))], MX)[0];
    expect(unsigned).toMatchObject({ status: 'info', summary: expect.stringMatching(/not DNSSEC-signed/) });
    const valid = dane('mx.a.test', 'valid');
    expect(daneFindings([tested(valid)], MX)).toEqual([
      { host: 'mx.a.test', status: 'ok', summary: 'DANE validates for mx.a.test.', details: valid },
    ]);
  });

  it('a host not tested is error, its details saying why', () => {
    expect(daneFindings([{ host: 'mx.a.test', failure: 'mx.a.test has no address' }], MX)).toEqual([
      expect.objectContaining({
        host: 'mx.a.test',
        status: 'error',
        error: 'mx.a.test has no address',
        details: { tested: false, reason: 'host-not-testable', untestedHosts: ['mx.a.test'] },
      }),
    ]);
  });
});
