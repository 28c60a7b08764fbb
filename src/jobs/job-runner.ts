/**
 * What runs job items (docs/jobs.md "Where items run"): the embedded runner (./embedded/embedded-runner.ts)
 * in the job worker process, or on Redis the BullMQ worker (./redis/redis-runner.ts) in every instance
 * whose role includes jobs. In tests and in a single process it runs beside the API.
 */
export interface JobStats {
  /** jobs queued and running (this runner's on the embedded store; the deployment's on Redis) */
  readonly jobs: { readonly queued: number; readonly running: number };
  /** items this process has finished since it started (a counter: its rate is items per second) */
  readonly itemsFinished: number;
  /** items waiting to start */
  readonly queueDepth: number;
}

export interface JobRunner {
  stats(): Promise<JobStats>;
  /** stops taking items (shutdown): what is not written runs again at the next start */
  stop(): Promise<void>;
}

/** Most one job's followers hear of it: one push a second, and its end at once (docs/contract/jobs.md "Behaviour"). */
export const CHANGE_PUSH_INTERVAL_MS = 1_000;

/**
 * Pushes a job's changes at most once per CHANGE_PUSH_INTERVAL_MS (the latest one when the interval ends),
 * and an end, or a change marked `atOnce` (a cancellation, which a DELETE waits for), at once.
 */
export function throttledChanges(push: (id: string, ended: boolean) => void): {
  changed(id: string, ended: boolean, atOnce?: boolean): void;
  stop(): void;
} {
  const last = new Map<string, number>();
  const pending = new Map<string, NodeJS.Timeout>();
  return {
    changed(id, ended, atOnce = false) {
      const now = performance.now();
      if (ended || atOnce) {
        clearTimeout(pending.get(id));
        pending.delete(id);
        if (ended) last.delete(id);
        else last.set(id, now);
        push(id, ended);
        return;
      }
      if (pending.has(id)) return;
      const wait = (last.get(id) ?? Number.NEGATIVE_INFINITY) + CHANGE_PUSH_INTERVAL_MS - now;
      if (wait <= 0) {
        last.set(id, now);
        push(id, false);
        return;
      }
      const timer = setTimeout(() => {
        pending.delete(id);
        last.set(id, performance.now());
        push(id, false);
      }, wait);
      timer.unref();
      pending.set(id, timer);
    },
    stop() {
      for (const timer of pending.values()) clearTimeout(timer);
      pending.clear();
    },
  };
}
