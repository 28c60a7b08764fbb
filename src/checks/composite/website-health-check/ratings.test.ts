/**
 * The status of every grade of the ratings' parts (rules.ts's ratingGradeStatus) as
 * docs/contract/grades.md "website-health-check" maps it; the parts themselves are tested in their checks'
 * folders (tls-rating/website-part.test.ts, http-rating/website-part.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { ratingGradeStatus } from './rules.js';

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
