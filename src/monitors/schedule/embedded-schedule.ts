/**
 * The embedded schedule (./monitor-schedule.ts): due times in the embedded database
 * (src/platform/embedded-db.ts), handed out by the one process of the instance that runs monitors (the job
 * worker, or the single process), with one timer set to the earliest due time: no loop reads every monitor.
 *
 * Keys:
 *   monitor-due     [dueAt, monitorId] → everyMs   (ordered by time: the earliest is the first key)
 *   monitor-due-of  monitorId          → dueAt      (to replace or remove a monitor's entry)
 *   monitor-handed  [monitorId, dueAt] → true       (handed out and not settled)
 *
 * Handing a due time out is one transaction: the entry moves to the monitor's next due time after now
 * (so due times missed while the instance was down run once, not once per missed interval) and the
 * hand-out is recorded. It is forgotten when its run resolves; a run that throws is handed out again after
 * `retryMs`, and every hand-out still recorded at start (a SIGKILL mid-run) is handed out again, which the
 * store's `beginRun` recognises by its run id (../store/monitor-store.ts). Runs at once are bounded by
 * `concurrency`; due times past that wait in the database, not in memory.
 */
import type { Database } from 'lmdb';
import type { EmbeddedDb } from '../../platform/embedded-db.js';
import type { DueRun, MonitorSchedule } from './monitor-schedule.js';

type Key = (string | number)[];

/** setTimeout's longest delay (about 24.8 days): a later due time is looked at again then. */
const MAX_TIMER_MS = 2 ** 31 - 1;
/** Hand-outs one transaction makes at most. */
const TAKE_BATCH = 64;
const AFTER = '\u0001';

export interface EmbeddedScheduleOptions {
  readonly now: () => number;
  /** a run that threw is handed out again after this */
  readonly retryMs: number;
  /** a schedule was written here: tell the process that hands out due times (the bus; here: wake) */
  readonly announce?: (monitorId: string) => void;
  readonly onError?: (e: unknown) => void;
}

/** The first due time after `now` of a schedule due at `dueAt` every `everyMs`. */
export function nextDueAfter(dueAt: number, everyMs: number, now: number): number {
  if (dueAt > now) return dueAt;
  return dueAt + everyMs * (Math.floor((now - dueAt) / everyMs) + 1);
}

export class EmbeddedSchedule implements MonitorSchedule {
  readonly #root: EmbeddedDb;
  readonly #due: Database<number, Key>;
  readonly #dueOf: Database<number, string>;
  readonly #handed: Database<true, Key>;
  readonly #options: EmbeddedScheduleOptions;
  #run: ((due: DueRun) => Promise<void>) | null = null;
  #concurrency = 1;
  /** hand-outs running here, by `${monitorId} ${dueAt}` */
  readonly #running = new Map<string, Promise<void>>();
  /** hand-outs that threw, waiting for their retry */
  readonly #retries = new Map<string, NodeJS.Timeout>();
  #timer: NodeJS.Timeout | undefined;
  #taking = false;
  #again = false;

  constructor(root: EmbeddedDb, options: EmbeddedScheduleOptions) {
    this.#root = root;
    this.#options = options;
    this.#due = root.openDB({ name: 'monitor-due' });
    this.#dueOf = root.openDB({ name: 'monitor-due-of' });
    this.#handed = root.openDB({ name: 'monitor-handed' });
  }

  async upsert(monitorId: string, everyMs: number, firstDueAt: number): Promise<void> {
    await this.#root.transaction(() => {
      const old = this.#dueOf.get(monitorId);
      if (old !== undefined) this.#due.remove([old, monitorId]);
      this.#due.put([firstDueAt, monitorId], everyMs);
      this.#dueOf.put(monitorId, firstDueAt);
    });
    this.#options.announce?.(monitorId);
  }

  async remove(monitorId: string): Promise<void> {
    await this.#root.transaction(() => {
      const old = this.#dueOf.get(monitorId);
      if (old !== undefined) this.#due.remove([old, monitorId]);
      this.#dueOf.remove(monitorId);
      for (const key of [...this.#handed.getKeys({ start: [monitorId], end: [monitorId + AFTER] })])
        this.#handed.remove(key as Key);
    });
  }

  /** the monitors that have a schedule (the deliverer's start: events a crash left unsent) */
  monitorIds(): string[] {
    return [...this.#dueOf.getKeys()].map(String);
  }

  /** the due time of a monitor's next run, or null */
  dueAt(monitorId: string): number | null {
    return this.#dueOf.get(monitorId) ?? null;
  }

  async start(run: (due: DueRun) => Promise<void>, concurrency: number): Promise<void> {
    this.#run = run;
    this.#concurrency = Math.max(1, concurrency);
    // first what a crash left handed out, then what is due
    const handed = [...this.#handed.getKeys()] as Key[];
    for (const [monitorId, dueAt] of handed) this.#hand({ monitorId: String(monitorId), dueAt: Number(dueAt) });
    this.wake();
  }

  /** looks at the earliest due time again (a schedule written here or by another process) */
  wake(): void {
    if (!this.#run) return;
    if (this.#taking) {
      this.#again = true;
      return;
    }
    this.#taking = true;
    void this.#take()
      .catch((e: unknown) => this.#options.onError?.(e))
      .finally(() => {
        this.#taking = false;
        if (this.#again) {
          this.#again = false;
          this.wake();
        } else this.#arm();
      });
  }

  async #take(): Promise<void> {
    for (;;) {
      const free = this.#concurrency - this.#running.size;
      if (free <= 0 || !this.#run) return;
      const now = this.#options.now();
      const taken = await this.#root.transaction(() => {
        const out: DueRun[] = [];
        for (const { key, value } of this.#due.getRange({ end: [now + 1], limit: Math.min(free, TAKE_BATCH) })) {
          const [dueAt, monitorId] = key as [number, string];
          if (this.#running.has(`${monitorId} ${dueAt}`)) continue;
          const next = nextDueAfter(dueAt, value, now);
          this.#due.remove(key as Key);
          this.#due.put([next, monitorId], value);
          this.#dueOf.put(monitorId, next);
          this.#handed.put([monitorId, dueAt], true);
          out.push({ monitorId, dueAt });
        }
        return out;
      });
      for (const due of taken) this.#hand(due);
      if (taken.length === 0) return;
    }
  }

  #hand(due: DueRun): void {
    const run = this.#run;
    const name = `${due.monitorId} ${due.dueAt}`;
    if (!run || this.#running.has(name)) return;
    const running = (async () => {
      try {
        await run(due);
        await this.#handed.remove([due.monitorId, due.dueAt]);
      } catch (e) {
        this.#options.onError?.(e);
        if (this.#run) {
          const timer = setTimeout(() => {
            this.#retries.delete(name);
            this.#hand(due);
          }, this.#options.retryMs);
          timer.unref();
          this.#retries.set(name, timer);
        }
      } finally {
        this.#running.delete(name);
        this.wake();
      }
    })();
    this.#running.set(name, running);
  }

  #arm(): void {
    clearTimeout(this.#timer);
    this.#timer = undefined;
    if (!this.#run || this.#running.size >= this.#concurrency) return;
    const first = [...this.#due.getKeys({ limit: 1 })][0] as Key | undefined;
    if (!first) return;
    const delay = Math.min(MAX_TIMER_MS, Math.max(0, Number(first[0]) - this.#options.now()));
    this.#timer = setTimeout(() => this.wake(), delay);
    this.#timer.unref();
  }

  async stop(): Promise<void> {
    this.#run = null;
    clearTimeout(this.#timer);
    for (const timer of this.#retries.values()) clearTimeout(timer);
    this.#retries.clear();
    await Promise.all(this.#running.values());
  }
}
