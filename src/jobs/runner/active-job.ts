/**
 * A job being run by the embedded runner. Items start in target order and their outcomes are written in
 * target order (a finished item waits in `finished` until those before it are written), so the written
 * results are always the first `done` items: GET …/results reads them as they are, `?after=N` is an index,
 * and after a crash the job resumes at `done` (docs/contract/jobs.md "Behaviour": items that were running,
 * or finished but not yet written, run once more). Counters count written items only, so GET and the
 * results never disagree. Credits go back after the outcome that earns them is written, never before:
 * a crash in between leaves the caller charged rather than refunded twice.
 */
import type { Logger } from '../../log.js';
import type { JobRecord } from '../job-record.js';
import type { ItemOutcome, SubmittedTarget } from '../job-shape.js';
import type { ItemResult } from '../job-tools.js';
import type { SchedulableJob } from './item-slots.js';

/** Items written in one batch at most; a batch is also written when the flush timer fires. */
const BATCH_ITEMS = 256;
/** How long a finished outcome may wait for its batch: GET's counters lag the work by about this much. */
const FLUSH_DELAY_MS = 100;

export interface ActiveJobDependencies {
  /** writes outcome lines after the record's `done` items and counts them on the record, in one step */
  readonly writeResults: (record: JobRecord, lines: readonly { line: string; failed: boolean }[]) => void;
  /** writes a status change */
  readonly save: (record: JobRecord) => void;
  /** writes the ended job (done or cancelled) */
  readonly finish: (record: JobRecord) => void;
  /** gives back `items` × the item price of the job's charge */
  readonly refund: (record: JobRecord, items: number, reason: string) => Promise<void>;
  readonly logger: Logger;
  readonly run: (job: JobRecord, target: SubmittedTarget) => Promise<ItemResult>;
  /** the written state moved on (items written, a status change): for the job's followers */
  readonly changed: (job: ActiveJob) => void;
  /** the job has ended and is written: the runner lets it go */
  readonly ended: (job: ActiveJob) => void;
  readonly now: () => number;
}

interface Finished {
  readonly line: string;
  readonly failed: boolean;
  readonly refund: boolean;
}

export class ActiveJob implements SchedulableJob {
  readonly record: JobRecord;
  readonly #targets: readonly SubmittedTarget[];
  readonly #deps: ActiveJobDependencies;
  /** the next item to start */
  #next: number;
  /** items from here on never start (cancelled) */
  #limit: number;
  #inFlight = 0;
  readonly #finished = new Map<number, Finished>();
  /** the next item whose outcome joins the batch */
  #nextInOrder: number;
  #batch: Finished[] = [];
  #flushTimer: NodeJS.Timeout | undefined;
  #ended = false;

  constructor(record: JobRecord, targets: readonly SubmittedTarget[], deps: ActiveJobDependencies) {
    this.record = record;
    this.#targets = targets;
    this.#deps = deps;
    this.#next = record.done;
    this.#nextInOrder = record.done;
    this.#limit = record.total - record.cancelled;
  }

  /** items not started yet that will be */
  get waiting(): number {
    return Math.max(0, this.#limit - this.#next);
  }

  get id(): string {
    return this.record.id;
  }

  get keyId(): string {
    return this.record.keyId;
  }

  hasWork(): boolean {
    return !this.#ended && this.#next < this.#limit;
  }

  /** writes the end of a job that had nothing left to run when it was taken (a crash after its last item) */
  start(): void {
    if (!this.hasWork()) this.#flushSoon(0);
  }

  async runNext(): Promise<void> {
    const index = this.#next++;
    this.#inFlight++;
    if (this.record.status === 'queued') {
      this.record.status = 'running';
      this.record.startedAt = new Date(this.#deps.now()).toISOString();
      this.#write(() => this.#deps.save(this.record));
      this.#deps.changed(this);
    }
    const target = this.#targets[index]!;
    let result: ItemResult;
    try {
      result = await this.#deps.run(this.record, target);
    } catch (e) {
      this.#deps.logger.error('job_item_failed', { jobId: this.id, index, message: (e as Error).message });
      result = { ok: false, status: 500, error: 'internal error', refund: false };
    }
    const outcome: ItemOutcome = result.ok
      ? { index, target, ok: true, status: result.status, data: result.data }
      : { index, target, ok: false, status: result.status, error: result.error! };
    this.#finished.set(index, { line: JSON.stringify(outcome), failed: !result.ok, refund: result.refund });
    this.#inFlight--;
    while (this.#finished.has(this.#nextInOrder)) {
      this.#batch.push(this.#finished.get(this.#nextInOrder)!);
      this.#finished.delete(this.#nextInOrder++);
    }
    this.#flushSoon(this.#batch.length >= BATCH_ITEMS || this.#inFlight === 0 ? 0 : FLUSH_DELAY_MS);
  }

  /**
   * Cancels: items not started never will and are refunded; running ones finish and are written
   * (docs/jobs.md "Endpoints", DELETE).
   */
  async cancel(): Promise<void> {
    if (this.record.status === 'cancelled' || this.#ended) return;
    const never = this.record.total - this.#next;
    this.#limit = this.#next;
    this.record.status = 'cancelled';
    this.record.cancelled = never;
    this.record.refunded += never * this.record.itemCost;
    if (!this.#write(() => this.#deps.save(this.record))) return;
    this.#deps.changed(this);
    await this.#deps.refund(this.record, never, 'cancelled');
    this.#flushSoon(0);
  }

  #flushSoon(delayMs: number): void {
    if (this.#flushTimer && delayMs > 0) return;
    clearTimeout(this.#flushTimer);
    this.#flushTimer = setTimeout(() => {
      this.#flushTimer = undefined;
      void this.#flush();
    }, delayMs);
  }

  async #flush(): Promise<void> {
    if (this.#ended) return;
    const batch = this.#batch;
    this.#batch = [];
    if (batch.length > 0) {
      const refunds = batch.filter((b) => b.refund).length;
      this.record.refunded += refunds * this.record.itemCost;
      if (!this.#write(() => this.#deps.writeResults(this.record, batch))) return;
      if (refunds > 0) await this.#deps.refund(this.record, refunds, 'refused target');
    }
    const settled = this.record.done + this.record.cancelled === this.record.total;
    if (settled && this.#inFlight === 0 && !this.#ended) {
      if (this.record.status !== 'cancelled') this.record.status = 'done';
      this.record.finishedAt = new Date(this.#deps.now()).toISOString();
      if (!this.#write(() => this.#deps.finish(this.record))) return;
      this.#ended = true;
      this.#deps.changed(this);
      this.#deps.ended(this);
    } else if (batch.length > 0) {
      this.#deps.changed(this);
    }
  }

  /** a write, or the job stops here when it fails (a full disk): the next start resumes it */
  #write(write: () => void): boolean {
    try {
      write();
      return true;
    } catch (e) {
      this.#deps.logger.error('job_write_failed', { jobId: this.id, message: (e as Error).message });
      this.#ended = true;
      clearTimeout(this.#flushTimer);
      this.#deps.ended(this);
      return false;
    }
  }

  /** stops timers (the process is stopping); what is not written runs again at the next start */
  stop(): void {
    clearTimeout(this.#flushTimer);
    this.#ended = true;
  }
}
