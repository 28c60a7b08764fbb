/**
 * What the store keeps of a job (docs/contract/jobs.md "Endpoints"): the fields GET answers, plus what
 * running and refunding it needs (the owner key, the charge, the shared parameters). Item outcomes are
 * not here: they are lines of the job's results journal (./file-job-store.ts).
 */
export type JobStatus = 'queued' | 'running' | 'done' | 'cancelled';

/** One target as submitted: a string fills the tool's main parameter, an object names its parameters. */
export type SubmittedTarget = string | Record<string, string>;

export interface JobRecord {
  readonly id: string;
  /** the submitting key's id (KeyIdentity.id): only that key sees the job */
  readonly keyId: string;
  readonly keyKind: 'static' | 'issued';
  readonly tool: string;
  readonly total: number;
  /** parameters shared by every target */
  readonly params: Readonly<Record<string, string>>;
  /** the price of one item at submission (cost × total was charged) */
  readonly itemCost: number;
  /** the ledger's handle of the job's charge, for refunds; null when nothing was charged (a zero price) */
  readonly chargeId: string | null;
  readonly createdAt: string;
  status: JobStatus;
  startedAt: string | null;
  finishedAt: string | null;
  /** finished items, failed ones included */
  done: number;
  failed: number;
  /** items that never ran (cancelled) */
  cancelled: number;
  /** credits given back so far (refused targets, cancelled items) */
  refunded: number;
  /** where the ended job is POSTed (./callback.ts); null without one */
  readonly callbackUrl: string | null;
  /** the key of the callback's signature, made per job and answered once, in the 202 */
  readonly callbackSecret: string | null;
  /** the callback's outcome so far; null without a callbackUrl */
  callback: { status: 'pending' | 'delivered' | 'failed'; attempts: number; error: string | null } | null;
}

/** One line of the results journal (and of GET …/results): the single call's status and data or error. */
export interface ItemOutcome {
  readonly index: number;
  readonly target: SubmittedTarget;
  readonly ok: boolean;
  readonly status: number;
  readonly data?: unknown;
  readonly error?: string;
}

export function isActive(status: JobStatus): boolean {
  return status === 'queued' || status === 'running';
}
