/** mailhealth-check's tls-rpt part (mailhealth-part.ts). */
import { describe, expect, it } from 'vitest';
import { tlsRptFinding } from './mailhealth-part.js';
import type { TlsRptCheckResult } from './tls-rpt.js';

describe('tls-rpt as a part of mailhealth-check', () => {
  const tlsRpt = (over: Partial<TlsRptCheckResult>): TlsRptCheckResult => ({
    domain: 'a.test',
    found: true,
    record: 'v=TLSRPTv1; rua=mailto:r@a.test',
    multiple: false,
    rua: ['mailto:r@a.test'],
    valid: true,
    errors: [],
    ...over,
  });

  it('tls-rpt: missing is a warning only when MTA-STS or DANE is in use; invalid a warning', () => {
    const missing = tlsRpt({ found: false, record: '', rua: [], valid: false });
    expect(tlsRptFinding(missing, { mtaSts: false, dane: false }).status).toBe('info');
    expect(tlsRptFinding(missing, { mtaSts: true, dane: false })).toMatchObject({
      status: 'warning',
      summary: expect.stringMatching(/^The domain uses MTA-STS but publishes no TLS-RPT record/),
    });
    expect(tlsRptFinding(missing, { mtaSts: false, dane: true }).summary).toMatch(/uses DANE/);
    expect(
      tlsRptFinding(tlsRpt({ valid: false, errors: ['rua= is missing'] }), { mtaSts: false, dane: false }).status,
    ).toBe('warning');
    expect(tlsRptFinding(tlsRpt({}), { mtaSts: false, dane: false })).toMatchObject({
      status: 'ok',
      details: tlsRpt({}),
    });
  });
});
