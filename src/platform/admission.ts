/**
 * Admission control (docs/operations.md "Under load"): what keeps the instance answering when more check requests
 * arrive than it can serve.
 *
 * - At most `maxInFlight` check requests run at once; the next `maxQueued` wait in arrival order, each
 *   at most `maxQueueWaitMs`. Past that a request is shed: 503 with Retry-After, before any work or
 *   charge, in well under a millisecond.
 * - When the event loop is late by more than `maxEventLoopDelayMs` while check requests are running
 *   (work already admitted saturates the process), new requests are shed at once instead of queueing
 *   behind it. The delay must persist over several sampling periods: one late turn (the start-up's
 *   module loading, the first burst's compilations, a pause of the whole machine) is not saturation,
 *   and shedding on it refused the first requests of a fresh process.
 * - One key holds at most `perKeyInFlight` requests in flight or queued; the next is a 429 that says it
 *   is about concurrency, not the allowance (nothing is charged).
 *
 * Liveness, readiness and metrics never pass through here (src/app.ts), so they answer whatever the load.
 */
export interface AdmissionSettings {
  readonly maxInFlight: number;
  readonly maxQueued: number;
  readonly maxQueueWaitMs: number;
  readonly maxEventLoopDelayMs: number;
  readonly perKeyInFlight: number;
}

/**
 * The `Retry-After` of a shed request: long enough for the queue in front of it to move, short enough
 * that a client retrying as told does not wait past the overload.
 */
export const SHED_RETRY_AFTER_SECONDS = 2;

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

/** How late the event loop runs, in ms: a delay that persisted, not the latest turn's. */
export interface LoopDelaySensor {
  delayMs(): number;
  close(): void;
}

/**
 * A timer that asks to run every `resolutionMs`: how late each run comes is how long the loop was busy
 * before it. The worst lateness of each `periodMs` is one reading, and the delay is the smallest of the
 * last `periods` readings: the delay the loop kept over all of them. A single long turn delays one run
 * only, so it lands in one reading and never counts on its own.
 *
 * Not perf_hooks' monitorEventLoopDelay: its histogram, reset every period, records nothing in a period
 * whose loop turns are longer than the period (a sample is the time between two of its timer's runs, and
 * a reset forgets the first run) — it read 0 exactly when the loop was most overloaded.
 */
export function eventLoopDelaySensor(periodMs = 200, periods = 3, resolutionMs = 10): LoopDelaySensor {
  const readings: number[] = [];
  let worst = 0;
  let periodStart = performance.now();
  let due = periodStart + resolutionMs;
  const timer = setInterval(() => {
    const now = performance.now();
    worst = Math.max(worst, now - due);
    // Node schedules the next run from this one's start.
    due = now + resolutionMs;
    if (now - periodStart < periodMs) return;
    readings.push(worst);
    if (readings.length > periods) readings.shift();
    worst = 0;
    periodStart = now;
  }, resolutionMs);
  timer.unref();
  return {
    delayMs: () => persistingDelay(readings, periods),
    close() {
      clearInterval(timer);
    },
  };
}

/** The delay every one of the last `periods` readings showed; 0 until there are that many. */
export function persistingDelay(readings: readonly number[], periods: number): number {
  if (readings.length < periods) return 0;
  return Math.min(...readings.slice(-periods));
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
    message: `${message}; try again in ${SHED_RETRY_AFTER_SECONDS} s (nothing was charged)`,
    retryAfterSeconds: SHED_RETRY_AFTER_SECONDS,
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

  /**
   * The loop's persisting delay when it is past the bound while checks run, else null: with nothing in
   * flight, admitted work is not what makes the loop late, and refusing the next check relieves nothing.
   */
  const lateLoop = (): number | null => {
    if (settings.maxEventLoopDelayMs <= 0 || inFlight === 0) return null;
    const delay = sensor.delayMs();
    return delay > settings.maxEventLoopDelayMs ? delay : null;
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
      const delay = lateLoop();
      if (delay !== null) {
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
      const delay = lateLoop();
      if (delay !== null) return `overloaded: the event loop runs ${Math.round(delay)} ms late`;
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
