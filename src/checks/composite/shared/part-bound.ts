/**
 * The bound every part of a composite check shares (decisions §8): counted from the start of the
 * check, 5 s under the 30 s composite bound so the other parts' findings and the verdict still reach
 * the caller. A part still running then fails with a ProbeError TIMEOUT, which the composite reports
 * as that part's `error`.
 */
import { withDeadline } from '../../../deadline.js';
import { ProbeError } from '../../../probes/errors.js';

export const COMPOSITE_PART_BOUND_MS = 25_000;

export interface PartBound {
  /** `work`, or ProbeError TIMEOUT once the bound has passed */
  race<T>(work: Promise<T>): Promise<T>;
  /** how long until the bound passes (0 once it has): for a part with bounds of its own to end within it */
  remainingMs(): number;
}

/** The parts of one check share one end: each waits at most until then. */
export function createPartBound(ms: number, upstream: string): PartBound {
  const end = performance.now() + ms;
  const late = (): never => {
    throw new ProbeError(
      'TIMEOUT',
      upstream,
      `this part of the check of ${upstream} did not finish within ${ms / 1000} s`,
    );
  };
  return {
    // each wait releases its own timer when it settles: nothing to dispose of
    race: (work) => withDeadline(work, Math.max(0, end - performance.now()), late),
    remainingMs: () => Math.max(0, end - performance.now()),
  };
}
