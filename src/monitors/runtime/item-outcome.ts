/**
 * A monitor item's outcome from the job item's (src/jobs/job-tools.ts `ItemResult`): the single call's
 * `data`, or its error with the stable code its HTTP status stands for (decisions §2), which the history
 * answers and the `failing` event's sentence quotes.
 */
import type { ErrorCode } from '../../errors.js';
import type { ItemResult } from '../../jobs/job-tools.js';
import type { RunOutcome } from '../evaluate.js';
import type { JsonObject } from '../../watch/projection.js';

const CODE_OF_STATUS: Readonly<Record<number, ErrorCode>> = {
  400: 'BAD_INPUT',
  401: 'UNAUTHENTICATED',
  429: 'QUOTA_EXCEEDED',
  502: 'UPSTREAM_FAILED',
  503: 'UNAVAILABLE',
  504: 'UPSTREAM_TIMEOUT',
};

export function codeOfStatus(status: number, message: string): ErrorCode {
  // a refused target is a 400 of its own code (src/errors.ts TargetRefusedError)
  if (status === 400 && message.includes('are refused')) return 'TARGET_REFUSED';
  return CODE_OF_STATUS[status] ?? 'INTERNAL';
}

export function runOutcomeOf(result: ItemResult): RunOutcome {
  if (result.ok && result.data !== null && typeof result.data === 'object' && !Array.isArray(result.data))
    return { ok: true, status: result.status, data: result.data as JsonObject };
  const message = result.error ?? 'the check answered no data';
  const status = result.ok ? 500 : result.status;
  return { ok: false, status, error: { code: codeOfStatus(status, message), message } };
}
