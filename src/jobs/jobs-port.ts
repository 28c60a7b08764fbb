/**
 * The job operations as the REST endpoints (src/rest/jobs/jobs-handler.ts) and the GraphQL fields
 * (src/graphql/jobs/job-fields.ts) reach them, with the same rules, messages and prices (docs/jobs.md
 * "GraphQL"): both are thin adapters of this port, made by ./job-operations.ts.
 */
import type { JobAccepted, JobPage, JobView } from './job-shape.js';

/** An answer, or the refusal the REST endpoint gives (status, message, headers such as RateLimit). */
export type JobsAnswer<T> =
  | { readonly ok: true; readonly data: T; readonly headers?: Record<string, string> }
  | {
      readonly ok: false;
      readonly status: number;
      readonly code: 'BAD_INPUT' | 'QUOTA_EXCEEDED' | 'JOB_LIMIT' | 'NOT_FOUND' | 'JOB_ENDED' | 'STREAM_LIMIT';
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
  /** the job as its key may see it; null when unknown or another key's (404 alike) */
  get(id: string, keyId: string): Promise<JobView | null>;
  list(keyId: string, limit: number | null, cursor: string | null): Promise<JobsAnswer<JobPage>>;
  cancel(id: string, keyId: string): Promise<JobsAnswer<JobView>>;
  /** the written outcome lines after index `after` (-1: all), in target order; null for an unknown job */
  results(id: string, keyId: string, after: number): Promise<AsyncIterable<string> | null>;
  /** an event stream following the job (GET …/events) */
  follow(
    id: string,
    keyId: string,
    lastEventId: number | null,
    signal: AbortSignal,
  ): Promise<JobsAnswer<ReadableStream<Uint8Array>>>;
}
