/**
 * tls-rating as a part of website-health-check (docs/contract/grades.md "website-health-check"): the rating
 * of the ssl check's port, asked as the single check asks it (the whole rating once per host, port and
 * address per request: an operation selecting tlsRating for the same site rates it once). The rating is
 * given the part's bound less RATING_ANSWER_MARGIN_MS, so that a slow server is graded on what was learnt
 * (`partial`) rather than cut off; a rating another field started first keeps that field's bounds, and if
 * it is still running at the part's bound the part is error.
 */
import { listInProse } from '../../composite/shared/verdict.js';
import type { Finding } from '../../composite/shared/finding.js';
import { websiteParts } from '../../composite/website-health-check/parts.js';
import { RATING_STATUS_RULE, ratingGradeStatus } from '../../composite/website-health-check/rules.js';
import type { TlsRatingData } from './rating.js';
import { runTlsRating } from './run.js';

/** The TLS rating stops this long before its part's bound, to grade what it learnt and answer in time. */
export const RATING_ANSWER_MARGIN_MS = 1000;

/** What the certificate gate (grades.md step 1) found, for T and M. */
function certificateGateReason(data: TlsRatingData): string | null {
  if (data.grade.letter === 'M') return `the certificate does not name ${data.host}`;
  if (data.grade.letter === 'T') {
    const status = data.certificate?.status;
    return status === undefined || status === 'valid'
      ? 'the certificate is not trusted'
      : `the certificate is ${status}`;
  }
  return null;
}

/**
 * tls-rating's grade of the HTTPS port. The summary names what holds the grade down: the certificate
 * gate, then each cap; for A- the warnings (which describe the configuration whatever the letter, so
 * they are named only where they decide it); a letter under A without a cap is the score's.
 */
export function tlsRatingFinding(data: TlsRatingData): Finding<TlsRatingData> {
  const details = data;
  const { grade } = data;
  const status = ratingGradeStatus(grade.letter);
  const partial = data.partial ? "; partial: the rating's bounds cut the enumeration short" : '';
  const graded = `The TLS configuration on port ${data.port} grades ${grade.letter} (SSL Labs method, score ${grade.score}${partial})`;
  if (status === 'ok') return { status, summary: `${graded}.`, details };
  if (grade.letter === 'A-') {
    const warnings = grade.warnings.map((w) => w.reason);
    return { status, summary: `${graded}: ${listInProse(warnings)}; fix that for an A+.`, details };
  }
  const gate = certificateGateReason(data);
  const reasons = [...(gate === null ? [] : [gate]), ...grade.caps.map((c) => c.reason)];
  if (reasons.length === 0) reasons.push(`its score is ${grade.score}`);
  const remedy =
    gate === null
      ? 'turn off the versions and suites named (tls-rating lists each cap)'
      : `install a certificate from a public CA that names ${data.host}, with its full chain`;
  return { status, summary: `${graded}: ${listInProse(reasons)}; ${remedy}.`, details };
}

export const websiteHealthPart = websiteParts.part({
  id: 'tls-rating',
  label: 'TLS rating',
  order: 130,
  description: `tls-rating — the SSL Labs grade of the HTTPS port (the ssl check's): ${RATING_STATUS_RULE} A rating its bounds cut short is graded on what it learnt (partial); one that could not finish within the check's bound is error.`,
  fieldDescription: "tls-rating's data for the site's HTTPS port; null when the rating could not run.",
  run: async (site) => {
    const deadlineMs = site.bound.remainingMs() - RATING_ANSWER_MARGIN_MS;
    return tlsRatingFinding(await runTlsRating(site.checks, { domain: site.hostname, port: site.sslPort, deadlineMs }));
  },
});
