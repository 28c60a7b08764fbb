/** The order of grades (--min-grade), their severities, and the verdicts read from both shapes of an answer. */
import { describe, expect, it } from 'vitest';
import { gradeSeverity, meetsGrade, verdictsOf, websitePart } from '../../../../src/web/report/verdicts.js';

describe('grades', () => {
  it('orders SSL Labs letters and Observatory grades, the certificate gate last', () => {
    expect(meetsGrade('A+', 'A')).toBe(true);
    expect(meetsGrade('A-', 'A')).toBe(false);
    expect(meetsGrade('B', 'B')).toBe(true);
    expect(meetsGrade('B-', 'B')).toBe(false);
    expect(meetsGrade('T', 'F')).toBe(false);
    expect(meetsGrade(null, 'F')).toBe(false);
    expect(meetsGrade('a', 'A')).toBe(true);
  });

  it('judges a grade as website-health-check judges its ratings (docs/contract/grades.md)', () => {
    expect(['A+', 'A', 'A-', 'B+', 'C-', 'D+', 'F', 'T', 'M'].map(gradeSeverity)).toEqual([
      null,
      null,
      null,
      'warning',
      'warning',
      'critical',
      'critical',
      'critical',
      'critical',
    ]);
  });
});

describe('verdicts', () => {
  const rating = {
    grade: { letter: 'B', letterIgnoringTrust: 'B', score: 80, caps: [{ code: 'tls10' }], warnings: [] },
  };

  it("reads a website part's rating from GraphQL's answer and from REST's flattened one", () => {
    const graphql = { checks: [{ id: 'tls-rating', details: { tlsRating: rating } }] };
    const rest = { checks: [{ id: 'tls-rating', details: rating }] };
    expect(websitePart(graphql, 'tls-rating', 'tlsRating')).toBe(rating);
    expect(websitePart(rest, 'tls-rating', 'tlsRating')).toBe(rating);
    expect(
      websitePart({ checks: [{ id: 'tls-rating', details: { tlsRating: null } }] }, 'tls-rating', 'tlsRating'),
    ).toBeNull();
  });

  it('gives the TLS grade, the Observatory grade and the website verdict from the website part', () => {
    const website = {
      verdict: { status: 'warning', headline: '1 warning' },
      checks: [
        { id: 'tls-rating', details: { tlsRating: rating } },
        { id: 'http-rating', details: { httpRating: { grade: 'A+', score: 110, testsPassed: 10, testsQuantity: 10 } } },
        { id: 'caa', status: 'ok', summary: 'Only letsencrypt.org may issue certificates for a.test.' },
        { id: 'security-txt', status: 'info', summary: 'No security.txt for a.test.' },
      ],
    };
    expect(verdictsOf('website', website).map((v) => [v.section, v.value, v.severity])).toEqual([
      ['tls', 'B', 'warning'],
      ['observatory', 'A+', null],
      ['caa', 'ok', null],
      ['security-txt', 'info', 'info'],
      ['website', 'warning', 'warning'],
    ]);
    expect(verdictsOf('website', website)[3]!.detail).toBe('No security.txt for a.test.');
    // an answer from before the check joined: said, not left pending
    expect(verdictsOf('website', { checks: [] })[2]).toMatchObject({
      section: 'caa',
      value: '–',
      detail: 'not checked',
    });
    expect(verdictsOf('website', website)[0]!.detail).toBe('score 80 · 1 cap · 0 warnings');
  });

  it('names the broken DNSSEC link, and the days to the registration expiry', () => {
    const [dnssec] = verdictsOf('dnssec', { status: 'bogus', brokenLink: { zone: 'example', code: 'RRSIG_EXPIRED' } });
    expect(dnssec).toMatchObject({ value: 'bogus', detail: 'broken at example: RRSIG_EXPIRED', severity: 'critical' });
    const [registration] = verdictsOf('registration', { expiryDate: '2030-01-02T00:00:00Z', daysUntilExpiry: 10 });
    expect(registration).toMatchObject({ value: '2030-01-02', detail: 'expires in 10 days', severity: 'warning' });
  });
});
