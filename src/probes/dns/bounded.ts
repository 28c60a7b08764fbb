/**
 * One step of a DNS question (a server-name lookup, a UDP or a TCP exchange) run against the
 * question's deadline and the caller's AbortSignal. Whatever ends it first, it settles once, and
 * its timer, abort listener and socket are released on that same path.
 */
import type { ProbeError } from '../errors.js';

export interface Settle<T> {
  resolve(value: T): void;
  reject(error: ProbeError): void;
}

export interface Bounds {
  /** performance.now() value at which the whole question has run out of time */
  readonly deadline: number;
  readonly signal?: AbortSignal | undefined;
  onDeadline(): ProbeError;
  onAbort(): ProbeError;
}

/**
 * Runs `start`, which begins the I/O and returns the function that releases it. `start` may settle
 * synchronously; the release then runs as soon as it is known.
 */
export function runBounded<T>(bounds: Bounds, start: (settle: Settle<T>) => () => void): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    let release: (() => void) | undefined;
    const finish = (complete: () => void): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      bounds.signal?.removeEventListener('abort', onAbort);
      release?.();
      complete();
    };
    const onAbort = (): void => finish(() => reject(bounds.onAbort()));
    const timer = setTimeout(
      () => finish(() => reject(bounds.onDeadline())),
      Math.max(0, bounds.deadline - performance.now()),
    );
    if (bounds.signal?.aborted) {
      onAbort();
      return;
    }
    bounds.signal?.addEventListener('abort', onAbort, { once: true });
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
