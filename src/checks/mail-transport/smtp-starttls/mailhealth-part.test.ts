/** mailhealth-check's starttls part (mailhealth-part.ts): one finding per MX host, smtp-starttls's data as the details. */
import { describe, expect, it } from 'vitest';
import { starttlsFindings } from './mailhealth-part.js';
import { daneFindings } from '../dane/mailhealth-part.js';
import type { SmtpStarttlsResult } from './starttls.js';
import type { DaneResult } from '../dane/dane.js';

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

const tested = <R extends { host: string }>(result: R) => ({ host: result.host, result });

describe('starttls: one finding per MX host', () => {
  it("each host with its own status and smtp-starttls's data, by priority", () => {
    const ok = session('mx1.a.test', 'ok');
    const cert = session('mx2.a.test', 'certificate-problem');
    const plain = session('mx3.a.test', 'no-starttls');
    const failing = session('mx4.a.test', 'tls-failed');
    const findings = starttlsFindings([ok, cert, plain, failing].map(tested), MX);
    expect(findings.map((f) => [f.host, f.status])).toEqual([
      ['mx1.a.test', 'ok'],
      ['mx2.a.test', 'warning'],
      ['mx3.a.test', 'critical'],
      ['mx4.a.test', 'warning'],
    ]);
    expect(findings.map((f) => f.details)).toEqual([ok, cert, plain, failing]);
    expect(findings[0]!.summary).toBe('mx1.a.test offers STARTTLS with a valid certificate.');
    expect(findings[1]!.summary).toMatch(/^The certificate of mx2\.a\.test is expired/);
    expect(findings[2]!.summary).toBe(
      'mx3.a.test does not offer STARTTLS, so mail to it travels in clear text; enable STARTTLS with a valid certificate.',
    );
    expect(findings[3]!.summary).toMatch(/^STARTTLS fails on mx4\.a\.test \(handshake failed\)/);
  });

  it('a host not reached is error (port 25 may be closed to this service), its data kept; a host not tested is error, its details saying why', () => {
    const [unreachable, refused] = starttlsFindings(
      [
        tested(session('mx1.a.test', 'unreachable')),
        { host: 'mx2.a.test', failure: 'refused: 10.0.0.1, a private address' },
      ],
      MX,
    );
    expect(unreachable).toMatchObject({
      host: 'mx1.a.test',
      status: 'error',
      error: 'TCP connect to 192.0.2.1:25 failed: ECONNREFUSED',
      details: { host: 'mx1.a.test', status: 'unreachable' },
    });
    expect(unreachable!.summary).toMatch(/check that port 25 is open to this service/);
    expect(refused).toEqual({
      host: 'mx2.a.test',
      status: 'error',
      error: 'refused: 10.0.0.1, a private address',
      summary:
        "mx2.a.test could not be tested (refused: 10.0.0.1, a private address); run the health check again, and if it persists, check the host's address records.",
      details: { tested: false, reason: 'host-not-testable', untestedHosts: ['mx2.a.test'] },
    });
  });

  it('a host beyond the first ones is info, not tested; no MX host at all is one info finding about the domain', () => {
    expect(starttlsFindings([{ host: 'mx6.a.test', omitted: true }], MX)).toEqual([
      {
        host: 'mx6.a.test',
        status: 'info',
        summary: 'mx6.a.test was not tested: only the first 5 MX hosts by priority are (senders seldom get further).',
        details: { tested: false, reason: 'beyond-host-limit', untestedHosts: ['mx6.a.test'] },
      },
    ]);
    expect(starttlsFindings([], { nullMx: true, hostCount: 0, smtpProbes: true })).toEqual([
      {
        host: null,
        status: 'info',
        summary: 'The domain accepts no mail (null MX): there is no mail server to test.',
        details: { tested: false, reason: 'null-mx', untestedHosts: [] },
      },
    ]);
    expect(starttlsFindings([], { nullMx: false, hostCount: 0, smtpProbes: true })).toEqual([
      {
        host: null,
        status: 'info',
        summary: 'The domain has no MX host to test (see the MX check).',
        details: { tested: false, reason: 'no-mx-hosts', untestedHosts: [] },
      },
    ]);
    // dane says the same, in the same shape (api-v1.md: details is an object)
    expect(daneFindings([], { nullMx: true, hostCount: 0, smtpProbes: true })).toMatchObject([
      { host: null, status: 'info', details: { tested: false, reason: 'null-mx', untestedHosts: [] } },
    ]);
    expect(daneFindings([], { nullMx: false, hostCount: 0, smtpProbes: true })).toMatchObject([
      { host: null, status: 'info', details: { tested: false, reason: 'no-mx-hosts', untestedHosts: [] } },
    ]);
  });
});

describe('with SMTP probes turned off (smtp.enabled false)', () => {
  const OFF = { ...MX, smtpProbes: false };
  it('starttls is info for each host, naming the setting; dane records that cannot be matched are info, bogus ones still critical', () => {
    const failure = 'SMTP probes are turned off on this instance (smtp.enabled is false)';
    expect(starttlsFindings([{ host: 'mx1.a.test', failure }], OFF)).toEqual([
      {
        host: 'mx1.a.test',
        status: 'info',
        summary: 'mx1.a.test was not tested: SMTP probes are turned off on this instance (smtp.enabled).',
        details: { tested: false, reason: 'smtp-probes-off', untestedHosts: ['mx1.a.test'] },
      },
    ]);
    expect(daneFindings([tested(dane('mx.a.test', 'error'))], OFF)).toMatchObject([
      {
        status: 'info',
        summary: expect.stringMatching(/^TLSA records exist for mx\.a\.test but cannot be matched here/),
      },
    ]);
    expect(daneFindings([tested(dane('mx.a.test', 'error'))], MX)[0]!.status).toBe('warning');
    expect(daneFindings([tested(dane('mx.a.test', 'error', 'bogus'))], OFF)[0]!.status).toBe('critical');
  });
});
