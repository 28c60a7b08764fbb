/**
 * The bounds of one tls-rating (docs/contract/grades.md "The grade (the contract)", its last paragraph): at
 * most `handshakes` connections in all, `concurrency` at once, and nothing started or awaited past the
 * deadline. A probe the bounds refuse is `skipped`, and the rating says it is partial. (The process-wide
 * outbound caps apply underneath, in the loaders, and so does the request's connection budget: a probe it
 * refuses — another field of the operation spent it — is skipped the same way.)
 */
import { ConnectionBudgetError } from '../../../loaders/connection-budget.js';

export const SKIPPED: unique symbol = Symbol('skipped');
export type Skipped = typeof SKIPPED;

export interface RatingBudget {
  /** runs `probe` within the bounds; SKIPPED when the budget or the time is spent */
  run<T>(probe: () => Promise<T>): Promise<PromiseSettledResult<T> | Skipped>;
  /** connections started so far */
  readonly used: number;
  /** whether any probe was skipped */
  readonly exhausted: boolean;
  /** what `work` gives, or `fallback` when the deadline comes first (then the rating is partial) */
  within<T, F>(work: Promise<T>, fallback: F): Promise<T | F>;
  /** stops the deadline's timer once the rating is done */
  close(): void;
}

export function createRatingBudget(options: {
  handshakes: number;
  concurrency: number;
  deadlineMs: number;
  now?: () => number;
}): RatingBudget {
  const now = options.now ?? (() => performance.now());
  const deadline = now() + options.deadlineMs;
  let used = 0;
  let active = 0;
  let exhausted = false;
  const waiters: (() => void)[] = [];

  // One timer for the whole rating: whoever is still waiting at the deadline gives up together.
  let expired = false;
  let timer: NodeJS.Timeout | undefined;
  const expiry: Promise<Skipped> = new Promise((resolve) => {
    timer = setTimeout(() => {
      expired = true;
      for (const wake of waiters.splice(0)) wake();
      resolve(SKIPPED);
    }, options.deadlineMs);
    timer.unref();
  });

  const acquire = async (): Promise<boolean> => {
    while (active >= options.concurrency && !expired) await new Promise<void>((resolve) => waiters.push(resolve));
    if (expired || now() >= deadline || used >= options.handshakes) return false;
    used++;
    active++;
    return true;
  };
  const release = (): void => {
    active--;
    waiters.shift()?.();
  };

  return {
    async run<T>(probe: () => Promise<T>): Promise<PromiseSettledResult<T> | Skipped> {
      if (!(await acquire())) {
        exhausted = true;
        return SKIPPED;
      }
      const settled = probe().then(
        (value): PromiseSettledResult<T> => ({ status: 'fulfilled', value }),
        (reason: unknown): PromiseSettledResult<T> => ({ status: 'rejected', reason }),
      );
      settled.finally(release);
      const outcome = await Promise.race([settled, expiry]);
      if (outcome === SKIPPED) {
        exhausted = true;
        return SKIPPED;
      }
      if (outcome.status === 'rejected' && outcome.reason instanceof ConnectionBudgetError) {
        // refused before it connected: not a connection of the rating's
        used--;
        exhausted = true;
        return SKIPPED;
      }
      return outcome;
    },
    get used() {
      return used;
    },
    get exhausted() {
      return exhausted;
    },
    async within<T, F>(work: Promise<T>, fallback: F): Promise<T | F> {
      const outcome = await Promise.race([work, expiry]);
      if (outcome !== SKIPPED) return outcome as T;
      exhausted = true;
      work.catch(() => {});
      return fallback;
    },
    close() {
      clearTimeout(timer);
    },
  };
}
