/**
 * What the GraphQL job fields ask of the jobs feature (docs/contract/jobs.md "GraphQL"): the same
 * operations as the REST endpoints, with the same rules and prices. The feature lives above the schema
 * (src/rest/jobs/, which runs items through the REST documents), so the schema knows only this port; the
 * app hands it to each request's context.
 */
/** the only mutations of the schema (./job-fields.ts), for the operation limits */
export const JOB_MUTATIONS: ReadonlySet<string> = new Set(['submitJob', 'cancelJob']);

export type JobStatusName = 'queued' | 'running' | 'done' | 'cancelled';

/** The job as GET /api/v1/jobs/{id} answers it. */
export interface JobView {
  readonly id: string;
  readonly status: JobStatusName;
  readonly tool: string;
  readonly total: number;
  readonly done: number;
  readonly failed: number;
  readonly cancelled: number;
  readonly createdAt: string;
  readonly startedAt: string | null;
  readonly finishedAt: string | null;
  readonly etaSeconds: number | null;
  /** null without a callbackUrl */
  readonly callback: JobCallbackState | null;
}

export interface JobCallbackState {
  readonly status: 'pending' | 'delivered' | 'failed';
  readonly attempts: number;
  readonly error: string | null;
}

export interface JobLinks {
  readonly self: string;
  readonly results: string;
  readonly events: string;
}

/** The 202 answer of a submission. */
export interface JobAccepted {
  readonly id: string;
  readonly status: 'queued';
  readonly tool: string;
  readonly total: number;
  readonly createdAt: string;
  readonly links: JobLinks;
  /** the key of the callback's signature: given here only, once (absent without a callbackUrl) */
  readonly callbackSecret?: string;
}

export interface JobPage {
  readonly jobs: readonly JobView[];
  readonly nextCursor: string | null;
}

/** An answer, or the refusal the REST endpoint would give (status, message, headers such as RateLimit). */
export type JobsAnswer<T> =
  | { readonly ok: true; readonly data: T; readonly headers?: Record<string, string> }
  | {
      readonly ok: false;
      readonly status: number;
      readonly code: 'BAD_INPUT' | 'QUOTA_EXCEEDED' | 'JOB_LIMIT' | 'NOT_FOUND' | 'JOB_ENDED';
      readonly error: string;
      readonly headers?: Record<string, string>;
    };

export interface JobsCaller {
  readonly identity: { readonly id: string; readonly kind: 'static' | 'issued' };
  readonly request: Request;
  readonly url: URL;
}

export interface JobsPort {
  submit(input: unknown, caller: JobsCaller): Promise<JobsAnswer<JobAccepted>>;
  get(id: string, keyId: string): Promise<JobView | null>;
  list(keyId: string, limit: number | null, cursor: string | null): Promise<JobsAnswer<JobPage>>;
  cancel(id: string, keyId: string): Promise<JobsAnswer<JobView>>;
}
