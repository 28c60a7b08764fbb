/**
 * Bounding a wait without cancelling the work: the caller stops waiting for `work` when its time is up
 * (or its signal aborts) and answers otherwise; the work ends on its own bounds (every probe has them),
 * and its late result or failure is dropped. The timer or listener is released as soon as either side
 * settles, so a bound that is never reached leaves nothing behind.
 */

/** `work`'s outcome, or `onLate()`'s (its value, or what it throws) once `ms` have passed. */
export async function withDeadline<T, L>(work: Promise<T>, ms: number, onLate: () => L): Promise<T | L> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<L>((resolve, reject) => {
    timer = setTimeout(() => {
      try {
        resolve(onLate());
      } catch (e) {
        reject(e);
      }
    }, ms);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** `work`'s outcome, or the error `onAborted()` makes once `signal` aborts (at once when it already has). */
export async function untilAborted<T>(
  work: Promise<T>,
  signal: AbortSignal | undefined,
  onAborted: () => Error,
): Promise<T> {
  if (!signal) return work;
  if (signal.aborted) {
    work.catch(() => {}); // dropped: its failure must not surface as an unhandled rejection
    throw onAborted();
  }
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(onAborted());
    signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    return await Promise.race([work, aborted]);
  } finally {
    if (onAbort) signal.removeEventListener('abort', onAbort);
  }
}

export interface DeadlineSignal {
  /** aborts when the time is up or the caller's signal aborts */
  readonly signal: AbortSignal;
  /** whether the time ran out (rather than the caller's signal ending the work) */
  timedOut(): boolean;
  /** clears the timer and the listener on the caller's signal: call it when the work has ended */
  release(): void;
}

/**
 * One signal for an exchange bounded both by its own time-out and by the caller's signal (an RDAP
 * look-up across its redirects, an IPinfo request), telling afterwards which of the two ended it.
 */
export function deadlineSignal(ms: number, caller?: AbortSignal): DeadlineSignal {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, ms);
  const onCallerAbort = (): void => controller.abort();
  if (caller?.aborted) controller.abort();
  else caller?.addEventListener('abort', onCallerAbort, { once: true });
  return {
    signal: controller.signal,
    timedOut: () => timedOut,
    release: () => {
      clearTimeout(timer);
      caller?.removeEventListener('abort', onCallerAbort);
    },
  };
}
