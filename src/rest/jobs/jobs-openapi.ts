/**
 * The OpenAPI description of the job endpoints (docs/jobs.md "Endpoints"), merged into the document
 * src/rest/openapi.ts builds. The schemas are not written here: they are the JSON Schema of the jobs'
 * shapes (src/jobs/job-shape.ts, `z.toJSONSchema`), the one declaration the TypeScript types and the
 * GraphQL types come from too. What is written here is the list of endpoints: their methods, parameters
 * and answers.
 */
import { z } from 'zod';
import type { Config } from '../../config.js';
import {
  JOB_SCHEMAS,
  itemOutcomeSchema,
  jobAcceptedSchema,
  jobPageSchema,
  jobViewSchema,
  progressSchema,
  submissionBodySchema,
} from '../../jobs/job-shape.js';
import { JOBS_PATH } from '../../jobs/job-record.js';
import { API_VERSION } from '../envelope.js';
import { MAX_PAGE, DEFAULT_PAGE } from '../../jobs/job-operations.js';
import { envelopedResponse, isLeftOutKeyword, refusalResponse } from '../openapi-responses.js';

const TAG = 'Jobs';
const ERROR = 'Error_jobs';

type Json = Record<string, unknown>;

/**
 * The component names the published document gave these shapes before they were derived (the type names of
 * a generated client): the submission body is `JobSubmission` there and the 202 `JobAccepted`, where
 * GraphQL names the 202 `JobSubmission` and has no type for the body.
 */
const DOCUMENT_NAMES: Readonly<Record<string, string>> = {
  JobSubmissionBody: 'JobSubmission',
  JobSubmission: 'JobAccepted',
};
/** Shapes GraphQL names that the document writes where they are used, as it always did. */
const WRITTEN_IN_PLACE = new Set(['JobStatus', 'JobCallback', 'JobLinks']);
const SCHEMA_PATH = '#/components/schemas/';
const documentName = (id: string) => DOCUMENT_NAMES[id] ?? id;

const ref = (schema: z.ZodType): Json => ({ $ref: `${SCHEMA_PATH}${documentName(JOB_SCHEMAS.get(schema)!.id)}` });
const refusal = (description: string): Json => refusalResponse(ERROR, description);
const enveloped = (description: string, data: Json): Json => envelopedResponse('jobs', description, data);
const text = (description: string, media: Record<string, string>): Json => ({
  description,
  content: Object.fromEntries(
    Object.entries(media).map(([type, what]) => [type, { schema: { type: 'string', description: what } }]),
  ),
});
const idParameter = { name: 'id', in: 'path', required: true, schema: { type: 'string' }, description: 'the job’s id' };
const common = {
  '401': refusal('No valid API key.'),
  '503': refusal('The instance is saturated, or the job store did not answer (Retry-After).'),
};

/** The shapes' JSON Schema, as OpenAPI 3.1 components: every named shape, referenced by name. */
function componentSchemas(config: Config): Record<string, Json> {
  const { schemas } = z.toJSONSchema(JOB_SCHEMAS, {
    uri: (id) => `#/components/schemas/${id}`,
    unrepresentable: 'any',
  }) as { schemas: Record<string, Json> };
  const tidy = (node: unknown, output: boolean): unknown => {
    if (Array.isArray(node)) return node.map((n) => tidy(n, output));
    if (node === null || typeof node !== 'object') return node;
    const target = (node as Json).$ref;
    if (typeof target === 'string' && target.startsWith(SCHEMA_PATH)) {
      const id = target.slice(SCHEMA_PATH.length);
      if (WRITTEN_IN_PLACE.has(id)) return tidy(schemas[id], output);
      return { $ref: `${SCHEMA_PATH}${documentName(id)}` };
    }
    const union = (node as Json).anyOf;
    if (Array.isArray(union)) {
      const { anyOf: _, ...rest } = node as Json;
      return { ...rest, ...asDocumentUnion(union.map((n) => tidy(n, output)) as Json[]) };
    }
    const out: Json = {};
    for (const [key, value] of Object.entries(node)) {
      if (isLeftOutKeyword(key, value, output)) continue;
      out[key] = tidy(value, output);
    }
    return out;
  };
  const body = JOB_SCHEMAS.get(submissionBodySchema)!.id;
  const out = Object.fromEntries(
    Object.entries(schemas)
      .filter(([name]) => !WRITTEN_IN_PLACE.has(name))
      .map(([name, schema]) => [documentName(name), tidy(schema, name !== body) as Json]),
  );
  ((out[documentName(body)]!.properties as Json).targets as Json).maxItems = config.jobs.maxTargets;
  // a job just accepted has not started: submission answers it queued (src/jobs/job-operations.ts)
  const accepted = out[documentName(JOB_SCHEMAS.get(jobAcceptedSchema)!.id)]!.properties as Json;
  accepted.status = { const: 'queued' };
  return out;
}

/**
 * A union as the document writes it: one `type` list when every member is a bare type (a nullable string is
 * `type: [string, null]`), else `oneOf` with `null` first — the members of these unions never overlap.
 */
function asDocumentUnion(members: Json[]): Json {
  const isNull = (m: Json) => m.type === 'null' && Object.keys(m).length === 1;
  const others = members.filter((m) => !isNull(m));
  const nullable = others.length < members.length;
  const bare = (m: Json) => typeof m.type === 'string' && Object.keys(m).length === 1;
  if (others.every(bare)) return { type: [...others.map((m) => m.type), ...(nullable ? ['null'] : [])] };
  const [only] = others;
  if (nullable && others.length === 1 && only && typeof only.type === 'string' && only.type !== 'object')
    return { ...only, type: [only.type, 'null'] };
  return { oneOf: [...(nullable ? [{ type: 'null' }] : []), ...others] };
}

export function jobsOpenApi(config: Config): {
  tag: { name: string; description: string };
  paths: Record<string, unknown>;
  schemas: Record<string, unknown>;
} {
  const { maxTargets, maxActivePerKey, retentionHours, maxStreamsPerKey } = config.jobs;
  const job = `${JOBS_PATH}/{id}`;
  return {
    tag: { name: TAG, description: 'One check over many targets, in the background (docs/jobs.md).' },
    paths: {
      [JOBS_PATH]: {
        post: {
          operationId: 'submitJob',
          tags: [TAG],
          summary: 'Submit a job (the tool price × targets)',
          description: `Validates every target, charges the tool's price × targets at once, and queues the job. 1 to ${maxTargets} targets; ${maxActivePerKey} queued or running jobs per key. Body at most 2 MiB.`,
          requestBody: { required: true, content: { 'application/json': { schema: ref(submissionBodySchema) } } },
          responses: {
            '202': {
              ...enveloped('Accepted; `Location` names the job.', ref(jobAcceptedSchema)),
              headers: { Location: { schema: { type: 'string' } } },
            },
            '400': refusal('A bad body, parameter or target (named by its index), or a refused callbackUrl.'),
            '413': refusal('The body is over 2 MiB.'),
            '415': refusal('The body is not application/json.'),
            '429': refusal('The allowance does not cover the price, or the key has its most active jobs.'),
            ...common,
          },
        },
        get: {
          operationId: 'listJobs',
          tags: [TAG],
          summary: "The key's jobs, newest first (free)",
          parameters: [
            {
              name: 'limit',
              in: 'query',
              schema: { type: 'integer', minimum: 1, maximum: MAX_PAGE, default: DEFAULT_PAGE },
            },
            { name: 'cursor', in: 'query', schema: { type: 'string' }, description: 'a nextCursor' },
          ],
          responses: {
            '200': enveloped('A page of jobs.', ref(jobPageSchema)),
            '400': refusal('A bad limit or cursor.'),
            ...common,
          },
        },
      },
      [job]: {
        get: {
          operationId: 'getJob',
          tags: [TAG],
          summary: 'A job (free)',
          parameters: [idParameter],
          responses: {
            '200': enveloped('The job.', ref(jobViewSchema)),
            '404': refusal("No such job, or another key's."),
            ...common,
          },
        },
        delete: {
          operationId: 'cancelJob',
          tags: [TAG],
          summary: 'Cancel a job (free; items that never ran are refunded)',
          parameters: [idParameter],
          responses: {
            '200': enveloped('The job, status cancelled.', ref(jobViewSchema)),
            '404': refusal("No such job, or another key's."),
            '409': refusal('The job is already done.'),
            ...common,
          },
        },
      },
      [`${job}/results`]: {
        get: {
          operationId: 'jobResults',
          tags: [TAG],
          summary: 'Finished items in target order (free)',
          description: `One line per finished item (the schema ${JOB_SCHEMAS.get(itemOutcomeSchema)!.id}), data as the single call's. Kept ${retentionHours} h after the job ends.`,
          parameters: [
            idParameter,
            {
              name: 'after',
              in: 'query',
              schema: { type: 'integer', minimum: -1 },
              description: 'resume after this index',
            },
            { name: 'format', in: 'query', schema: { enum: ['ndjson', 'csv'], default: 'ndjson' } },
          ],
          responses: {
            '200': text('The results.', {
              'application/x-ndjson': `one ${JOB_SCHEMAS.get(itemOutcomeSchema)!.id} a line`,
              'text/csv': "index,target,ok,status,error,data.<field>…; a cell that would start a formula begins with '",
            }),
            '400': refusal('A bad after or format.'),
            '404': refusal("No such job, or another key's."),
            ...common,
          },
        },
      },
      [`${job}/events`]: {
        get: {
          operationId: 'jobEvents',
          tags: [TAG],
          summary: 'Progress as server-sent events (free)',
          description: `\`progress\` at once and at most once a second (the schema ${JOB_SCHEMAS.get(progressSchema)!.id}), then one \`end\` (the job). Each event id is the number of finished items; Last-Event-ID resumes. At most ${maxStreamsPerKey} streams per key and process.`,
          parameters: [idParameter, { name: 'Last-Event-ID', in: 'header', schema: { type: 'string' } }],
          responses: {
            '200': text('An event stream.', { 'text/event-stream': 'progress and end events' }),
            '404': refusal("No such job, or another key's."),
            '429': refusal('The key has its most event streams open.'),
            ...common,
          },
        },
      },
    },
    schemas: {
      ...componentSchemas(config),
      [ERROR]: {
        type: 'object',
        properties: {
          ok: { const: false },
          error: { type: 'string' },
          meta: { type: 'object', properties: { tool: { const: 'jobs' }, version: { const: API_VERSION } } },
        },
        required: ['ok', 'error', 'meta'],
      },
    },
  };
}
