/**
 * The shapes of jobs, declared once (docs/jobs.md "Endpoints"): the job as GET answers it, the 202 of a
 * submission, a page of the listing, a results line, a progress event and the submission body. The
 * TypeScript types are inferred from these schemas, the OpenAPI schemas are their JSON Schema
 * (src/rest/jobs/jobs-openapi.ts) and the GraphQL object types are built from them
 * (src/graphql/jobs/job-types.ts), so a field added here reaches all three.
 *
 * Each schema that is a named type elsewhere is registered in `JOB_SCHEMAS` under that name.
 */
import { z } from 'zod';

/** Named job schemas: the OpenAPI component and GraphQL type of each is its `id`. */
export const JOB_SCHEMAS = z.registry<{ id: string; description?: string }>();

function named<T extends z.ZodType>(schema: T, id: string, description?: string): T {
  JOB_SCHEMAS.add(schema, description === undefined ? { id } : { id, description });
  return schema;
}

/** An ISO 8601 time (`toISOString()`), as every time of a job is written. */
const time = () => z.string().meta({ format: 'date-time' });
const count = () => z.int().min(0);

export const JOB_STATUSES = ['queued', 'running', 'done', 'cancelled'] as const;

export const jobStatusSchema = named(
  z.enum(JOB_STATUSES),
  'JobStatus',
  'queued: no item has started; running; done: every item finished; cancelled: stopped by its key.',
);

export const callbackStateSchema = named(
  z.object({
    status: z.enum(['pending', 'delivered', 'failed']).describe('pending, delivered or failed'),
    attempts: count().describe('tries so far (at most 3)'),
    error: z.string().nullable().describe("the last try's failure"),
  }),
  'JobCallback',
  'The outcome of the callback to `callbackUrl` when the job ended.',
);

export const jobViewSchema = named(
  z.object({
    id: z.string(),
    status: jobStatusSchema,
    tool: z.string().describe('the REST tool every item runs'),
    total: count().describe('items (targets) of the job'),
    done: count().describe('finished items, failed ones included'),
    failed: count().describe('finished items that failed (failed ≤ done)'),
    cancelled: count().describe('items that never ran'),
    createdAt: time(),
    startedAt: time().nullable(),
    finishedAt: time().nullable().describe('set once the job has ended'),
    etaSeconds: count().nullable().describe('seconds until the job is expected to end; null before anything finished'),
    callback: callbackStateSchema.nullable().describe('null without a callbackUrl'),
  }),
  'Job',
  'A job: one check over many targets, run in the background (GET /api/v1/jobs/{id}).',
);

export const jobLinksSchema = named(
  z.object({
    self: z.string(),
    results: z.string().describe('NDJSON, or CSV with ?format=csv'),
    events: z.string().describe('server-sent events: progress and end'),
  }),
  'JobLinks',
);

export const jobAcceptedSchema = named(
  z.object({
    id: z.string(),
    status: jobStatusSchema,
    tool: z.string(),
    total: count(),
    createdAt: time(),
    links: jobLinksSchema,
    callbackSecret: z
      .string()
      .optional()
      .describe("the key of the callback's X-Netdiag-Signature HMAC; given here only, once, with a callbackUrl"),
  }),
  'JobSubmission',
  'A job just accepted (POST /api/v1/jobs → 202).',
);

export const jobPageSchema = named(
  z.object({
    jobs: z.array(jobViewSchema),
    nextCursor: z.string().nullable().describe('pass as `cursor` for the next page'),
  }),
  'JobList',
);

/** A target: a string fills the tool's main parameter; an object names the tool's parameters. */
export const submittedTargetSchema = z.union([z.string(), z.record(z.string(), z.string())]);

export const itemOutcomeSchema = named(
  z.object({
    index: count().describe('the target’s index, from 0'),
    target: submittedTargetSchema.describe('as submitted'),
    ok: z.boolean(),
    status: z.int().describe('the HTTP status the single call would have had'),
    data: z.unknown().optional().describe("exactly the single call's data (when ok)"),
    error: z.string().optional().describe("the single call's error (when not ok)"),
  }),
  'JobResult',
  'One line of GET /api/v1/jobs/{id}/results (NDJSON), in target order.',
);

export const progressSchema = named(
  z.object({ done: count(), failed: count(), total: count() }),
  'JobProgress',
  'The data of a `progress` event of GET /api/v1/jobs/{id}/events.',
);

const parameterValue = z.union([z.string(), z.number(), z.boolean()]);

export const submissionBodySchema = named(
  z.object({
    tool: z.string().describe('any v1 tool but my-ip and what-is-my-ip'),
    targets: z
      .array(z.union([z.string(), z.record(z.string(), parameterValue)]))
      .min(1)
      .describe("strings (the tool's main parameter: domain, host, url or target) or objects of the tool's parameters"),
    params: z.record(z.string(), parameterValue).optional().describe('the tool’s parameters shared by every target'),
    callbackUrl: z
      .string()
      .meta({ format: 'uri' })
      .optional()
      .describe('https only; the ended job is POSTed there, signed'),
  }),
  'JobSubmissionBody',
  'The body of POST /api/v1/jobs (JSON, at most 2 MiB).',
);

export type JobStatusName = z.infer<typeof jobStatusSchema>;
export type JobCallbackState = z.infer<typeof callbackStateSchema>;
export type JobView = z.infer<typeof jobViewSchema>;
export type JobLinks = z.infer<typeof jobLinksSchema>;
export type JobAccepted = z.infer<typeof jobAcceptedSchema>;
export type JobPage = z.infer<typeof jobPageSchema>;
export type SubmittedTarget = string | Record<string, string>;
export type ItemOutcome = z.infer<typeof itemOutcomeSchema>;
export type JobProgress = z.infer<typeof progressSchema>;
