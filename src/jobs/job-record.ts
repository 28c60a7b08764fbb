/**
 * What the stores keep of a job: the fields GET answers (./job-shape.ts), plus what running and
 * refunding it needs (the owner key, the charge, the shared parameters, the callback's secret). Item
 * outcomes are not here: they are the job's results, kept by index beside it.
 */
import { randomBytes } from 'node:crypto';
import type { KeyIdentity } from '../platform/keys.js';
import type { JobCallbackState, JobStatusName, JobView } from './job-shape.js';

export interface JobRecord {
  readonly id: string;
  /** the submitting key's id (KeyIdentity.id): only that key sees the job */
  readonly keyId: string;
  readonly keyKind: KeyIdentity['kind'];
  readonly tool: string;
  readonly total: number;
  /** parameters shared by every target, each checked at submission (./submission.ts) */
  readonly params: Readonly<Record<string, string>>;
  /** the price of one item at submission (cost × total was charged) */
  readonly itemCost: number;
  /** the ledger's handle of the job's charge, for refunds; null when nothing was charged (a zero price) */
  readonly chargeId: string | null;
  readonly createdAt: string;
  status: JobStatusName;
  startedAt: string | null;
  finishedAt: string | null;
  /** finished items, failed ones included */
  done: number;
  failed: number;
  /** items that never ran (cancelled) */
  cancelled: number;
  /** credits given back so far (refused targets, cancelled items) */
  refunded: number;
  /** where the ended job is POSTed (./signed-delivery.ts); null without one */
  readonly callbackUrl: string | null;
  /** the key of the callback's signature, made per job and answered once, in the 202 */
  readonly callbackSecret: string | null;
  /** the callback's outcome so far; null without a callbackUrl */
  callback: JobCallbackState | null;
}

export const JOBS_PATH = '/api/v1/jobs';

export function isActive(status: JobStatusName): boolean {
  return status === 'queued' || status === 'running';
}

/** true once nothing of the job will run again: every item written or cancelled, and the end recorded */
export function hasEnded(record: JobRecord): boolean {
  return record.finishedAt !== null;
}

/**
 * Ids start with the creation time in base 36, fixed width, so that they sort by age: a key's index
 * lists them newest first, and the listing's cursor is "ids below this one".
 */
export function newJobId(at: number): string {
  return `j${at.toString(36).padStart(9, '0')}${randomBytes(8).toString('hex')}`;
}

/** ids as newJobId makes them: anything else is answered as an unknown job without asking the store */
export function isJobId(id: string): boolean {
  return /^j[0-9a-z]{9}[0-9a-f]{16}$/.test(id);
}

export function newCallbackSecret(): string {
  return randomBytes(32).toString('base64url');
}

export interface NewJob {
  readonly identity: KeyIdentity;
  readonly tool: string;
  readonly total: number;
  readonly params: Readonly<Record<string, string>>;
  readonly callbackUrl: string | null;
  readonly itemCost: number;
  readonly chargeId: string | null;
}

export function newJobRecord(job: NewJob, at: number): JobRecord {
  const callback = job.callbackUrl;
  return {
    id: newJobId(at),
    keyId: job.identity.id,
    keyKind: job.identity.kind,
    tool: job.tool,
    total: job.total,
    params: job.params,
    itemCost: job.itemCost,
    chargeId: job.chargeId,
    createdAt: new Date(at).toISOString(),
    status: 'queued',
    startedAt: null,
    finishedAt: null,
    done: 0,
    failed: 0,
    cancelled: 0,
    refunded: 0,
    callbackUrl: callback,
    callbackSecret: callback === null ? null : newCallbackSecret(),
    callback: callback === null ? null : { status: 'pending', attempts: 0, error: null },
  };
}

/** The job as GET answers it. */
export function jobView(record: JobRecord, etaSeconds: number | null): JobView {
  return {
    id: record.id,
    status: record.status,
    tool: record.tool,
    total: record.total,
    done: record.done,
    failed: record.failed,
    cancelled: record.cancelled,
    createdAt: record.createdAt,
    startedAt: record.startedAt,
    finishedAt: record.finishedAt,
    etaSeconds: record.finishedAt !== null ? 0 : etaSeconds,
    callback: record.callback === null ? null : { ...record.callback },
  };
}

/**
 * Seconds until the job is expected to end, at the pace since it started; null before anything
 * finished (the estimate of a job read from the store, whichever process runs it).
 */
export function etaOf(record: JobRecord, now: number): number | null {
  if (record.finishedAt !== null) return 0;
  if (record.startedAt === null || record.done === 0) return null;
  const perItemMs = (now - Date.parse(record.startedAt)) / record.done;
  return Math.max(0, Math.ceil(((record.total - record.done - record.cancelled) * perItemMs) / 1000));
}

export function jobLinks(id: string): { self: string; results: string; events: string } {
  const self = `${JOBS_PATH}/${id}`;
  return { self, results: `${self}/results`, events: `${self}/events` };
}
