/**
 * website-health-check's tls-rating and http-rating parts (rules.ts): the status of every grade
 * as docs/contract/grades.md "website-health-check" maps it, and the summaries that say what holds a grade down. The
 * details are the single checks' data, unchanged.
 */
import { describe, expect, it } from 'vitest';
import { httpRatingFinding, ratingGradeStatus, tlsRatingFinding } from './rules.js';
import type { HttpRatingResult } from '../../tls-http/http-rating/rating.js';
import type { Grade } from '../../tls-http/tls-rating/grade.js';
import type { TlsRatingData } from '../../tls-http/tls-rating/rating.js';

describe('the status of a grade', () => {
  const table: [grade: string | null, status: string][] = [
    ['A+', 'ok'],
    ['A', 'ok'],
    ['A-', 'info'],
    [null, 'info'],
    ['B+', 'warning'],
    ['B', 'warning'],
    ['B-', 'warning'],
    ['C+', 'warning'],
    ['C', 'warning'],
    ['C-', 'warning'],
    ['D+', 'critical'],
    ['D', 'critical'],
    ['D-', 'critical'],
    ['E', 'critical'],
    ['F', 'critical'],
    ['T', 'critical'],
    ['M', 'critical'],
  ];
  it.each(table)('%s is %s', (grade, status) => {
    expect(ratingGradeStatus(grade)).toBe(status);
  });

  it('refuses what is not a grade of either rating (a bug, not a finding)', () => {
    for (const grade of ['', 'a', 'A++', 'E+', 'F-', 'T+', 'G']) {
      expect(() => ratingGradeStatus(grade), grade).toThrow(RangeError);
    }
  });
});

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
    certificate: {
      keyType: 'RSA',
      keyBits: 2048,
      signatureAlgorithm: 'sha256WithRSAEncryption',
      chainComplete: true,
      status: 'valid',
    },
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
      details: { tlsRating: data },
    });
    expect(finding.details.tlsRating).toBe(data);
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
        certificate: {
          keyType: 'RSA',
          keyBits: 2048,
          signatureAlgorithm: 'sha256WithRSAEncryption',
          chainComplete: true,
          status: 'expired',
        },
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

function httpRating(overrides: Partial<HttpRatingResult>): HttpRatingResult {
  return {
    url: 'https://www.example.org/',
    finalUrl: 'https://www.example.org/',
    statusCode: 200,
    algorithmVersion: 4,
    score: 105,
    grade: 'A+',
    testsPassed: 10,
    testsFailed: 0,
    testsQuantity: 10,
    tests: [],
    error: null,
    httpsError: null,
    httpError: null,
    ...overrides,
  };
}

const failedTest = (name: string) =>
  ({ name, pass: false, result: `${name}-not-implemented`, scoreModifier: -25, description: '' }) as const;

describe('http-rating', () => {
  it('A+ is ok, and the details are the rating itself', () => {
    const data = httpRating({});
    expect(httpRatingFinding(data)).toEqual({
      status: 'ok',
      summary: 'The MDN HTTP Observatory grades https://www.example.org/ A+ (score 105, 10 of 10 tests passed).',
      details: { httpRating: data },
    });
  });

  it('B is a warning naming the failed tests; F critical', () => {
    const finding = httpRatingFinding(
      httpRating({
        grade: 'B',
        score: 75,
        testsPassed: 9,
        testsFailed: 1,
        tests: [failedTest('content-security-policy') as never],
      }),
    );
    expect(finding).toMatchObject({
      status: 'warning',
      summary:
        'The MDN HTTP Observatory grades https://www.example.org/ B (score 75, 9 of 10 tests passed); failed: content-security-policy; set the headers these tests read (http-rating says what each found).',
    });
    expect(httpRatingFinding(httpRating({ grade: 'F', score: 0 })).status).toBe('critical');
  });

  it('an answer that was not graded is info with the reason', () => {
    const error =
      'https://www.example.org/ answered 404 Not Found: the Observatory grades only 2xx, 3xx, 401 and 403 answers';
    const data = httpRating({
      statusCode: 404,
      score: null,
      grade: null,
      testsPassed: null,
      testsFailed: null,
      testsQuantity: null,
      error,
    });
    expect(httpRatingFinding(data)).toEqual({
      status: 'info',
      summary: `The MDN HTTP Observatory does not grade this answer (${error}).`,
      details: { httpRating: data },
    });
  });
});
