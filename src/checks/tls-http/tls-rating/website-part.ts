/**
 * tls-rating as a part of website-health-check (docs/contract/grades.md "website-health-check"): the light
 * grade of the ssl check's port (run.ts TlsRatingInput.light: versions, each one's preferred suite,
 * certificate and chain, HSTS, in a handful of handshakes), so that the composite stays within its price's
 * connections (docs/tools/notes/website-health-check.md); the full enumeration is tls-rating's. The grade is
 * asked of the loaders as the single check asks a rating (the light grade once per host, port and address
 * per request), so an operation selecting tlsRating for the same site shares the light grade's handshakes.
 * The rating is given the part's bound less RATING_ANSWER_MARGIN_MS, so that a slow server is graded on what
 * was learnt (`partial`) rather than cut off; a rating another field started first keeps that field's
 * bounds, and if it is still running at the part's bound the part is error.
 */
import { listInProse, type HealthCheckStatus } from '../../composite/shared/verdict.js';
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
  const kind = data.light ? 'a light grade of its versions, preferred suites and certificate' : 'SSL Labs method';
  const graded = `The TLS configuration on port ${data.port} grades ${grade.letter} (${kind}, score ${grade.score}${partial})`;
  // what the light grade did not enumerate, tls-rating does
  const full = data.light ? ' Run tls-rating for the full enumeration of suites and groups.' : '';
  const finding = (status: HealthCheckStatus, summary: string) => ({ status, summary: `${summary}${full}`, details });
  if (status === 'ok') return finding(status, `${graded}.`);
  if (grade.letter === 'A-') {
    const warnings = grade.warnings.map((w) => w.reason);
    return finding(status, `${graded}: ${listInProse(warnings)}; fix that for an A+.`);
  }
  const gate = certificateGateReason(data);
  const reasons = [...(gate === null ? [] : [gate]), ...grade.caps.map((c) => c.reason)];
  if (reasons.length === 0) reasons.push(`its score is ${grade.score}`);
  const remedy =
    gate === null
      ? 'turn off the versions and suites named (tls-rating lists each cap)'
      : `install a certificate from a public CA that names ${data.host}, with its full chain`;
  return finding(status, `${graded}: ${listInProse(reasons)}; ${remedy}.`);
}

export const websiteHealthPart = websiteParts.part({
  id: 'tls-rating',
  label: 'TLS rating',
  named: 'a light TLS grade',
  note: "tlsRating in the same GraphQL operation shares the TLS part's handshakes. The TLS rating is a light grade (light: true: versions, each one's preferred suite, certificate and chain, HSTS, in a handful of handshakes, graded by the same rules), so that the check opens at most 10 connections to the site per credit; the full enumeration of suites and groups is tls-rating's.",
  order: 130,
  description: `tls-rating — the SSL Labs grade of the HTTPS port (the ssl check's): ${RATING_STATUS_RULE} A rating its bounds cut short is graded on what it learnt (partial); one that could not finish within the check's bound is error.`,
  fieldDescription: "tls-rating's data for the site's HTTPS port; null when the rating could not run.",
  run: async (site) => {
    const deadlineMs = site.bound.remainingMs() - RATING_ANSWER_MARGIN_MS;
    return tlsRatingFinding(
      await runTlsRating(site.checks, { domain: site.hostname, port: site.sslPort, deadlineMs, light: true }),
    );
  },
});
