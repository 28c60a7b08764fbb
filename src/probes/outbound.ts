/**
 * Process-wide bounds on outbound work (docs/operations.md "Under load"), shared by every request:
 *
 * - a cap per upstream family on questions in flight (DNS questions, TCP connects, TLS handshakes,
 *   HTTP fetches, ping processes, WHOIS and RDAP look-ups); a question past the cap waits its turn in
 *   arrival order, for as long as its request's signal allows (the request's deadline);
 * - coalescing: identical questions in flight at the same time, from any requests, are asked once and
 *   share the answer (the per-request loaders already ask each question once per request).
 */
import { untilAborted } from '../deadline.js';
import { ProbeError } from './errors.js';

/** The upstream families with a process-wide cap. */
export const LIMITED_FAMILIES = ['dns', 'tcp', 'tls', 'http', 'ping', 'whois', 'rdap', 'smtp'] as const;
export type LimitedFamily = (typeof LIMITED_FAMILIES)[number];

/**
 * Questions in flight at once per process, by family. They are the service's own bounds, not
 * configuration: they keep a burst within the process's sockets, child processes and the upstreams'
 * patience, while a request's deadline and admission (`admission.maxInFlight`) are what an operator sizes.
 * Cheap, quickly answered DNS questions get the most room; ping spawns a process per question, and
 * registries and mail servers throttle a client that asks too much at once.
 */
export const OUTBOUND_CAPS: Readonly<Record<LimitedFamily, number>> = {
  dns: 512,
  tcp: 256,
  tls: 128,
  http: 128,
  ping: 16,
  whois: 32,
  rdap: 64,
  smtp: 32,
};

export interface Outbound {
  readonly limits: Readonly<Record<LimitedFamily, Limiter>>;
  readonly coalescer: Coalescer;
}

export function createOutbound(caps: Readonly<Record<LimitedFamily, number>> = OUTBOUND_CAPS): Outbound {
  const limits = Object.fromEntries(LIMITED_FAMILIES.map((f) => [f, createLimiter(caps[f])])) as Record<
    LimitedFamily,
    Limiter
  >;
  return { limits, coalescer: createCoalescer() };
}

/** A FIFO counting semaphore whose waiters give up when their signal aborts. */
export interface Limiter {
  run<T>(work: () => Promise<T>, signal: AbortSignal, what: string): Promise<T>;
  readonly active: number;
  readonly waiting: number;
}

export function createLimiter(capacity: number): Limiter {
  let active = 0;
  const waiters: Array<() => void> = [];

  const acquire = (signal: AbortSignal, what: string): Promise<void> => {
    if (signal.aborted) return Promise.reject(aborted(what, WAITING_FOR_SLOT));
    if (active < capacity) {
      active++;
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const grant = () => {
        signal.removeEventListener('abort', giveUp);
        active++;
        resolve();
      };
      const giveUp = () => {
        const at = waiters.indexOf(grant);
        if (at >= 0) waiters.splice(at, 1);
        reject(aborted(what, WAITING_FOR_SLOT));
      };
      waiters.push(grant);
      signal.addEventListener('abort', giveUp, { once: true });
    });
  };
  const release = () => {
    active--;
    waiters.shift()?.();
  };

  return {
    async run(work, signal, what) {
      await acquire(signal, what);
      try {
        return await work();
      } finally {
        release();
      }
    },
    get active() {
      return active;
    },
    get waiting() {
      return waiters.length;
    },
  };
}

const WAITING_FOR_SLOT = 'waited for a free outbound slot (the service is busy)';
const WAITING_FOR_ANSWER = 'waited for the answer';

function aborted(what: string, doing: string): ProbeError {
  return new ProbeError('ABORTED', what, `the request ended while ${what} ${doing}`);
}

/** Identical questions in flight share one answer; `size` is how many distinct ones are in flight. */
export interface Coalescer {
  /**
   * The answer of the question `key`, asking it (with `ask`, which must not depend on the caller's
   * signal) only when no identical one is in flight. Each caller still stops waiting when its own
   * signal aborts; the shared question runs on to its own bound for the others.
   */
  run<T>(key: string, ask: () => Promise<T>, signal: AbortSignal, what: string): Promise<T>;
  readonly size: number;
}

export function createCoalescer(): Coalescer {
  const inFlight = new Map<string, Promise<unknown>>();
  return {
    run<T>(key: string, ask: () => Promise<T>, signal: AbortSignal, what: string): Promise<T> {
      let shared = inFlight.get(key) as Promise<T> | undefined;
      if (!shared) {
        shared = ask().finally(() => inFlight.delete(key));
        inFlight.set(key, shared);
        // A question whose every caller gave up still settles; nobody is left to see its error.
        shared.catch(() => {});
      }
      return untilAborted(shared, signal, () => aborted(what, WAITING_FOR_ANSWER));
    },
    get size() {
      return inFlight.size;
    },
  };
}
