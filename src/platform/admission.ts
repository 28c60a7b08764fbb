/**
 * Admission control (docs/operations.md "Under load"): what keeps the instance answering when more check
 * requests arrive than it can serve, and sheds only what it cannot serve in time.
 *
 * - At most `maxInFlight` check requests run at once; the next `maxQueued` wait in arrival order.
 * - A request is shed — 503 with Retry-After, before any work or charge, in well under a millisecond —
 *   when the wait it would have is longer than MAX_WAIT_MS: the requests ahead of it over the rate at
 *   which slots free up (measured while every slot is taken, serviceRate), plus how late the event loop
 *   runs (the time its bytes wait before this code even reads them). A queued request that has waited
 *   MAX_WAIT_MS without a slot is shed then (the estimate was wrong, or slots stopped freeing). A full
 *   queue sheds at once: it bounds memory whatever the estimate says.
 *   A busy CPU at full throughput is not overload: 200 clients that wait for their answers queue for a
 *   fraction of MAX_WAIT_MS, and are served; a flood of connections that a worker cannot serve in time is
 *   shed. The event loop's delay alone, the earlier rule, shed the first and kept no one waiting less.
 * - One key holds at most `perKeyInFlight` requests in flight or queued; the next is a 429 that says it
 *   is about concurrency, not the allowance (nothing is charged).
 *
 * Liveness, readiness and metrics never pass through here (src/app.ts), so they answer whatever the load.
 */
export interface AdmissionSettings {
  readonly maxInFlight: number;
  readonly maxQueued: number;
  readonly perKeyInFlight: number;
}

/**
 * The `Retry-After` of a shed request: long enough for the queue in front of it to move, short enough
 * that a client retrying as told does not wait past the overload.
 */
export const SHED_RETRY_AFTER_SECONDS = 2;

/**
 * The longest wait for a slot worth having: a request that would wait longer is told to come back after
 * Retry-After instead, which is no later for it and frees the queue for those who will be served.
 */
export const MAX_WAIT_MS = SHED_RETRY_AFTER_SECONDS * 1000;

export type ShedReason = 'expected-wait' | 'queue-full' | 'queue-wait' | 'key-concurrency';

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

export interface AdmissionState {
  readonly inFlight: number;
  readonly queued: number;
  readonly eventLoopDelayMs: number;
  /** slots freed per second while every slot was taken (recent, decaying); null before any such time */
  readonly servedPerSecond: number | null;
  /** the wait a request arriving now would have, in ms */
  readonly expectedWaitMs: number;
}

export interface Admission {
  /** A ticket once the request may run, or why it may not; `keyId` null for requests without a key. */
  admit(keyId: string | null): Promise<Ticket | Refusal>;
  /** Why the instance should get no new traffic right now (for /readyz), or null. */
  overload(): string | null;
  /** Current counts, for tests and /metrics. */
  state(): AdmissionState;
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

/**
 * How fast slots free up while every slot is taken: completions over busy time, both decaying with a
 * half-life of `halfLifeMs`, so that the rate follows the mix of checks as it changes and an old busy spell
 * fades. Only the time when all slots were taken counts: a slot that frees while others sit idle says what
 * arrives, not what the process can serve. Null until there is evidence (MIN_EVIDENCE).
 */
export interface ServiceRate {
  /** every slot is taken from `at` on (true), or one is free (false) */
  saturated(at: number, saturated: boolean): void;
  /** a slot freed at `at` */
  completed(at: number): void;
  /** completions per ms at `at`, or null */
  perMs(at: number): number | null;
}

/** Slots freed and busy time needed before the rate is trusted: one completion is no rate. */
const MIN_EVIDENCE = { completions: 3, busyMs: 20 };

export function serviceRate(halfLifeMs = 1_000): ServiceRate {
  let busyMs = 0;
  let completions = 0;
  let isSaturated = false;
  let last = 0;
  /** Decays both to `at`, adding the busy time since the last call (integral of an exponential). */
  const advance = (at: number) => {
    const elapsed = Math.max(0, at - last);
    last = at;
    const kept = 0.5 ** (elapsed / halfLifeMs);
    busyMs = busyMs * kept + (isSaturated ? (halfLifeMs / Math.LN2) * (1 - kept) : 0);
    completions *= kept;
  };
  return {
    saturated(at, saturated) {
      advance(at);
      isSaturated = saturated;
    },
    completed(at) {
      advance(at);
      if (isSaturated) completions += 1;
    },
    perMs(at) {
      advance(at);
      if (completions < MIN_EVIDENCE.completions || busyMs < MIN_EVIDENCE.busyMs) return null;
      return completions / busyMs;
    },
  };
}

/** A sensor that is never late, for in-process test apps (ServiceOverrides): no timer per app. */
export const NO_LOOP_DELAY_SENSOR: LoopDelaySensor = { delayMs: () => 0, close() {} };

interface Waiter {
  readonly keyId: string | null;
  readonly resolve: (outcome: Ticket | Refusal) => void;
  readonly timer: NodeJS.Timeout;
}

export function createAdmission(
  settings: AdmissionSettings,
  sensor: LoopDelaySensor = eventLoopDelaySensor(),
  now: () => number = () => performance.now(),
): Admission {
  let inFlight = 0;
  const queue: Waiter[] = [];
  const perKey = new Map<string, number>();
  const rate = serviceRate();

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
  /** Every slot taken: what the rate measures (a queue forms only then). */
  const noteSaturation = () => rate.saturated(now(), inFlight >= settings.maxInFlight);

  /**
   * The wait of a request arriving now, in ms: the loop's persisting delay, plus, when it must queue, the
   * requests ahead of it and itself over the rate slots free up (0 for that part while the rate is unknown:
   * the age in the queue bounds it then).
   */
  const expectedWaitMs = (): number => {
    const late = sensor.delayMs();
    if (inFlight < settings.maxInFlight && queue.length === 0) return late;
    const perMs = rate.perMs(now());
    return late + (perMs === null ? 0 : (queue.length + 1) / perMs);
  };

  const ticket = (keyId: string | null): Ticket => {
    inFlight++;
    noteSaturation();
    let released = false;
    return {
      release() {
        if (released) return;
        released = true;
        rate.completed(now());
        inFlight--;
        dropKey(keyId);
        // Hand the slot to the oldest waiter (FIFO: first come, first served).
        const next = queue.shift();
        if (next) {
          clearTimeout(next.timer);
          next.resolve(ticket(next.keyId));
        } else noteSaturation();
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
      const wait = expectedWaitMs();
      if (wait > MAX_WAIT_MS) {
        return shed('expected-wait', `the service is overloaded (${describeWait(wait, queue.length)})`);
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
            resolve(shed('queue-wait', `the service is overloaded (no slot within ${MAX_WAIT_MS / 1000} s)`));
          }, MAX_WAIT_MS),
        };
        queue.push(waiter);
      });
    },
    overload() {
      const wait = expectedWaitMs();
      if (wait > MAX_WAIT_MS) return `overloaded: ${describeWait(wait, queue.length)}`;
      if (inFlight >= settings.maxInFlight && queue.length >= settings.maxQueued) {
        return `overloaded: ${inFlight} check requests running and ${queue.length} waiting, the most this instance takes`;
      }
      return null;
    },
    state() {
      const perMs = rate.perMs(now());
      return {
        inFlight,
        queued: queue.length,
        eventLoopDelayMs: sensor.delayMs(),
        servedPerSecond: perMs === null ? null : perMs * 1000,
        expectedWaitMs: expectedWaitMs(),
      };
    },
    close() {
      sensor.close();
      for (const waiter of queue.splice(0)) {
        clearTimeout(waiter.timer);
        waiter.resolve(shed('queue-full', 'the service is shutting down'));
      }
    },
  };
}

/** The wait as a refusal and /readyz say it. */
function describeWait(waitMs: number, queued: number): string {
  return `a request would wait about ${(waitMs / 1000).toFixed(1)} s for a slot, ${queued} waiting`;
}
