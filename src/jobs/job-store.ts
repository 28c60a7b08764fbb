/**
 * Where an instance keeps its jobs, as the API side uses it (docs/jobs.md "Durability"): the embedded
 * database in `server.dataDir` (./embedded/lmdb-job-store.ts) or Redis (./redis/redis-job-store.ts).
 * Every read a request makes is by key — the job by id, a key's jobs by its own index, results by index
 * range — so a request costs the same whatever other keys have stored.
 */
import type { JobRecord } from './job-record.js';
import type { SubmittedTarget } from './job-shape.js';

export type CreateOutcome = { readonly ok: true } | { readonly ok: false; readonly active: number };

export interface JobPageOfRecords {
  readonly records: readonly JobRecord[];
  readonly nextCursor: string | null;
}

export interface JobStore {
  /**
   * Writes a new job and its targets, in one atomic step with the check of the key's active jobs: with
   * `maxActive` of them queued or running already, nothing is written (concurrent submissions of one key,
   * on any process or instance, cannot pass the limit together).
   */
  create(record: JobRecord, targets: readonly SubmittedTarget[], maxActive: number): Promise<CreateOutcome>;
  /** the key's queued or running jobs (an early refusal before a submission is charged; `create` decides) */
  activeCount(keyId: string): Promise<number>;
  read(id: string): Promise<JobRecord | null>;
  /** the key's jobs, newest first, `limit` of them after `cursor` (an id of an earlier page) */
  page(keyId: string, limit: number, cursor: string | null): Promise<JobPageOfRecords>;
  /** written outcome lines after index `after` (-1: from the first), in target order, at most `count` */
  results(record: JobRecord, after: number): AsyncIterable<string>;
  /**
   * Asks for the job's cancellation: applied at once where it can be (Redis: the items not handed out
   * never will be), else by the runner when it hears of it (the embedded store). Returns the record then.
   */
  cancel(record: JobRecord): Promise<JobRecord>;
  close(): Promise<void>;
}
