/**
 * The OpenAPI description of the job endpoints (docs/jobs.md "Endpoints"): paths and schemas to
 * merge into the document src/rest/openapi.ts builds (`paths`, `components.schemas`, `tags`).
 */
import type { Config } from '../../config.js';
import { API_VERSION } from '../envelope.js';

const TAG = 'Jobs';
const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const envelope = (data: unknown) => ({
  type: 'object',
  properties: {
    ok: { const: true },
    data,
    meta: {
      type: 'object',
      properties: { tool: { const: 'jobs' }, version: { const: API_VERSION } },
      required: ['tool', 'version'],
    },
  },
  required: ['ok', 'data', 'meta'],
});
const json = (schema: unknown, description: string) => ({ description, content: { 'application/json': { schema } } });
const refusal = (description: string) => json(ref('Error_jobs'), description);
const idParameter = { name: 'id', in: 'path', required: true, schema: { type: 'string' } };
const common = {
  '401': refusal('No valid API key.'),
  '404': refusal("No such job, or another key's."),
};

const nullableString = { type: ['string', 'null'] };

export function jobsOpenApi(config: Config): {
  tag: { name: string; description: string };
  paths: Record<string, unknown>;
  schemas: Record<string, unknown>;
} {
  const { maxTargets, maxActivePerKey, retentionHours } = config.jobs;
  return {
    tag: { name: TAG, description: 'One check over many targets, in the background (docs/jobs.md).' },
    paths: {
      [`/api/${API_VERSION}/jobs`]: {
        post: {
          operationId: 'submitJob',
          tags: [TAG],
          summary: 'Submit a job (the tool price × targets)',
          description: `Validates every target, charges the tool's price × targets at once, and queues the job. 1 to ${maxTargets} targets; ${maxActivePerKey} queued or running jobs per key. Body at most 2 MiB.`,
          requestBody: { required: true, content: { 'application/json': { schema: ref('JobSubmission') } } },
          responses: {
            '202': {
              ...json(envelope(ref('JobAccepted')), 'Accepted; `Location` names the job.'),
              headers: { Location: { schema: { type: 'string' } } },
            },
            '400': refusal('A bad body or target (named by its index), or a refused callbackUrl.'),
            '401': common['401'],
            '413': refusal('The body is over 2 MiB.'),
            '415': refusal('The body is not application/json.'),
            '429': refusal('The allowance does not cover the price, or the key has its most active jobs.'),
          },
        },
        get: {
          operationId: 'listJobs',
          tags: [TAG],
          summary: "The key's jobs, newest first (free)",
          parameters: [
            { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 100, default: 20 } },
            { name: 'cursor', in: 'query', schema: { type: 'string' }, description: 'a nextCursor' },
          ],
          responses: {
            '200': json(envelope(ref('JobList')), 'A page of jobs.'),
            '400': refusal('A bad limit.'),
            '401': common['401'],
          },
        },
      },
      [`/api/${API_VERSION}/jobs/{id}`]: {
        get: {
          operationId: 'getJob',
          tags: [TAG],
          summary: 'A job (free)',
          parameters: [idParameter],
          responses: { '200': json(envelope(ref('Job')), 'The job.'), ...common },
        },
        delete: {
          operationId: 'cancelJob',
          tags: [TAG],
          summary: 'Cancel a job (free; items that never ran are refunded)',
          parameters: [idParameter],
          responses: {
            '200': json(envelope(ref('Job')), 'The job, status cancelled.'),
            ...common,
            '409': refusal('The job is already done.'),
          },
        },
      },
      [`/api/${API_VERSION}/jobs/{id}/results`]: {
        get: {
          operationId: 'jobResults',
          tags: [TAG],
          summary: 'Finished items in target order (free)',
          description: `One line per finished item: { index, target, ok, status, data | error }, data as the single call's. Kept ${retentionHours} h after the job ends.`,
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
            '200': {
              description: 'NDJSON, or CSV (index,target,ok,status,error,data.<field>…).',
              content: {
                'application/x-ndjson': { schema: { type: 'string' } },
                'text/csv': { schema: { type: 'string' } },
              },
            },
            '400': refusal('A bad after or format.'),
            ...common,
          },
        },
      },
      [`/api/${API_VERSION}/jobs/{id}/events`]: {
        get: {
          operationId: 'jobEvents',
          tags: [TAG],
          summary: 'Progress as server-sent events (free)',
          description:
            '`progress` at once and at most once a second ({ done, failed, total }), then one `end` (the job). Each event id is the number of finished items; Last-Event-ID resumes.',
          parameters: [idParameter, { name: 'Last-Event-ID', in: 'header', schema: { type: 'string' } }],
          responses: {
            '200': {
              description: 'An event stream.',
              content: { 'text/event-stream': { schema: { type: 'string' } } },
            },
            ...common,
          },
        },
      },
    },
    schemas: {
      JobSubmission: {
        type: 'object',
        properties: {
          tool: { type: 'string', description: 'any v1 tool but my-ip' },
          targets: {
            type: 'array',
            minItems: 1,
            maxItems: maxTargets,
            items: {
              oneOf: [{ type: 'string' }, { type: 'object', additionalProperties: { type: ['string', 'number'] } }],
            },
          },
          params: { type: 'object', additionalProperties: { type: ['string', 'number'] } },
          callbackUrl: { type: 'string', format: 'uri', description: 'https only' },
        },
        required: ['tool', 'targets'],
        additionalProperties: false,
      },
      JobAccepted: {
        type: 'object',
        properties: {
          id: { type: 'string' },
          status: { const: 'queued' },
          tool: { type: 'string' },
          total: { type: 'integer' },
          createdAt: { type: 'string', format: 'date-time' },
          links: {
            type: 'object',
            properties: { self: { type: 'string' }, results: { type: 'string' }, events: { type: 'string' } },
            required: ['self', 'results', 'events'],
          },
          callbackSecret: { type: 'string', description: 'given here only, with a callbackUrl' },
        },
        required: ['id', 'status', 'tool', 'total', 'createdAt', 'links'],
      },
      Job: {
        type: 'object',
        properties: {
          id: { type: 'string' },
          status: { enum: ['queued', 'running', 'done', 'cancelled'] },
          tool: { type: 'string' },
          total: { type: 'integer' },
          done: { type: 'integer' },
          failed: { type: 'integer' },
          cancelled: { type: 'integer' },
          createdAt: { type: 'string', format: 'date-time' },
          startedAt: nullableString,
          finishedAt: nullableString,
          etaSeconds: { type: ['integer', 'null'] },
          callback: {
            oneOf: [
              { type: 'null' },
              {
                type: 'object',
                properties: {
                  status: { enum: ['pending', 'delivered', 'failed'] },
                  attempts: { type: 'integer' },
                  error: nullableString,
                },
                required: ['status', 'attempts', 'error'],
              },
            ],
          },
        },
        required: [
          'id',
          'status',
          'tool',
          'total',
          'done',
          'failed',
          'cancelled',
          'createdAt',
          'startedAt',
          'finishedAt',
          'etaSeconds',
          'callback',
        ],
      },
      JobList: {
        type: 'object',
        properties: { jobs: { type: 'array', items: ref('Job') }, nextCursor: nullableString },
        required: ['jobs', 'nextCursor'],
      },
      Error_jobs: {
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
