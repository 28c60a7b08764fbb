/**
 * website-health-check's tls-rating part (website-part.ts): the summaries that say what holds a grade down;
 * the details are the single check's data, unchanged.
 */
import { describe, expect, it } from 'vitest';
import { tlsRatingFinding } from './website-part.js';
import type { Grade } from './grade.js';
import type { RatedCertificate, TlsRatingData } from './rating.js';

function grade(overrides: Partial<Grade>): Grade {
  return {
    letter: 'A+',
    letterIgnoringTrust: 'A+',
    score: 93,
    protocolScore: 100,
    keyExchangeScore: 90,
    cipherScore: 90,
    caps: [],
    warnings: [],
    ...overrides,
  } as Grade;
}

const CERTIFICATE: RatedCertificate = {
  commonName: 'www.example.org',
  subjectAlternativeNames: ['www.example.org'],
  issuer: 'Example CA',
  validFrom: '2026-09-01T00:00:00.000Z',
  expiryDate: '2026-12-30T00:00:00.000Z',
  daysRemaining: 31,
  fingerprint: 'AB:CD',
  keyType: 'RSA',
  keyBits: 2048,
  signatureAlgorithm: 'sha256WithRSAEncryption',
  chainComplete: true,
  status: 'valid',
};

function tlsRating(overrides: Partial<TlsRatingData> & { grade: Grade }): TlsRatingData {
  return {
    host: 'www.example.org',
    ip: '192.0.2.1',
    port: 443,
    durationMs: 812.5,
    partial: false,
    handshakes: 41,
    protocols: [],
    cipherSuites: [],
    preferred: [],
    serverOrder: true,
    groups: ['x25519'],
    postQuantum: null,
    dhBits: null,
    certificate: CERTIFICATE,
    hsts: { present: true, maxAge: 31_536_000 },
    ratingGuide: '2009r',
    mozilla: { profile: 'intermediate', violations: { modern: [], intermediate: [], old: [] } },
    ...overrides,
  } as TlsRatingData;
}

describe('tls-rating', () => {
  it('A+ is ok, and the details are the rating itself', () => {
    const data = tlsRating({ grade: grade({}) });
    const finding = tlsRatingFinding(data);
    expect(finding).toEqual({
      status: 'ok',
      summary: 'The TLS configuration on port 443 grades A+ (SSL Labs method, score 93).',
      details: data,
    });
    expect(finding.details).toBe(data);
  });

  it('A- is info, naming the warnings that decide it', () => {
    const finding = tlsRatingFinding(
      tlsRating({
        grade: grade({ letter: 'A-', warnings: [{ code: 'no-tls13', reason: 'TLS 1.3 is not supported' }] }),
      }),
    );
    expect(finding.status).toBe('info');
    expect(finding.summary).toBe(
      'The TLS configuration on port 443 grades A- (SSL Labs method, score 93): TLS 1.3 is not supported; fix that for an A+.',
    );
  });

  it('B and C are warnings naming each cap; F is critical', () => {
    const capped = tlsRatingFinding(
      tlsRating({
        grade: grade({
          letter: 'B',
          caps: [
            { code: 'tls10', cap: 'B', reason: 'TLS 1.0 is supported' },
            { code: 'tls11', cap: 'B', reason: 'TLS 1.1 is supported' },
          ],
        }),
      }),
    );
    expect(capped).toMatchObject({
      status: 'warning',
      summary:
        'The TLS configuration on port 443 grades B (SSL Labs method, score 93): TLS 1.0 is supported and TLS 1.1 is supported; turn off the versions and suites named (tls-rating lists each cap).',
    });
    const byScore = tlsRatingFinding(tlsRating({ grade: grade({ letter: 'C', score: 58 }) }));
    expect(byScore).toMatchObject({ status: 'warning', summary: expect.stringMatching(/: its score is 58; /) });
    const failed = tlsRatingFinding(
      tlsRating({
        grade: grade({
          letter: 'F',
          caps: [{ code: 'weak-cipher', cap: 'F', reason: 'suites under 112 bits accepted' }],
        }),
      }),
    );
    expect(failed.status).toBe('critical');
  });

  it('T and M are critical, naming the certificate', () => {
    const untrusted = tlsRatingFinding(
      tlsRating({
        grade: grade({ letter: 'T' }),
        certificate: { ...CERTIFICATE, status: 'expired' },
      }),
    );
    expect(untrusted).toMatchObject({
      status: 'critical',
      summary:
        'The TLS configuration on port 443 grades T (SSL Labs method, score 93): the certificate is expired; install a certificate from a public CA that names www.example.org, with its full chain.',
    });
    const mismatch = tlsRatingFinding(tlsRating({ grade: grade({ letter: 'M' }) }));
    expect(mismatch).toMatchObject({
      status: 'critical',
      summary: expect.stringMatching(/grades M .*: the certificate does not name www\.example\.org; install/),
    });
  });

  it('a partial rating says so, and keeps the status of its grade', () => {
    const finding = tlsRatingFinding(tlsRating({ grade: grade({ letter: 'A' }), partial: true }));
    expect(finding).toMatchObject({
      status: 'ok',
      summary:
        "The TLS configuration on port 443 grades A (SSL Labs method, score 93; partial: the rating's bounds cut the enumeration short).",
    });
  });
});
