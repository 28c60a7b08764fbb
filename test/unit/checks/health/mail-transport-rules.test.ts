import { describe, expect, it } from 'vitest';
import {
  bimiFinding,
  daneFinding,
  mtaStsFinding,
  starttlsFinding,
  tlsRptFinding,
} from '../../../../src/checks/health/mail-transport-rules.js';
import type { DaneResult } from '../../../../src/checks/mail/dane.js';
import type { SmtpStarttlsResult } from '../../../../src/checks/mail/starttls.js';
import type { BimiResult } from '../../../../src/checks/mail/bimi.js';
import type { MtaStsResult } from '../../../../src/checks/mail/mta-sts.js';
import type { TlsRptCheckResult } from '../../../../src/checks/mail/tls-rpt.js';

function mtaSts(status: MtaStsResult['status'], errors: string[] = []): MtaStsResult {
  return {
    domain: 'a.test',
    found: status !== 'not-configured',
    record: status === 'not-configured' ? '' : 'v=STSv1; id=1',
    id: '1',
    policyUrl: 'https://mta-sts.a.test/.well-known/mta-sts.txt',
    policy: null,
    fetch: { status: null, error: null },
    mxMatches: [],
    omittedExchanges: 0,
    status,
    errors,
    warnings: [],
  };
}

function bimi(status: BimiResult['status'], errors: string[] = []): BimiResult {
  return {
    domain: 'a.test',
    selector: 'default',
    found: status !== 'not-configured',
    record: '',
    queriedName: 'default._bimi.a.test',
    location: '',
    authority: '',
    svg: null,
    dmarcEligible: true,
    status,
    errors,
  };
}

const MX = { nullMx: false, hostCount: 2, smtpProbes: true };

function session(
  host: string,
  status: SmtpStarttlsResult['status'],
  extra: Partial<SmtpStarttlsResult> = {},
): SmtpStarttlsResult {
  return {
    host,
    ip: '192.0.2.1',
    port: 25,
    banner: '',
    ehlo: [],
    starttls: status === 'no-starttls' || status === 'unreachable' ? 'not-offered' : 'offered',
    tls:
      status === 'ok' || status === 'certificate-problem'
        ? {
            version: 'TLSv1.3',
            cipher: 'TLS_AES_256_GCM_SHA384',
            certificate: {
              subject: host,
              issuer: 'CA',
              validTo: '2027-01-01T00:00:00.000Z',
              daysRemaining: 30,
              status: status === 'ok' ? 'valid' : 'expired',
            },
          }
        : null,
    status,
    error:
      status === 'unreachable'
        ? 'TCP connect to 192.0.2.1:25 failed: ECONNREFUSED'
        : status === 'tls-failed'
          ? 'handshake failed'
          : null,
    responseTimeMs: 10,
    ...extra,
  };
}

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

describe('starttls', () => {
  it('ok when every host offers STARTTLS with a valid certificate; details are the single checks', () => {
    const hosts = [session('mx1.a.test', 'ok'), session('mx2.a.test', 'ok')];
    const f = starttlsFinding({ hosts, skipped: [] }, MX);
    expect(f).toMatchObject({ status: 'ok', details: { starttls: hosts, notTested: [] } });
  });

  it('critical for any host without STARTTLS, before warnings of the others', () => {
    const f = starttlsFinding(
      { hosts: [session('mx1.a.test', 'certificate-problem'), session('mx2.a.test', 'no-starttls')], skipped: [] },
      MX,
    );
    expect(f.status).toBe('critical');
    expect(f.summary).toBe(
      'mx2.a.test does not offer STARTTLS, so mail to it travels in clear text; enable STARTTLS with a valid certificate.',
    );
  });

  it('warning for STARTTLS failing, a certificate problem, or hosts not tested', () => {
    expect(starttlsFinding({ hosts: [session('mx1.a.test', 'tls-failed')], skipped: [] }, MX).status).toBe('warning');
    const cert = starttlsFinding({ hosts: [session('mx1.a.test', 'certificate-problem')], skipped: [] }, MX);
    expect(cert.summary).toMatch(/^The certificate of mx1\.a\.test is expired/);
    const partly = starttlsFinding(
      { hosts: [session('mx1.a.test', 'ok'), session('mx2.a.test', 'unreachable')], skipped: [] },
      MX,
    );
    expect(partly).toMatchObject({
      status: 'warning',
      summary: 'STARTTLS works on mx1.a.test, but mx2.a.test could not be tested.',
    });
  });

  it('error when no host could be reached, saying port 25 may be closed to this service; info without MX hosts', () => {
    const f = starttlsFinding(
      { hosts: [session('mx1.a.test', 'unreachable')], skipped: [{ host: 'mx2.a.test', reason: 'refused' }] },
      MX,
    );
    expect(f).toMatchObject({ status: 'error', error: 'TCP connect to 192.0.2.1:25 failed: ECONNREFUSED' });
    expect(f.summary).toMatch(/check that port 25 is open to this service/);
    expect(starttlsFinding({ hosts: [], skipped: [] }, { nullMx: true, hostCount: 0, smtpProbes: true }).status).toBe(
      'info',
    );
    expect(starttlsFinding({ hosts: [], skipped: [] }, { nullMx: false, hostCount: 0, smtpProbes: true }).status).toBe(
      'info',
    );
  });
});

describe('with SMTP probes turned off (smtp.enabled false)', () => {
  const OFF = { ...MX, smtpProbes: false };
  it('starttls is info, naming the setting; dane records that cannot be matched are info, bogus ones still critical', () => {
    const skipped = [
      { host: 'mx1.a.test', reason: 'SMTP probes are turned off on this instance (smtp.enabled is false)' },
    ];
    expect(starttlsFinding({ hosts: [], skipped }, OFF)).toMatchObject({
      status: 'info',
      summary: 'The MX hosts were not tested: SMTP probes are turned off on this instance (smtp.enabled).',
      details: { starttls: [], notTested: skipped },
    });
    expect(daneFinding({ hosts: [dane('mx.a.test', 'error')], skipped: [] }, OFF)).toMatchObject({
      status: 'info',
      summary: expect.stringMatching(/^TLSA records exist for mx\.a\.test but cannot be matched here/),
    });
    expect(daneFinding({ hosts: [dane('mx.a.test', 'error')], skipped: [] }, MX).status).toBe('warning');
    expect(daneFinding({ hosts: [dane('mx.a.test', 'error', 'bogus')], skipped: [] }, OFF).status).toBe('critical');
  });
});

describe('dane', () => {
  it('critical for a mismatch or bogus records; warning for unusable records or no chain', () => {
    expect(
      daneFinding({ hosts: [dane('mx.a.test', 'valid'), dane('mx2.a.test', 'mismatch')], skipped: [] }, MX).status,
    ).toBe('critical');
    expect(daneFinding({ hosts: [dane('mx.a.test', 'error', 'bogus')], skipped: [] }, MX).status).toBe('critical');
    expect(daneFinding({ hosts: [dane('mx.a.test', 'unusable')], skipped: [] }, MX).status).toBe('warning');
    const noChain = daneFinding({ hosts: [dane('mx.a.test', 'error')], skipped: [] }, MX);
    expect(noChain).toMatchObject({ status: 'warning', summary: expect.stringMatching(/does not offer STARTTLS/) });
  });

  it('info when DANE is not in use (no records, or unsigned ones); ok when every host with records validates', () => {
    expect(daneFinding({ hosts: [dane('mx.a.test', 'no-tlsa')], skipped: [] }, MX).status).toBe('info');
    const unsigned = daneFinding({ hosts: [dane('mx.a.test', 'insecure', 'insecure')], skipped: [] }, MX);
    expect(unsigned).toMatchObject({ status: 'info', summary: expect.stringMatching(/not DNSSEC-signed/) });
    const ok = daneFinding({ hosts: [dane('mx.a.test', 'valid'), dane('mx2.a.test', 'no-tlsa')], skipped: [] }, MX);
    expect(ok).toMatchObject({ status: 'ok', details: { dane: expect.any(Array), notTested: [] } });
  });
});

describe('mta-sts, tls-rpt and bimi', () => {
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

  it('mta-sts: invalid a warning, not configured and testing info, enforce ok', () => {
    expect(mtaStsFinding(mtaSts('invalid', ['the policy fetch failed'])).summary).toMatch(/the policy fetch failed/);
    expect(mtaStsFinding(mtaSts('invalid', [])).status).toBe('warning');
    expect(mtaStsFinding(mtaSts('not-configured', [])).status).toBe('info');
    expect(mtaStsFinding(mtaSts('testing', [])).status).toBe('info');
    expect(mtaStsFinding(mtaSts('enforce', [])).status).toBe('ok');
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
      details: { tlsRpt: tlsRpt({}) },
    });
  });

  it('bimi: absent info, invalid warning, valid ok', () => {
    expect(bimiFinding(bimi('not-configured', [])).status).toBe('info');
    expect(bimiFinding(bimi('invalid', ['DMARC must be enforced'])).status).toBe('warning');
    expect(bimiFinding(bimi('valid', [])).status).toBe('ok');
  });
});
