/**
 * Admission control (README "Under load"): what keeps the instance answering when more check requests
 * arrive than it can serve.
 *
 * - At most `maxInFlight` check requests run at once; the next `maxQueued` wait in arrival order, each
 *   at most `maxQueueWaitMs`. Past that a request is shed: 503 with Retry-After, before any work or
 *   charge, in well under a millisecond.
 * - When the event loop is late by more than `maxEventLoopDelayMs` (work already admitted saturates
 *   the process), new requests are shed at once instead of queueing behind it.
 * - One key holds at most `perKeyInFlight` requests in flight or queued; the next is a 429 that says it
 *   is about concurrency, not the allowance (nothing is charged).
 *
 * Liveness, readiness and metrics never pass through here (src/app.ts), so they answer whatever the load.
 */
import { monitorEventLoopDelay, type IntervalHistogram } from 'node:perf_hooks';

export interface AdmissionSettings {
  readonly maxInFlight: number;
  readonly maxQueued: number;
  readonly maxQueueWaitMs: number;
  readonly maxEventLoopDelayMs: number;
  readonly perKeyInFlight: number;
  readonly retryAfterSeconds: number;
}

export type ShedReason = 'event-loop' | 'queue-full' | 'queue-wait' | 'key-concurrency';

export interface Refusal {
  readonly status: 503 | 429;
  readonly reason: ShedReason;
  readonly message: string;
  readonly retryAfterSeconds: number;
}

export interface Ticket {
  /** Frees the slot (and the key's); idempotent. */
  release(): void;
}

export interface Admission {
  /** A ticket once the request may run, or why it may not; `keyId` null for requests without a key. */
  admit(keyId: string | null): Promise<Ticket | Refusal>;
  /** Why the instance should get no new traffic right now (for /readyz), or null. */
  overload(): string | null;
  /** Current counts, for tests and /metrics. */
  state(): { inFlight: number; queued: number; eventLoopDelayMs: number };
  close(): void;
}

export function isRefusal(outcome: Ticket | Refusal): outcome is Refusal {
  return 'status' in outcome;
}

/** How late the event loop runs: the p99 of the last sampling period, in ms. */
export interface LoopDelaySensor {
  delayMs(): number;
  close(): void;
}

/**
 * perf_hooks' event-loop delay histogram, read and reset every `periodMs`, so the figure follows the
 * last fraction of a second and not the whole life of the process.
 */
export function eventLoopDelaySensor(periodMs = 200): LoopDelaySensor {
  const histogram: IntervalHistogram = monitorEventLoopDelay({ resolution: 10 });
  histogram.enable();
  let latest = 0;
  const timer = setInterval(() => {
    // percentile() is in nanoseconds; the 10 ms sampling resolution is part of every reading.
    latest = Math.max(0, histogram.percentile(99) / 1e6 - 10);
    histogram.reset();
  }, periodMs);
  timer.unref();
  return {
    delayMs: () => latest,
    close() {
      clearInterval(timer);
      histogram.disable();
    },
  };
}

/** For `admission.maxEventLoopDelayMs: 0`: never late, and no monitor running. */
export const NO_LOOP_DELAY_SENSOR: LoopDelaySensor = { delayMs: () => 0, close() {} };

interface Waiter {
  readonly keyId: string | null;
  readonly resolve: (outcome: Ticket | Refusal) => void;
  readonly timer: NodeJS.Timeout;
}

export function createAdmission(
  settings: AdmissionSettings,
  sensor: LoopDelaySensor = eventLoopDelaySensor(),
): Admission {
  let inFlight = 0;
  const queue: Waiter[] = [];
  const perKey = new Map<string, number>();

  const shed = (reason: Exclude<ShedReason, 'key-concurrency'>, message: string): Refusal => ({
    status: 503,
    reason,
    message: `${message}; try again in ${settings.retryAfterSeconds} s (nothing was charged)`,
    retryAfterSeconds: settings.retryAfterSeconds,
  });

  const holdKey = (keyId: string | null) => {
    if (keyId !== null) perKey.set(keyId, (perKey.get(keyId) ?? 0) + 1);
  };
  const dropKey = (keyId: string | null) => {
    if (keyId === null) return;
    const left = (perKey.get(keyId) ?? 1) - 1;
    if (left <= 0) perKey.delete(keyId);
    else perKey.set(keyId, left);
  };

  const ticket = (keyId: string | null): Ticket => {
    inFlight++;
    let released = false;
    return {
      release() {
        if (released) return;
        released = true;
        inFlight--;
        dropKey(keyId);
        // Hand the slot to the oldest waiter (FIFO: first come, first served).
        const next = queue.shift();
        if (next) {
          clearTimeout(next.timer);
          next.resolve(ticket(next.keyId));
        }
      },
    };
  };

  return {
    async admit(keyId) {
      if (keyId !== null && (perKey.get(keyId) ?? 0) >= settings.perKeyInFlight) {
        return {
          status: 429,
          reason: 'key-concurrency',
          message: `this key already has ${settings.perKeyInFlight} requests in flight, the most one key may run at once; wait for one to finish (this is a concurrency limit, not the credit allowance; nothing was charged)`,
          retryAfterSeconds: 1,
        };
      }
      const delay = sensor.delayMs();
      if (settings.maxEventLoopDelayMs > 0 && delay > settings.maxEventLoopDelayMs) {
        return shed('event-loop', `the service is overloaded (its event loop runs ${Math.round(delay)} ms late)`);
      }
      if (inFlight < settings.maxInFlight && queue.length === 0) {
        holdKey(keyId);
        return ticket(keyId);
      }
      if (queue.length >= settings.maxQueued) {
        return shed('queue-full', `the service is overloaded (${inFlight} checks running, ${queue.length} waiting)`);
      }
      holdKey(keyId);
      return new Promise<Ticket | Refusal>((resolve) => {
        const waiter: Waiter = {
          keyId,
          resolve,
          timer: setTimeout(() => {
            const at = queue.indexOf(waiter);
            if (at >= 0) queue.splice(at, 1);
            dropKey(keyId);
            resolve(shed('queue-wait', `the service is overloaded (no slot within ${settings.maxQueueWaitMs} ms)`));
          }, settings.maxQueueWaitMs),
        };
        queue.push(waiter);
      });
    },
    overload() {
      const delay = sensor.delayMs();
      if (settings.maxEventLoopDelayMs > 0 && delay > settings.maxEventLoopDelayMs)
        return `overloaded: the event loop runs ${Math.round(delay)} ms late`;
      if (inFlight >= settings.maxInFlight && queue.length >= settings.maxQueued) {
        return `overloaded: ${inFlight} check requests running and ${queue.length} waiting, the most this instance takes`;
      }
      return null;
    },
    state: () => ({ inFlight, queued: queue.length, eventLoopDelayMs: sensor.delayMs() }),
    close() {
      sensor.close();
      for (const waiter of queue.splice(0)) {
        clearTimeout(waiter.timer);
        waiter.resolve(shed('queue-full', 'the service is shutting down'));
      }
    },
  };
}
