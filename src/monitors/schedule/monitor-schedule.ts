/**
 * When monitors run (docs/contract/monitors.md "Behaviour"): each monitor has a due time every `every`;
 * a schedule hands each due time to a run function once. The embedded mode keeps the due times in the
 * embedded database and one process of the instance hands them out; the Redis mode uses the queue
 * library's own job schedulers, so that instances sharing one Redis run a due time once between them.
 *
 * A due time is identified by the monitor and the time (`runIdOf`): a run handed out twice (a crash
 * after the hand-out, before the run committed) is recognised by the store's `beginRun` and not run again.
 */
export interface DueRun {
  readonly monitorId: string;
  /** the due time, in milliseconds since the epoch */
  readonly dueAt: number;
}

export interface MonitorSchedule {
  /** (Re)schedules a monitor: due at `firstDueAt`, then every `everyMs`. Replaces an earlier schedule of it. */
  upsert(monitorId: string, everyMs: number, firstDueAt: number): Promise<void>;
  /** No due time of the monitor is handed out after this resolves. */
  remove(monitorId: string): Promise<void>;
  /**
   * Starts handing due runs to `run` (at most `concurrency` at once); resolves once it hands them out.
   * A run that throws is handed out again later; one that resolves is done.
   */
  start(run: (due: DueRun) => Promise<void>, concurrency: number): Promise<void>;
  /** Stops handing out runs and waits for those handed out to settle. */
  stop(): Promise<void>;
}

/** The store's run id of a due time: ISO 8601, which sorts as text in time order (./store/monitor-store.ts). */
export function runIdOf(due: DueRun): string {
  return new Date(due.dueAt).toISOString();
}
