/**
 * Every time bound of the service, in one place:
 * - `withDeadline`: stop waiting for work after a time and answer with a fallback (or its error);
 * - `untilAborted`: stop waiting when a signal aborts;
 * - `Deadline`: one end for work bounded by its own time and the caller's signal, as an AbortSignal
 *   that races promises and explains a failure after the end as the caller's stable error;
 * - `settleWithin`: callback-driven I/O (a DNS exchange) settled once within a deadline.
 * Bounding a wait does not cancel the work: the work ends on its own bounds (every probe has them), and
 * its late result or failure is dropped. Timers and listeners are released as soon as either side
 * settles, so a bound that is never reached leaves nothing behind.
 *
 * The Redis command bound (src/platform/redis.ts) is the one exception, on purpose: it lets one I/O poll
 * through after its timer fires, for a reply that arrived during an event-loop stall and is not read yet.
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

export interface DeadlineOptions {
  /**
   * what the signal aborts with when the time is up (default: a TimeoutError naming the bound); made
   * only then, since a DOMException captures a stack trace when made
   */
  readonly timeoutReason?: () => unknown;
  /** false: the timer does not keep the process alive by itself (a request's bound while stopping) */
  readonly keepsProcessAlive?: boolean;
}

/**
 * One end for a piece of work bounded both by its own time and by the caller's signal (a fetch across
 * its redirects, an RDAP look-up, a DNS exchange, a request): an AbortSignal that aborts at whichever
 * comes first, telling afterwards which of the two it was. Once it has aborted, or once `release` or
 * `end` is called, its timer and its listener on the caller's signal are gone.
 */
export class Deadline {
  readonly #controller = new AbortController();
  readonly #caller: AbortSignal | undefined;
  readonly #endsAt: number;
  #timer: NodeJS.Timeout | undefined;
  #timedOut = false;
  readonly #onCallerAbort = (): void => this.end(this.#caller?.reason);

  constructor(
    readonly ms: number,
    caller?: AbortSignal,
    options: DeadlineOptions = {},
  ) {
    this.#caller = caller;
    this.#endsAt = performance.now() + ms;
    if (caller?.aborted) {
      this.#controller.abort(caller.reason);
      return;
    }
    caller?.addEventListener('abort', this.#onCallerAbort, { once: true });
    this.#timer = setTimeout(() => {
      this.#timedOut = true;
      this.end(options.timeoutReason?.() ?? new DOMException(`the ${ms} ms bound has passed`, 'TimeoutError'));
    }, ms);
    if (options.keepsProcessAlive === false) this.#timer.unref();
  }

  /** aborts when the time is up, the caller's signal aborts or `end` is called */
  get signal(): AbortSignal {
    return this.#controller.signal;
  }

  /** whether the time ran out (rather than the caller's signal or `end` ending the work) */
  timedOut(): boolean {
    return this.#timedOut;
  }

  remainingMs(): number {
    return Math.max(0, this.#endsAt - performance.now());
  }

  /**
   * `work`'s outcome, or `ended()` as soon as the signal aborts (for work that may ignore the signal).
   * A value that arrives once the signal has aborted is not used: the work ended with the deadline.
   */
  race<T>(work: Promise<T>, ended: () => unknown): Promise<T> {
    const signal = this.signal;
    if (signal.aborted) {
      work.catch(() => {}); // dropped: its failure must not surface as an unhandled rejection
      return Promise.reject(ended());
    }
    return new Promise<T>((resolve, reject) => {
      const onAbort = (): void => reject(ended());
      signal.addEventListener('abort', onAbort, { once: true });
      work.then(
        (value) => {
          signal.removeEventListener('abort', onAbort);
          if (signal.aborted) reject(ended());
          else resolve(value);
        },
        (e: unknown) => {
          signal.removeEventListener('abort', onAbort);
          reject(e);
        },
      );
    });
  }

  /** Once the signal has aborted, whatever failed failed because of it: `ended()` instead of `e`. */
  explain(e: unknown, ended: () => unknown): unknown {
    return this.signal.aborted ? ended() : e;
  }

  /** Aborts the signal with `reason` (unless it already has) and releases the timer and the listener. */
  end(reason?: unknown): void {
    this.release();
    if (!this.signal.aborted) this.#controller.abort(reason);
  }

  /** Releases the timer and the listener on the caller's signal: call it when the work has ended. */
  release(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.#caller?.removeEventListener('abort', this.#onCallerAbort);
  }
}

export interface Settle<T> {
  resolve(value: T): void;
  reject(error: Error): void;
}

export interface IoBounds {
  /** performance.now() value at which the work has run out of time */
  readonly endsAt: number;
  readonly signal?: AbortSignal | undefined;
  onTimeout(): Error;
  onAbort(): Error;
}

/**
 * Runs `start`, which begins callback-driven I/O (a socket exchange, a look-up) and returns the function
 * that releases it, within `bounds`. Whatever ends it first, it settles once, and its timer, abort
 * listener and I/O are released on that same path. `start` may settle synchronously; the release then
 * runs as soon as it is known. When the signal has already aborted, `start` is not run.
 */
export function settleWithin<T>(bounds: IoBounds, start: (settle: Settle<T>) => () => void): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const deadline = new Deadline(Math.max(0, bounds.endsAt - performance.now()), bounds.signal);
    let settled = false;
    let release: (() => void) | undefined;
    const finish = (complete: () => void): void => {
      if (settled) return;
      settled = true;
      deadline.release();
      deadline.signal.removeEventListener('abort', onEnd);
      release?.();
      complete();
    };
    const onEnd = (): void => finish(() => reject(deadline.timedOut() ? bounds.onTimeout() : bounds.onAbort()));
    if (deadline.signal.aborted) {
      onEnd();
      return;
    }
    deadline.signal.addEventListener('abort', onEnd, { once: true });
    let releaseIo: () => void;
    try {
      releaseIo = start({
        resolve: (value) => finish(() => resolve(value)),
        reject: (error) => finish(() => reject(error)),
      });
    } catch (error) {
      // a bad argument to a socket call (say, port 0) is a caller's bug: pass it on, but tidily
      finish(() => reject(error));
      return;
    }
    if (settled) releaseIo();
    else release = releaseIo;
  });
}
