/**
 * The OpenAPI description of the monitor endpoints and the badge (docs/contract/monitors.md, its endpoints),
 * merged into the document src/rest/openapi.ts builds. The schemas are the JSON Schema of the monitors'
 * shapes (src/monitors/monitor-shape.ts, `z.toJSONSchema`), as the jobs' are (../jobs/jobs-openapi.ts);
 * what is written here is the list of endpoints: their methods, parameters and answers.
 */
import { z } from 'zod';
import type { Config } from '../../config.js';
import {
  eventPageSchema,
  historyPageSchema,
  MONITOR_SCHEMAS,
  monitorBodySchema,
  monitorDetailSchema,
  monitorEventSchema,
  monitorPageSchema,
  monitorPatchSchema,
  monitorViewSchema,
} from '../../monitors/monitor-shape.js';
import { DEFAULT_PAGE, MAX_PAGE } from '../../monitors/runtime/monitor-operations.js';
import { API_VERSION } from '../envelope.js';
import { MONITORS_PATH } from './monitors-handler.js';
import { envelopedResponse, isLeftOutKeyword, refusalResponse } from '../openapi-responses.js';

const TAG = 'Monitors';
const ERROR = 'Error_monitors';

type Json = Record<string, unknown>;

const ref = (schema: z.ZodType): Json => ({ $ref: `#/components/schemas/${MONITOR_SCHEMAS.get(schema)!.id}` });
const refusal = (description: string): Json => refusalResponse(ERROR, description);
const enveloped = (description: string, data: Json): Json => envelopedResponse('monitors', description, data);
const idParameter = {
  name: 'id',
  in: 'path',
  required: true,
  schema: { type: 'string' },
  description: 'the monitor’s id',
};
const limitParameter = {
  name: 'limit',
  in: 'query',
  schema: { type: 'integer', minimum: 1, maximum: MAX_PAGE, default: DEFAULT_PAGE },
};
const notFound = refusal("No such monitor, or another key's.");
const common = {
  '401': refusal('No valid API key.'),
  '503': refusal('The instance is saturated, or the monitor store did not answer (Retry-After).'),
};

function componentSchemas(): Record<string, Json> {
  const { schemas } = z.toJSONSchema(MONITOR_SCHEMAS, {
    uri: (id) => `#/components/schemas/${id}`,
    unrepresentable: 'any',
  }) as { schemas: Record<string, Json> };
  const tidy = (node: unknown, output: boolean): unknown => {
    if (Array.isArray(node)) return node.map((n) => tidy(n, output));
    if (node === null || typeof node !== 'object') return node;
    const out: Json = {};
    for (const [key, value] of Object.entries(node)) {
      if (isLeftOutKeyword(key, value, output)) continue;
      out[key] = tidy(value, output);
    }
    return out;
  };
  const bodies = new Set([MONITOR_SCHEMAS.get(monitorBodySchema)!.id, MONITOR_SCHEMAS.get(monitorPatchSchema)!.id]);
  return Object.fromEntries(
    Object.entries(schemas).map(([name, schema]) => [name, tidy(schema, !bodies.has(name)) as Json]),
  );
}

export function monitorsOpenApi(config: Config): {
  tag: { name: string; description: string };
  paths: Record<string, unknown>;
  schemas: Record<string, unknown>;
} {
  const { maxTargets, maxPerKey, maxPairsPerKey, minInterval, keepRuns, keepEventsDays } = config.monitors;
  const monitor = `${MONITORS_PATH}/{id}`;
  const body = (schema: z.ZodType) => ({ required: true, content: { 'application/json': { schema: ref(schema) } } });
  return {
    tag: {
      name: TAG,
      description: 'Checks run over targets on a schedule, their history and events (docs/monitors.md).',
    },
    paths: {
      [MONITORS_PATH]: {
        post: {
          operationId: 'createMonitor',
          tags: [TAG],
          summary: 'Create a monitor (each run costs the checks’ prices × targets)',
          description: `Validates every target for every check, then schedules the monitor; its first run starts at once. 1 to ${maxTargets} targets, every at least ${minInterval}; ${maxPerKey} monitors and ${maxPairsPerKey} target × check pairs per key. Body at most 1 MiB.`,
          requestBody: body(monitorBodySchema),
          responses: {
            '201': {
              ...enveloped(
                'Created; `Location` names the monitor; `secret` signs its webhook.',
                ref(monitorViewSchema),
              ),
              headers: { Location: { schema: { type: 'string' } } },
            },
            '400': refusal('A bad body, check or target (named by its index and check), or a refused webhook.'),
            '413': refusal('The body is over 1 MiB.'),
            '415': refusal('The body is not application/json.'),
            '429': refusal('The key has its most monitors or target × check pairs.'),
            ...common,
          },
        },
        get: {
          operationId: 'listMonitors',
          tags: [TAG],
          summary: "The key's monitors, newest first (free)",
          parameters: [limitParameter, { name: 'cursor', in: 'query', schema: { type: 'string' } }],
          responses: {
            '200': enveloped('A page of monitors.', ref(monitorPageSchema)),
            '400': refusal('A bad limit.'),
            ...common,
          },
        },
      },
      [monitor]: {
        get: {
          operationId: 'getMonitor',
          tags: [TAG],
          summary: 'A monitor and the state of each target × check (free)',
          parameters: [idParameter],
          responses: { '200': enveloped('The monitor.', ref(monitorDetailSchema)), '404': notFound, ...common },
        },
        patch: {
          operationId: 'updateMonitor',
          tags: [TAG],
          summary: 'Change name, every, notify, warnDays, paused or public (free)',
          parameters: [idParameter],
          requestBody: body(monitorPatchSchema),
          responses: {
            '200': enveloped('The monitor.', ref(monitorViewSchema)),
            '400': refusal('A bad field.'),
            '404': notFound,
            ...common,
          },
        },
        delete: {
          operationId: 'deleteMonitor',
          tags: [TAG],
          summary: 'Delete a monitor: no run starts after it (free)',
          parameters: [idParameter],
          responses: { '204': { description: 'Deleted.' }, '404': notFound, ...common },
        },
      },
      [`${monitor}/run`]: {
        post: {
          operationId: 'runMonitor',
          tags: [TAG],
          summary: 'One run now (charged as any run), then the schedule continues',
          parameters: [idParameter],
          responses: { '202': enveloped('The run is due now.', ref(monitorViewSchema)), '404': notFound, ...common },
        },
      },
      [`${monitor}/history`]: {
        get: {
          operationId: 'monitorHistory',
          tags: [TAG],
          summary: 'Runs, newest first (free)',
          description: `The last ${keepRuns} runs per target × check are kept.`,
          parameters: [
            idParameter,
            { name: 'target', in: 'query', schema: { type: 'string' } },
            { name: 'check', in: 'query', schema: { type: 'string' } },
            limitParameter,
            { name: 'before', in: 'query', schema: { type: 'string' }, description: 'a nextCursor' },
          ],
          responses: {
            '200': enveloped('Runs.', ref(historyPageSchema)),
            '400': refusal('A target or check not of this monitor, or a bad limit or cursor.'),
            '404': notFound,
            ...common,
          },
        },
      },
      [`${monitor}/events`]: {
        get: {
          operationId: 'monitorEvents',
          tags: [TAG],
          summary: 'Events as JSON, or as server-sent events with Accept: text/event-stream (free)',
          description: `Kept ${keepEventsDays} days. As SSE: \`event: monitor\`, \`id\` the event's id (the schema ${MONITOR_SCHEMAS.get(monitorEventSchema)!.id}); Last-Event-ID resumes; at most ${config.jobs.maxStreamsPerKey} streams per key and process.`,
          parameters: [
            idParameter,
            { name: 'since', in: 'query', schema: { type: 'string' }, description: 'an event id: only newer ones' },
            { name: 'before', in: 'query', schema: { type: 'string' }, description: 'a nextCursor' },
            limitParameter,
            { name: 'Last-Event-ID', in: 'header', schema: { type: 'string' } },
          ],
          responses: {
            '200': {
              description: 'Events.',
              content: {
                ...(enveloped('', ref(eventPageSchema)).content as Json),
                'text/event-stream': { schema: { type: 'string', description: 'monitor events' } },
              },
            },
            '400': refusal('A bad since, before or limit.'),
            '404': notFound,
            '429': refusal('The key has its most event streams open.'),
            ...common,
          },
        },
      },
      '/badge/{id}/{check}.svg': {
        get: {
          operationId: 'monitorBadge',
          tags: [TAG],
          summary: "A public monitor's badge (no key, no credits, never starts a run)",
          security: [],
          parameters: [
            idParameter,
            { name: 'check', in: 'path', required: true, schema: { type: 'string' } },
            { name: 'target', in: 'query', schema: { type: 'string' }, description: 'default: the first target' },
            { name: 'If-None-Match', in: 'header', schema: { type: 'string' } },
          ],
          responses: {
            '200': {
              description: 'The badge (Cache-Control: max-age=300, ETag).',
              content: { 'image/svg+xml': { schema: { type: 'string' } } },
            },
            '304': { description: 'Not modified.' },
            '404': { description: 'No such public monitor or check.' },
          },
        },
      },
    },
    schemas: {
      ...componentSchemas(),
      [ERROR]: {
        type: 'object',
        properties: {
          ok: { const: false },
          error: { type: 'string' },
          meta: { type: 'object', properties: { tool: { const: 'monitors' }, version: { const: API_VERSION } } },
        },
        required: ['ok', 'error', 'meta'],
      },
    },
  };
}
