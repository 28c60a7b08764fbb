/**
 * The job items' own slot budget (docs/contract/jobs.md "Behaviour": fair and bounded): at most `jobs.concurrency`
 * items run at once in this process, apart from interactive admission (src/platform/admission.ts), whose
 * slots items never take. A free slot goes to the next key in turn, and within that key to its next job
 * in turn, so one key's large job cannot hold back another key's.
 */
export interface SchedulableJob {
  readonly id: string;
  readonly keyId: string;
  /** true while the job has an item that may start */
  hasWork(): boolean;
  /** starts the job's next item; resolves when it has finished */
  runNext(): Promise<void>;
}

/** how long after an interactive request the jobs keep yielding */
const INTERACTIVE_QUIET_MS = 250;

export interface ItemSlots {
  add(job: SchedulableJob): void;
  remove(job: SchedulableJob): void;
  /** a job may have new work (resumed, or an item finished): fill free slots */
  pump(): void;
  readonly running: number;
}

/**
 * `interactiveBusy`: true while interactive check requests run in this process. While it is, and for
 * INTERACTIVE_QUIET_MS after, no new item starts while one is running, so that a single call's answer does
 * not wait behind a job's work on the one event loop (docs/contract/jobs.md "Behaviour": items
 * never take from interactive requests); one item at a time still runs, so that a process never idle of
 * single calls still moves its jobs on.
 */
export function createItemSlots(
  concurrency: number,
  onError: (e: unknown) => void,
  interactiveBusy: () => boolean = () => false,
): ItemSlots {
  const yielding = 1;
  let lastBusy = Number.NEGATIVE_INFINITY;
  /** interactive requests now, or a moment ago: sequential calls of one client leave gaps between them */
  const busy = () => {
    if (interactiveBusy()) lastBusy = performance.now();
    return performance.now() - lastBusy < INTERACTIVE_QUIET_MS;
  };
  /** keys in turn order (a new key joins at the end), each with its jobs in turn order */
  const keys: string[] = [];
  const jobsByKey = new Map<string, SchedulableJob[]>();
  /** the key served last, and per key its job served last: the turn passes to the one after it */
  let lastKey: string | undefined;
  const lastJob = new Map<string, SchedulableJob>();
  let running = 0;
  let quietTimer: NodeJS.Timeout | undefined;

  /** the entries of `ring` starting after `last` (from the start when `last` is not in it) */
  function* after<T>(ring: readonly T[], last: T | undefined): Generator<T> {
    const from = last === undefined ? 0 : ring.indexOf(last) + 1;
    for (let i = 0; i < ring.length; i++) yield ring[(from + i) % ring.length]!;
  }

  function next(): SchedulableJob | null {
    for (const key of after(keys, lastKey)) {
      const jobs = jobsByKey.get(key)!;
      for (const job of after(jobs, lastJob.get(key))) {
        if (!job.hasWork()) continue;
        lastKey = key;
        lastJob.set(key, job);
        return job;
      }
    }
    return null;
  }

  const slots: ItemSlots = {
    add(job) {
      let jobs = jobsByKey.get(job.keyId);
      if (!jobs) {
        jobs = [];
        jobsByKey.set(job.keyId, jobs);
        keys.push(job.keyId);
      }
      if (!jobs.includes(job)) jobs.push(job);
      slots.pump();
    },
    remove(job) {
      const jobs = jobsByKey.get(job.keyId);
      const at = jobs ? jobs.indexOf(job) : -1;
      if (!jobs || at < 0) return;
      // the turn stays where it was: it passes to the job (or key) that followed the removed one
      if (lastJob.get(job.keyId) === job) {
        if (jobs.length > 1) lastJob.set(job.keyId, jobs[(at - 1 + jobs.length) % jobs.length]!);
        else lastJob.delete(job.keyId);
      }
      jobs.splice(at, 1);
      if (jobs.length === 0) {
        jobsByKey.delete(job.keyId);
        const keyAt = keys.indexOf(job.keyId);
        if (lastKey === job.keyId)
          lastKey = keys.length > 1 ? keys[(keyAt - 1 + keys.length) % keys.length] : undefined;
        keys.splice(keyAt, 1);
      }
    },
    pump() {
      for (;;) {
        if (running >= (busy() ? yielding : concurrency)) {
          // held back by interactive requests: the slots fill again once they have been quiet a while
          if (running < concurrency && !quietTimer)
            quietTimer = setTimeout(
              () => {
                quietTimer = undefined;
                slots.pump();
              },
              lastBusy + INTERACTIVE_QUIET_MS - performance.now(),
            );
          quietTimer?.unref();
          return;
        }
        const job = next();
        if (!job) return;
        running++;
        job
          .runNext()
          .catch(onError)
          .finally(() => {
            running--;
            slots.pump();
          });
      }
    },
    get running() {
      return running;
    },
  };
  return slots;
}
