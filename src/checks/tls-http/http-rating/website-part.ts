/**
 * http-rating as a part of website-health-check (docs/contract/grades.md "website-health-check"): the
 * rating of the target, asked as the single check asks it (its fetches once per URL per request: an
 * operation selecting httpRating for the same site fetches once).
 */
import { listInProse } from '../../composite/shared/verdict.js';
import { withoutFinalStop, type Finding } from '../../composite/shared/finding.js';
import { websiteParts } from '../../composite/website-health-check/parts.js';
import { RATING_STATUS_RULE, ratingGradeStatus } from '../../composite/website-health-check/rules.js';
import type { HttpRatingResult } from './rating.js';
import { runHttpRating } from './run.js';

/**
 * http-rating's grade of the target. An answer the Observatory does not grade is info with its
 * reason; otherwise the summary names the failed tests.
 */
export function httpRatingFinding(result: HttpRatingResult): Finding<HttpRatingResult> {
  const details = result;
  const status = ratingGradeStatus(result.grade);
  if (result.grade === null) {
    return {
      status,
      summary: `The MDN HTTP Observatory does not grade this answer (${withoutFinalStop(result.error ?? `status ${result.statusCode}`)}).`,
      details,
    };
  }
  const graded = `The MDN HTTP Observatory grades ${result.finalUrl} ${result.grade} (score ${result.score}, ${result.testsPassed} of ${result.testsQuantity} tests passed)`;
  const failed = result.tests.filter((t) => !t.pass).map((t) => t.name);
  if (failed.length === 0) return { status, summary: `${graded}.`, details };
  const which = `failed: ${listInProse(failed)}`;
  if (status === 'ok' || status === 'info') return { status, summary: `${graded}; ${which}.`, details };
  return {
    status,
    summary: `${graded}; ${which}; set the headers these tests read (http-rating says what each found).`,
    details,
  };
}

export const websiteHealthPart = websiteParts.part({
  id: 'http-rating',
  label: 'HTTP security rating',
  note: 'In one GraphQL operation with httpRating of the same site, the site is rated once.',
  order: 140,
  description: `http-rating — the MDN HTTP Observatory's grade of the target: ${RATING_STATUS_RULE}`,
  fieldDescription: "http-rating's data for the target; null when the rating could not run.",
  run: async (site) => httpRatingFinding(await runHttpRating(site.checks, { hostname: site.hostname, url: site.url })),
});
