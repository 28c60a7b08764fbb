/**
 * `expiring` events (docs/contract/monitors.md "Events"): a certificate or a registration that ends within
 * `warnDays`, announced once per expiry date and threshold crossing, and again at 7 and at 1 day. A new
 * expiry date (a renewal) starts over; several thresholds crossed at once (a first run a few days before
 * the end) make one event, for the nearest.
 */
import type { Severity } from './severity.js';
import type { Expiry } from '../watch/watch-spec.js';

/** What was announced for one subject: the expiry date, and the thresholds (days) already crossed. */
export interface ExpiryAnnounced {
  readonly expiresAt: string;
  readonly thresholds: readonly number[];
}

export type ExpiriesAnnounced = Readonly<Record<string, ExpiryAnnounced>>;

const DAY_MS = 86_400_000;

/** The thresholds in days, farthest first: `warnDays`, then 7 and 1 where they are nearer. */
export function thresholdsOf(warnDays: number): number[] {
  return [...new Set([warnDays, 7, 1])].filter((t) => t <= warnDays).sort((a, b) => b - a);
}

export interface ExpiryNotice {
  readonly expiry: Expiry;
  readonly threshold: number;
  /** days left, rounded down (negative once ended) */
  readonly daysLeft: number;
  readonly severity: Severity;
  readonly summary: string;
}

/**
 * The notices due now, and what is announced after them. Subjects no longer in the answer are forgotten
 * (an MX host removed); an unreadable date is skipped.
 */
export function expiryNotices(
  announced: ExpiriesAnnounced,
  expiries: readonly Expiry[],
  warnDays: number,
  now: Date,
): { notices: ExpiryNotice[]; announced: Record<string, ExpiryAnnounced> } {
  const thresholds = thresholdsOf(warnDays);
  const next: Record<string, ExpiryAnnounced> = {};
  const notices: ExpiryNotice[] = [];
  for (const expiry of expiries) {
    const end = Date.parse(expiry.expiresAt);
    if (Number.isNaN(end)) continue;
    const before = Object.hasOwn(announced, expiry.subject) ? announced[expiry.subject] : undefined;
    const sent = before && before.expiresAt === expiry.expiresAt ? before.thresholds : [];
    const left = (end - now.getTime()) / DAY_MS;
    const crossed = thresholds.filter((t) => left <= t);
    const fresh = crossed.filter((t) => !sent.includes(t));
    next[expiry.subject] = {
      expiresAt: expiry.expiresAt,
      thresholds: [...new Set([...sent, ...crossed])].sort((a, b) => b - a),
    };
    if (fresh.length === 0) continue;
    const threshold = Math.min(...fresh);
    const daysLeft = Math.floor(left);
    notices.push({ expiry, threshold, daysLeft, severity: severityOf(left), summary: sentenceOf(expiry, daysLeft) });
  }
  return { notices, announced: next };
}

function severityOf(daysLeft: number): Severity {
  if (daysLeft <= 1) return 'critical';
  if (daysLeft <= 7) return 'warning';
  return 'info';
}

function sentenceOf(expiry: Expiry, daysLeft: number): string {
  const date = expiry.expiresAt.slice(0, 10);
  const what = expiry.description.charAt(0).toUpperCase() + expiry.description.slice(1);
  if (daysLeft < 0) return `${what} ended on ${date}.`;
  if (daysLeft === 0) return `${what} ends today (${date}).`;
  return `${what} ends in ${daysLeft} day${daysLeft === 1 ? '' : 's'}, on ${date}.`;
}
