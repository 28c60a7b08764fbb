/**
 * Where jobs live (docs/contract/jobs.md "Durable"): the job's fields, its targets, the results journal
 * in target order, who runs it, and a cancellation asked by another process. The embedded store
 * (./file-job-store.ts) keeps them in `server.dataDir`.
 */
import type { JobRecord, SubmittedTarget } from './job-record.js';

export interface JobStore {
  /** writes a new job and its targets durably (before its 202 is answered) */
  create(job: JobRecord, targets: readonly SubmittedTarget[]): Promise<void>;
  read(id: string): Promise<JobRecord | null>;
  /** `durable`: flushed to disk before it resolves (status changes); counters alone may be lost in a crash */
  save(job: JobRecord, durable: boolean): Promise<void>;
  readTargets(id: string): Promise<SubmittedTarget[]>;
  /** appends outcome lines (JSON, in target order) and flushes them to disk */
  appendResults(id: string, lines: readonly string[]): Promise<void>;
  /**
   * The journal's complete lines counted (a line cut by a crash is dropped from the file): every line is
   * one finished item, so `lines` is the next index to run.
   */
  recoverResults(id: string): Promise<{ lines: number; failed: number }>;
  /** complete journal lines after index `after` (-1: all), in target order */
  results(id: string, after: number): AsyncIterable<string>;
  /** every job of the key, newest first */
  listByKey(keyId: string): Promise<JobRecord[]>;
  /** ids of every job in the store */
  allIds(): Promise<string[]>;
  /** takes the right to run the job (false: a live process has it) */
  claim(id: string): Promise<boolean>;
  release(id: string): Promise<void>;
  /** true while a live process other than this one runs the job */
  ownedElsewhere(id: string): Promise<boolean>;
  requestCancel(id: string): Promise<void>;
  cancelRequested(id: string): Promise<boolean>;
  remove(id: string): Promise<void>;
}
