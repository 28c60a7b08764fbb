/**
 * The embedded job store: named databases of the instance's embedded database (src/platform/embedded-db.ts,
 * LMDB in `server.dataDir`), shared by the API workers, which submit, read and cancel, and the job worker,
 * which runs the jobs (docs/jobs.md "Durability").
 *
 *   jobs          id → the job's record
 *   job-targets   id → the targets as submitted
 *   job-results   [id, index] → the item's outcome line: results are read by index range, never whole
 *   jobs-by-key   [keyId, id] → 1: a key's jobs newest first (ids sort by creation time), a range read
 *   job-slots     [keyId, n] → id, n < `jobs.maxActivePerKey`: the key's queued or running jobs. A job
 *                 takes a free slot in the same conditional write that stores it (`ifNoExists`, decided
 *                 inside LMDB's write transaction, which every process of the instance takes in turn),
 *                 so concurrent submissions of one key on any worker cannot pass the limit together; the
 *                 job frees its slot when it ends. Every slot is an unfinished job: the job worker's list at
 *                 start, without reading any other job.
 *   job-cancels   id → 1: a cancellation asked by an API worker, applied by the job worker
 *   job-callbacks id → 1: an ended job whose callback is still to be sent
 *   job-expiry    [finishedAt ms, id] → 1: ended jobs by age, for the retention sweep
 *
 * The job worker writes a batch of results and the job's counters in one transaction, so the results are
 * always the first `done` items of the job: after a crash the job resumes at `done`, and an item that
 * was running runs once more and is written over its own index.
 *
 * Steps that must be one are synchronous transactions (`transactionSync`) in the job worker, which serves
 * no request, and conditional writes (`ifNoExists`) in the API workers, which never wait on a commit.
 * lmdb-js's asynchronous `transaction()` is not used: its callback, called back from the write thread,
 * never ran under the tests of this project.
 */
import type { Database, RootDatabase } from 'lmdb';
import { openEmbeddedDb } from '../../platform/embedded-db.js';
import { isActive, isJobId, type JobRecord } from '../job-record.js';
import type { SubmittedTarget } from '../job-shape.js';
import type { CreateOutcome, JobPageOfRecords, JobStore } from '../job-store.js';

/** Results read per range: a slow reader of a long job never holds a read transaction open between pages. */
const RESULTS_PAGE = 256;
/** Ended jobs removed per sweep transaction. */
const SWEPT_PER_ROUND = 16;

/** A stored job: its record and the active-job slot it holds while queued or running. */
type StoredJob = JobRecord & { readonly slot: number };

type Key = (string | number)[];

export interface EmbeddedJobStore extends JobStore {
  /** the record now (LMDB reads are synchronous) */
  readSync(id: string): JobRecord | null;
  /** ids of every unfinished job (each holds a slot) */
  unfinished(): string[];
  /** ids of ended jobs whose callback is still to be sent */
  pendingCallbacks(): string[];
  readTargets(id: string): SubmittedTarget[] | null;
  cancelRequested(id: string): boolean;
  /** writes `lines` as the outcomes of items `record.done`, `record.done + 1`, … and the record counted on */
  writeResults(record: JobRecord, lines: readonly { line: string; failed: boolean }[]): void;
  /** writes the record's status and counters */
  save(record: JobRecord): void;
  /** writes the ended job: its record, its slot freed, its place in the retention order, its callback due */
  finish(record: JobRecord): void;
  /** the ended job's callback is settled (delivered or failed) */
  callbackSettled(record: JobRecord): void;
  /** removes jobs that ended more than `retentionMs` before `now`; returns how many */
  sweep(now: number, retentionMs: number): number;
}

/** the range of keys that start with `prefix` (LMDB orders array keys element by element) */
const under = (prefix: string) => ({ start: [prefix], end: [`${prefix}\u0000`] });

export function openEmbeddedJobStore(dataDir: string): EmbeddedJobStore {
  const root: RootDatabase = openEmbeddedDb(dataDir);
  const jobs: Database<StoredJob, string> = root.openDB({ name: 'jobs' });
  const targets: Database<SubmittedTarget[], string> = root.openDB({ name: 'job-targets' });
  const results: Database<string, Key> = root.openDB({ name: 'job-results' });
  const byKey: Database<number, Key> = root.openDB({ name: 'jobs-by-key' });
  const slots: Database<string, Key> = root.openDB({ name: 'job-slots' });
  const cancels: Database<number, string> = root.openDB({ name: 'job-cancels' });
  const callbacks: Database<number, string> = root.openDB({ name: 'job-callbacks' });
  const expiry: Database<number, Key> = root.openDB({ name: 'job-expiry' });

  const read = (id: string): StoredJob | null => (isJobId(id) ? (jobs.get(id) ?? null) : null);
  const stored = (record: JobRecord): StoredJob => {
    const slot = (record as Partial<StoredJob>).slot ?? read(record.id)?.slot ?? -1;
    return { ...record, slot };
  };
  const plain = (job: StoredJob): JobRecord => {
    const { slot: _slot, ...record } = job;
    return record;
  };

  function removeJob(id: string, keyId: string, finishedAtMs: number): void {
    for (const key of results.getKeys(under(id))) results.remove(key);
    jobs.remove(id);
    targets.remove(id);
    byKey.remove([keyId, id]);
    cancels.remove(id);
    callbacks.remove(id);
    expiry.remove([finishedAtMs, id]);
  }

  return {
    async create(record, submitted, maxActive): Promise<CreateOutcome> {
      // Each free slot in turn: the write happens only if the slot is still free when LMDB commits it.
      for (;;) {
        const taken = new Set([...slots.getKeys(under(record.keyId))].map((key) => key[1] as number));
        const free = Array.from({ length: maxActive }, (_, n) => n).find((n) => !taken.has(n));
        if (free === undefined || taken.size >= maxActive) return { ok: false, active: taken.size };
        const written = await slots.ifNoExists([record.keyId, free], () => {
          slots.put([record.keyId, free], record.id);
          jobs.put(record.id, { ...record, slot: free });
          targets.put(record.id, [...submitted]);
          byKey.put([record.keyId, record.id], 1);
        });
        if (written) return { ok: true };
      }
    },
    async activeCount(keyId) {
      return slots.getKeysCount(under(keyId));
    },
    async read(id) {
      const job = read(id);
      return job ? plain(job) : null;
    },
    async page(keyId, limit, cursor): Promise<JobPageOfRecords> {
      // from the cursor itself (when it still exists) down: one more than the page tells whether more follow
      const ids = [
        ...byKey.getKeys({
          start: [keyId, cursor ?? '\uffff'],
          end: [keyId],
          reverse: true,
          limit: limit + (cursor === null ? 1 : 2),
        }),
      ]
        .map((key) => key[1] as string)
        .filter((id) => id !== cursor);
      const records = ids
        .slice(0, limit)
        .map((id) => read(id))
        .filter((job): job is StoredJob => job !== null)
        .map(plain);
      return { records, nextCursor: ids.length > limit ? ids[limit - 1]! : null };
    },
    async *results(record, after) {
      // what is written when asked: lines written while the answer streams are not added to it
      const end = record.done;
      for (let from = after + 1; from < end; from += RESULTS_PAGE) {
        const page = [
          ...results.getRange({ start: [record.id, from], end: [record.id, Math.min(end, from + RESULTS_PAGE)] }),
        ].map((entry) => entry.value);
        for (const line of page) yield line;
      }
    },
    async cancel(record) {
      await cancels.put(record.id, 1);
      return record;
    },
    readSync(id) {
      const job = read(id);
      return job ? plain(job) : null;
    },
    unfinished() {
      return [...slots.getRange({})].map((entry) => entry.value);
    },
    pendingCallbacks() {
      return [...callbacks.getKeys({})];
    },
    readTargets(id) {
      return targets.get(id) ?? null;
    },
    cancelRequested(id) {
      return cancels.get(id) !== undefined;
    },
    writeResults(record, lines) {
      root.transactionSync(() => {
        for (const [i, { line }] of lines.entries()) results.put([record.id, record.done + i], line);
        record.done += lines.length;
        record.failed += lines.filter((l) => l.failed).length;
        jobs.put(record.id, stored(record));
      });
    },
    save(record) {
      root.transactionSync(() => jobs.put(record.id, stored(record)));
    },
    finish(record) {
      root.transactionSync(() => {
        const job = stored(record);
        jobs.put(record.id, job);
        if (slots.get([record.keyId, job.slot]) === record.id) slots.remove([record.keyId, job.slot]);
        expiry.put([Date.parse(record.finishedAt ?? new Date().toISOString()), record.id], 1);
        if (record.callback?.status === 'pending') callbacks.put(record.id, 1);
        cancels.remove(record.id);
      });
    },
    callbackSettled(record) {
      root.transactionSync(() => {
        jobs.put(record.id, stored(record));
        callbacks.remove(record.id);
      });
    },
    sweep(now, retentionMs) {
      let removed = 0;
      for (;;) {
        const due = [...expiry.getKeys({ end: [now - retentionMs], limit: SWEPT_PER_ROUND })];
        if (due.length === 0) return removed;
        root.transactionSync(() => {
          for (const [at, id] of due as [number, string][]) {
            const job = jobs.get(id);
            expiry.remove([at, id]);
            if (!job || !isActive(job.status)) removeJob(id, job?.keyId ?? '', at);
          }
        });
        removed += due.length;
      }
    },
    async close() {
      // the environment is the instance's, shared with other stores of this process: it stays open
    },
  };
}
