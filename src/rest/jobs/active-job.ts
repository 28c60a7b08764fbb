/**
 * A job being run by this process. Items start in target order and their outcomes are written to the
 * results journal in target order (a finished item waits in `finished` until those before it are
 * written), so the journal is always a prefix of the job: GET …/results reads it as it is, `?after=N`
 * is a line count, and after a crash the journal's length is where the job resumes (docs/contract/jobs.md
 * "Durable": items that were running, or finished but not yet written, run once more).
 * Counters (`done`, `failed`) count written lines only, so GET and the results never disagree.
 */
import type { Logger } from '../../log.js';
import type { QuotaStore } from '../../platform/quota.js';
import type { ItemOutcome, JobRecord, SubmittedTarget } from './job-record.js';
import type { JobStore } from './job-store.js';
import type { SchedulableJob } from './item-slots.js';
import type { ItemResult } from './run-item.js';

/** Lines written in one journal append at most; a batch is also written when the flush timer fires. */
const BATCH_LINES = 256;
/** How long a finished outcome may wait for its batch: GET's counters lag the work by about this much. */
const FLUSH_DELAY_MS = 100;

export interface ActiveJobDependencies {
  readonly store: JobStore;
  readonly quota: QuotaStore;
  readonly logger: Logger;
  readonly run: (job: JobRecord, target: SubmittedTarget) => Promise<ItemResult>;
  /** the job has ended (done or cancelled) and is written: the owner lets it go */
  readonly ended: (job: ActiveJob) => void;
  readonly now: () => number;
}

export class ActiveJob implements SchedulableJob {
  readonly record: JobRecord;
  readonly #targets: readonly SubmittedTarget[];
  readonly #deps: ActiveJobDependencies;
  /** the next item to start */
  #next: number;
  /** items from here on never start (cancelled) */
  #limit: number;
  /** the next item to write to the journal */
  #nextToWrite: number;
  #inFlight = 0;
  readonly #finished = new Map<number, { line: string; failed: boolean }>();
  #batch: { line: string; failed: boolean }[] = [];
  #flushTimer: NodeJS.Timeout | undefined;
  #writing: Promise<void> = Promise.resolve();
  #ended = false;
  /** items finished since this process took the job, for the estimate */
  #finishedHere = 0;
  readonly #takenAt: number;

  constructor(record: JobRecord, targets: readonly SubmittedTarget[], deps: ActiveJobDependencies) {
    this.record = record;
    this.#targets = targets;
    this.#deps = deps;
    this.#next = record.done;
    this.#limit = record.total - record.cancelled;
    this.#nextToWrite = record.done;
    this.#takenAt = deps.now();
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

  /** writes the end of a job that had nothing left to run when it was taken (a crash after its last line) */
  start(): void {
    if (!this.hasWork()) this.#flushSoon(0);
  }

  /** seconds until the job is expected to end at this process's pace so far; null before anything finished */
  etaSeconds(): number | null {
    if (this.#finishedHere === 0) return null;
    const perItemMs = (this.#deps.now() - this.#takenAt) / this.#finishedHere;
    const left = this.record.total - this.record.done - this.record.cancelled;
    return Math.ceil((left * perItemMs) / 1000);
  }

  async runNext(): Promise<void> {
    const index = this.#next++;
    this.#inFlight++;
    if (this.record.status === 'queued') {
      this.record.status = 'running';
      this.record.startedAt = new Date(this.#deps.now()).toISOString();
      await this.#deps.store.save(this.record, true);
    }
    const target = this.#targets[index]!;
    let result: ItemResult;
    try {
      result = await this.#deps.run(this.record, target);
    } catch (e) {
      this.#deps.logger.error('job_item_failed', { jobId: this.id, index, message: (e as Error).message });
      result = { ok: false, status: 500, error: 'internal error', refund: false };
    }
    if (result.refund) await this.#refund(1, 'refused target');
    const outcome: ItemOutcome = result.ok
      ? { index, target, ok: true, status: result.status, data: result.data }
      : { index, target, ok: false, status: result.status, error: result.error! };
    this.#finished.set(index, { line: JSON.stringify(outcome), failed: !result.ok });
    this.#inFlight--;
    while (this.#finished.has(this.#nextToWrite)) {
      this.#batch.push(this.#finished.get(this.#nextToWrite)!);
      this.#finished.delete(this.#nextToWrite++);
    }
    if (this.#batch.length >= BATCH_LINES || this.#inFlight === 0) this.#flushSoon(0);
    else this.#flushSoon(FLUSH_DELAY_MS);
  }

  /**
   * Cancels (DELETE): items not started never will and are refunded; running ones finish and are written
   * (docs/contract/jobs.md "Endpoints", DELETE). Resolves once the cancellation is written.
   */
  async cancel(): Promise<void> {
    if (this.record.status === 'cancelled' || this.#ended) return;
    const never = this.record.total - this.#next;
    this.#limit = this.#next;
    this.record.status = 'cancelled';
    this.record.cancelled = never;
    await this.#refund(never, 'cancelled');
    await this.#deps.store.save(this.record, true);
    this.#flushSoon(0);
    await this.#writing;
  }

  #flushSoon(delayMs: number): void {
    if (this.#flushTimer && delayMs > 0) return;
    clearTimeout(this.#flushTimer);
    this.#flushTimer = setTimeout(() => {
      this.#flushTimer = undefined;
      this.#writing = this.#writing.then(() => this.#flush()).catch((e) => this.#writeFailed(e));
    }, delayMs);
  }

  async #flush(): Promise<void> {
    const batch = this.#batch;
    this.#batch = [];
    if (batch.length > 0) {
      await this.#deps.store.appendResults(
        this.id,
        batch.map((b) => b.line),
      );
      this.record.done += batch.length;
      this.record.failed += batch.filter((b) => b.failed).length;
      this.#finishedHere += batch.length;
    }
    const settled = this.record.done + this.record.cancelled === this.record.total;
    if (settled && this.#inFlight === 0 && !this.#ended) {
      this.#ended = true;
      if (this.record.status !== 'cancelled') this.record.status = 'done';
      this.record.finishedAt = new Date(this.#deps.now()).toISOString();
      await this.#deps.store.save(this.record, true);
      this.#deps.ended(this);
    } else if (batch.length > 0) {
      // counters only: recovery recounts them from the journal, so this write need not reach the disk
      await this.#deps.store.save(this.record, false);
    }
  }

  #writeFailed(e: unknown): void {
    // The journal could not be written (disk full): the job stops here; the next start resumes it.
    this.#deps.logger.error('job_journal_failed', { jobId: this.id, message: (e as Error).message });
    this.#ended = true;
    this.#deps.ended(this);
  }

  async #refund(items: number, reason: string): Promise<void> {
    const credits = items * this.record.itemCost;
    if (credits === 0 || this.record.chargeId === null) return;
    this.record.refunded += credits;
    try {
      await this.#deps.quota.refund(this.record.keyId, this.record.chargeId, credits);
    } catch (e) {
      // never the reverse: a refund the ledger could not take leaves the caller charged
      this.#deps.logger.error('job_refund_failed', { jobId: this.id, credits, reason, message: (e as Error).message });
    }
  }

  /** stops timers (the process is stopping); what is not written runs again at the next start */
  stop(): void {
    clearTimeout(this.#flushTimer);
    this.#ended = true;
  }
}
