/**
 * Projections and rankings several watch specs share: grade letters as the health checks judge them,
 * certificate statuses, protocol versions, and the parts of the composite checks.
 */
import { arr, type JsonObject, keyed, obj, str, UNKNOWN } from './projection.js';
import { levels, type Ranking } from './ranking.js';
import type { AnswerStatus, Expiry } from './watch-spec.js';

/**
 * A letter's status as website-health-check judges its rating parts (docs/contract/grades.md
 * "website-health-check"): ok A+ and A, info A- and not graded, warning B+ to C-, critical D+ to F, T and M.
 */
export function letterStatus(letter: string | null): AnswerStatus {
  if (letter === null || letter === 'A-') return 'info';
  if (letter === 'A+' || letter === 'A') return 'ok';
  if (/^[BC][+-]?$/.test(letter)) return 'warning';
  return 'critical';
}

/** The certificate statuses of ssl-checker (and tls-rating, smtp-starttls): anything but valid is critical. */
export const certificateStatus: Ranking = levels(
  { valid: 0, untrusted: 1, 'hostname-mismatch': 1, 'not-yet-valid': 1, expired: 1 },
  ['untrusted', 'hostname-mismatch', 'not-yet-valid', 'expired'],
);

/** A yes/no where yes is the good answer; a no is a warning. */
export const goodWhenTrue: Ranking = levels({ true: 0, false: 1 });

/** A yes/no where no is a critical state. */
export const criticalWhenFalse: Ranking = levels({ true: 0, false: 1 }, ['false']);

/** A yes/no where yes is the bad answer; a yes is a warning. */
export const badWhenTrue: Ranking = levels({ false: 0, true: 1 });

/** A set member (a cap, a warning) whose presence is worse, not critical. */
export const worseWhenPresent: Ranking = (value) => ({ rank: value === null ? 0 : 1, critical: false });

/** Protocol versions a server should no longer offer, and those it should. */
const OLD_VERSIONS = ['SSLv2', 'SSLv3', 'TLSv1', 'TLSv1.1'];
const oldSupported: Ranking = levels({ 'not-supported': 0, 'unable-to-test': 0, supported: 1 });
const currentSupported: Ranking = levels({ supported: 0, 'unable-to-test': 0, 'not-supported': 1 });

/** Ranked paths of a `protocols[<version>]` set: offering an old version, or dropping TLS 1.2/1.3, is worse. */
export function protocolRankings(prefix: string): { pattern: string; ranking: Ranking }[] {
  return [
    ...OLD_VERSIONS.map((v) => ({ pattern: `${prefix}[${v}]`, ranking: oldSupported })),
    ...['TLSv1.2', 'TLSv1.3'].map((v) => ({ pattern: `${prefix}[${v}]`, ranking: currentSupported })),
  ];
}

/** `[{ version, result }]` as `protocols[<version>]: result`. */
export function protocolSet(protocols: unknown) {
  return keyed(
    arr(protocols),
    (p) => str(obj(p).version),
    (p) => str(obj(p).result),
  );
}

/** How near an end date is, as a status: critical within 7 days (or past), warning within 30. */
export function expiryStatus(daysRemaining: number | null): AnswerStatus {
  if (daysRemaining === null) return 'ok';
  if (daysRemaining < 7) return 'critical';
  if (daysRemaining < 30) return 'warning';
  return 'ok';
}

/** The more severe of two answer statuses. */
export function worstStatus(...statuses: AnswerStatus[]): AnswerStatus {
  const order: AnswerStatus[] = ['ok', 'info', 'warning', 'critical'];
  return statuses.reduce((a, b) => (order.indexOf(b) > order.indexOf(a) ? b : a), 'ok');
}

/** A composite check's parts, one status each (`ok | info | warning | critical | error`). */
export interface PartView {
  readonly id: string;
  readonly host: string | null;
  readonly status: string | null;
  /** null when the part errored: what it would say is not known this run */
  readonly details: JsonObject | null;
}

export function partsOf(data: JsonObject): PartView[] {
  return arr(data.checks).map((c) => {
    const part = obj(c);
    const status = str(part.status);
    return {
      id: str(part.id) ?? '',
      host: str(part.host),
      status,
      details: status === 'error' ? null : obj(part.details),
    };
  });
}

/** A value read from a part's details, or UNKNOWN when the part errored. */
export function fromDetails<T>(part: PartView | undefined, read: (details: JsonObject) => T): T | typeof UNKNOWN {
  return part?.details ? read(part.details) : UNKNOWN;
}

/** A composite check's verdict as the state a person sees (its headline is the sentence). */
export function verdictAssessment(data: JsonObject, fallback: string) {
  const verdict = obj(data.verdict);
  const status = str(verdict.status);
  return {
    status: (status === 'ok' || status === 'warning' || status === 'critical' ? status : 'info') as AnswerStatus,
    grade: null,
    summary: sentence(str(verdict.headline) ?? fallback),
  };
}

/** A headline as a sentence: with its full stop. */
function sentence(text: string): string {
  return /[.!?]$/.test(text) ? text : `${text}.`;
}

/** An answer's end date as its expiries: none without a date. */
export function expiryOf(
  kind: Expiry['kind'],
  subject: string,
  description: string,
  expiresAt: string | null,
): Expiry[] {
  return expiresAt === null ? [] : [{ subject, kind, description, expiresAt }];
}

/**
 * A check's `findings` ({ code, severity, message }: caa, security-txt) as a set keyed by code, each holding
 * its severity: a finding that appears or worsens is a change of its own, its message (which may carry a
 * date or a count) is not.
 */
export function findingSet(findings: unknown) {
  return keyed(
    arr(findings),
    (f) => str(obj(f).code),
    (f) => str(obj(f).severity),
  );
}

/** The ranking of findingSet's members: a critical finding appearing is critical news, others worsen. */
export const findingSeverity: Ranking = levels({ info: 1, warning: 2, critical: 3 }, ['critical']);

/** The state a check's findings put it in: the worst finding's severity, ok without any. */
export function findingsStatus(findings: unknown): AnswerStatus {
  return worstStatus(
    ...arr(findings).map((f) => {
      const severity = str(obj(f).severity);
      return severity === 'critical' || severity === 'warning' || severity === 'info' ? severity : 'warning';
    }),
  );
}
