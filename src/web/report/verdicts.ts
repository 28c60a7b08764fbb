/**
 * The verdicts at the top of a report, one per thing a person came to know — the TLS grade, the HTTP
 * Observatory's grade, the DNSSEC status and its broken link, the mail verdict, the registration's expiry —
 * read from the parts' answers (./sections.ts), and the order of the grades that `--min-grade` compares.
 * Pure: the report page's script and the `netdiag` command both use it.
 */
import { REGISTRATION_WARNING_DAYS, severityOfStatus, type Severity } from './findings.js';
import { REPORT_SECTIONS } from './sections.js';

export interface Verdict {
  /** the section it sums up (its link target on the page) */
  readonly section: string;
  readonly title: string;
  /** the big value: a letter, a status, a date */
  readonly value: string;
  /** one line under it (upstream text: render it as text) */
  readonly detail: string;
  /** null when nothing needs doing */
  readonly severity: Severity | null;
}

type Data = Record<string, unknown>;
const isObject = (v: unknown): v is Data => typeof v === 'object' && v !== null && !Array.isArray(v);
const text = (v: unknown): string => (typeof v === 'string' ? v : v === null || v === undefined ? '' : String(v));

/** Every grade either rating gives, best first (SSL Labs' letters and the Observatory's). */
const GRADE_ORDER = ['A+', 'A', 'A-', 'B+', 'B', 'B-', 'C+', 'C', 'C-', 'D+', 'D', 'D-', 'E', 'F', 'T', 'M'];

/** A grade's rank, 0 the best; -1 for something that is not a grade. */
export function gradeRank(grade: string): number {
  return GRADE_ORDER.indexOf(grade.trim().toUpperCase());
}

export function isGrade(grade: string): boolean {
  return gradeRank(grade) >= 0;
}

/** true when `grade` is `minimum` or better; a missing grade never is. */
export function meetsGrade(grade: string | null | undefined, minimum: string): boolean {
  if (!grade || !isGrade(grade)) return false;
  return gradeRank(grade) <= gradeRank(minimum);
}

/**
 * A grade's severity as website-health-check judges its rating parts (docs/contract/grades.md
 * "website-health-check"): A+ to A- fine, B+ to C- a warning, D+ and worse critical.
 */
export function gradeSeverity(grade: string): Severity | null {
  const rank = gradeRank(grade);
  if (rank < 0) return 'warning';
  if (rank <= gradeRank('A-')) return null;
  if (rank <= gradeRank('C-')) return 'warning';
  return 'critical';
}

function statusSeverity(status: string): Severity | null {
  return status === 'critical' || status === 'bogus'
    ? 'critical'
    : status === 'warning' || status === 'indeterminate' || status === 'error'
      ? 'warning'
      : null;
}

/**
 * The rating a website-health-check part carries (null when the part failed): under `key` in GraphQL's
 * answer, or the details themselves in REST's, where the REST document flattens it.
 */
export function websitePart(website: Data, id: string, key: string): Data | null {
  const checks = Array.isArray(website.checks) ? website.checks.filter(isObject) : [];
  const details = checks.find((c) => c.id === id)?.details;
  if (!isObject(details)) return null;
  const part = details[key];
  if (isObject(part)) return part;
  return key in details || !('grade' in details) ? null : details;
}

export function tlsVerdict(rating: Data | null): Verdict {
  const grade = isObject(rating?.grade) ? rating.grade : null;
  if (!rating || !grade) {
    return { section: 'tls', title: 'TLS grade', value: '–', detail: 'not rated', severity: 'warning' };
  }
  const letter = text(grade.letter);
  const caps = Array.isArray(grade.caps) ? grade.caps.length : 0;
  const warnings = Array.isArray(grade.warnings) ? grade.warnings.length : 0;
  const parts = [`score ${text(grade.score)}`];
  if (letter !== text(grade.letterIgnoringTrust)) parts.push(`${text(grade.letterIgnoringTrust)} if trusted`);
  parts.push(`${caps} cap${caps === 1 ? '' : 's'}`, `${warnings} warning${warnings === 1 ? '' : 's'}`);
  if (rating.partial === true) parts.push('partial');
  return {
    section: 'tls',
    title: 'TLS grade',
    value: letter,
    detail: parts.join(' · '),
    severity: gradeSeverity(letter),
  };
}

export function observatoryVerdict(rating: Data | null): Verdict {
  if (!rating || rating.grade === null || rating.grade === undefined) {
    const why = text(rating?.error) || 'not rated';
    return { section: 'observatory', title: 'HTTP security', value: '–', detail: why, severity: 'warning' };
  }
  const grade = text(rating.grade);
  return {
    section: 'observatory',
    title: 'HTTP security',
    value: grade,
    detail: `score ${text(rating.score)} · ${text(rating.testsPassed)} of ${text(rating.testsQuantity)} tests passed`,
    severity: gradeSeverity(grade),
  };
}

export function dnssecVerdict(chain: Data): Verdict {
  const status = text(chain.status);
  const broken = isObject(chain.brokenLink) ? chain.brokenLink : null;
  return {
    section: 'dnssec',
    title: 'DNSSEC',
    value: status,
    detail: broken
      ? `broken at ${text(broken.zone)}: ${text(broken.code)}`
      : status === 'secure'
        ? 'every link from the root verifies'
        : status === 'insecure'
          ? 'not signed (an unsigned delegation ends the chain)'
          : `${Array.isArray(chain.chain) ? chain.chain.length : 0} zones`,
    severity: status === 'insecure' ? 'info' : statusSeverity(status),
  };
}

export function compositeVerdict(section: 'mail' | 'website', title: string, data: Data): Verdict {
  const verdict = isObject(data.verdict) ? data.verdict : {};
  const status = text(verdict.status);
  return { section, title, value: status, detail: text(verdict.headline), severity: statusSeverity(status) };
}

export function registrationVerdict(whois: Data): Verdict {
  if (whois.notFound === true) {
    return {
      section: 'registration',
      title: 'Registration',
      value: 'not found',
      detail: text(whois.message),
      severity: 'info',
    };
  }
  const days = typeof whois.daysUntilExpiry === 'number' ? whois.daysUntilExpiry : null;
  const expiry = text(whois.expiryDate);
  return {
    section: 'registration',
    title: 'Registration',
    value: expiry ? expiry.slice(0, 10) : 'unknown',
    detail: days === null ? 'expiry not published' : days < 0 ? `expired ${-days} days ago` : `expires in ${days} days`,
    severity: days === null ? null : days < 0 ? 'critical' : days <= REGISTRATION_WARNING_DAYS ? 'warning' : null,
  };
}

/** The status of one check of a composite answer, for a section that shows it alone (sections.ts `check`). */
export function checkVerdict(section: string, title: string, data: Data, id: string): Verdict {
  const checks = Array.isArray(data.checks) ? data.checks.filter(isObject) : [];
  const check = checks.find((c) => c.id === id);
  if (!check) return { section, title, value: '–', detail: 'not checked', severity: 'warning' };
  const status = text(check.status);
  return {
    section,
    title,
    value: status,
    detail: text(check.error) || text(check.summary),
    severity: severityOfStatus(status),
  };
}

/** The verdicts one part's answer gives, in the order the page shows them. */
export function verdictsOf(part: string, data: unknown): Verdict[] {
  if (!isObject(data)) return [];
  switch (part) {
    case 'website':
      return [
        tlsVerdict(websitePart(data, 'tls-rating', 'tlsRating')),
        observatoryVerdict(websitePart(data, 'http-rating', 'httpRating')),
        ...REPORT_SECTIONS.filter((s) => s.part === 'website' && s.check).map((s) =>
          checkVerdict(s.id, s.title, data, s.check!),
        ),
        compositeVerdict('website', 'Website', data),
      ];
    case 'dnssec':
      return [dnssecVerdict(data)];
    case 'mail':
      return [compositeVerdict('mail', 'Mail', data)];
    case 'registration':
      return [registrationVerdict(data)];
    default:
      return [];
  }
}
