/**
 * What each part of a composite check (website-health-check, mailhealth-check) reports: a status, a
 * summary in words, its details, and — when it could not run — why (decisions §4). Both composites
 * build their parts' findings from these and settle each part the same way.
 */
import { NetdiagError } from '../../../errors.js';
import type { PartBound } from './part-bound.js';
import type { HealthCheckStatus } from './verdict.js';

export interface Finding<D> {
  status: HealthCheckStatus;
  summary: string;
  details: D;
  /** why the check could not run: only with status `error` */
  error?: string;
}

/**
 * A check that could not run: the reason, what to do (`remedy`, after "if it persists,"), and the
 * details of its kind with nothing measured.
 */
export function couldNotRun<D>(reason: string, details: D, remedy: string): Finding<D> {
  return {
    status: 'error',
    error: reason,
    summary: `This check could not run (${withoutFinalStop(reason)}); run the health check again, and if it persists, ${remedy}.`,
    details,
  };
}

/** A reason or remark quoted inside a sentence: trimmed, without its own final full stop. */
export function withoutFinalStop(text: string): string {
  return text.trim().replace(/\.$/, '');
}

/**
 * `part`'s outcome within the composite's bound; when it fails with one of the service's errors (an
 * upstream failure or time-out, a refused target, no resolver) or runs past the bound, `failed` makes
 * the outcome from that error. Anything else is a bug and fails the request (500).
 */
export async function settleWithin<T>(
  bound: PartBound,
  part: Promise<T>,
  failed: (error: NetdiagError) => T,
): Promise<T> {
  try {
    return await bound.race(part);
  } catch (e) {
    if (!(e instanceof NetdiagError)) throw e;
    return failed(e);
  }
}
