/**
 * The Observatory's score and grade (1.4.8, src/scanner/index.js and src/grader/): the score starts at 100
 * and adds every test's modifier; bonuses (positive modifiers) count only when the score without them is at
 * least 90 (an A), so the score may pass 100 but a site cannot buy its way up from B. The grade is read
 * from the chart at the score rounded down to a multiple of 5, capped at 100, never below 0.
 */

/** Lowest score without bonuses at which the bonuses count (MINIMUM_SCORE_FOR_EXTRA_CREDIT). */
export const MINIMUM_SCORE_FOR_BONUSES = 90;

/** The grade chart (GRADE_CHART): the lowest score of each step of 5. */
const GRADE_CHART: ReadonlyMap<number, string> = new Map([
  [100, 'A+'],
  [95, 'A'],
  [90, 'A'],
  [85, 'A-'],
  [80, 'B+'],
  [75, 'B'],
  [70, 'B'],
  [65, 'B-'],
  [60, 'C+'],
  [55, 'C'],
  [50, 'C'],
  [45, 'C-'],
  [40, 'D+'],
  [35, 'D'],
  [30, 'D'],
  [25, 'D-'],
  [20, 'F'],
  [15, 'F'],
  [10, 'F'],
  [5, 'F'],
  [0, 'F'],
]);

export interface ObservatoryScore {
  score: number;
  grade: string;
}

export function scoreOf(modifiers: readonly number[]): ObservatoryScore {
  let withBonuses = 100;
  let withoutBonuses = 100;
  for (const modifier of modifiers) {
    withBonuses += modifier;
    if (modifier < 0) withoutBonuses += modifier;
  }
  const score = Math.max(withoutBonuses >= MINIMUM_SCORE_FOR_BONUSES ? withBonuses : withoutBonuses, 0);
  const step = Math.min(score - (score % 5), 100);
  return { score, grade: GRADE_CHART.get(step)! };
}
