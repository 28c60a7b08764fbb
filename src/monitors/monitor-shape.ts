/**
 * The shapes of the monitors' answers, declared once for the OpenAPI document (the endpoints of
 * docs/contract/monitors.md; src/rest/monitors/monitors-openapi.ts takes their JSON Schema, as jobs do,
 * src/jobs/job-shape.ts). The TypeScript types the answers are built with (./views.ts, ./events.ts,
 * ./store/records.ts) are checked to have the same fields (`SHAPES_MATCH` below), so the two cannot drift apart.
 * Each schema that is a named component is registered in `MONITOR_SCHEMAS` under that name.
 */
import { z } from 'zod';
import type { MonitorEvent } from './events.js';
import type { HistoryEntry } from './store/records.js';
import type { MonitorView, PairStateView } from './views.js';

export const MONITOR_SCHEMAS = z.registry<{ id: string; description?: string }>();

function named<T extends z.ZodType>(schema: T, id: string, description: string): T {
  MONITOR_SCHEMAS.add(schema, { id, description });
  return schema;
}

const time = () => z.string().meta({ format: 'date-time' });
const target = () =>
  z
    .union([z.string(), z.record(z.string(), z.string())])
    .describe("a text (each check's main parameter) or an object of parameters");

export const monitorViewSchema = named(
  z.object({
    id: z.string().describe('mon_ and 22 characters'),
    name: z.string(),
    checks: z.array(z.string()).describe('the tools, presets expanded'),
    targets: z.int().min(1).describe('how many targets'),
    every: z.string().describe('a duration: 30s, 15m, 6h, 1d'),
    paused: z.boolean().describe('paused by PATCH, or by an allowance that did not cover the last run'),
    public: z.boolean(),
    warnDays: z.int(),
    createdAt: time(),
    lastRunAt: time().nullable(),
    nextRunAt: time().nullable(),
    runs: z.int().min(0).describe('runs started (charged)'),
    skippedRuns: z.int().min(0).describe('due times skipped because the run before was still going'),
    notify: z
      .object({
        webhook: z.string(),
        status: z.string().describe('idle, ok or failing'),
        lastError: z.string().nullable(),
        failedEvents: z.int().min(0),
      })
      .nullable(),
    links: z.object({
      self: z.string(),
      history: z.string(),
      events: z.string(),
      badge: z.string().optional().describe('a public monitor only'),
    }),
    secret: z.string().optional().describe("the webhook's signing secret: in the 201 only"),
  }),
  'Monitor',
  'A monitor (docs/monitors.md).',
);

export const pairStateSchema = named(
  z.object({
    target: target(),
    check: z.string(),
    status: z.enum(['ok', 'info', 'warning', 'critical', 'error', 'pending']),
    summary: z.string(),
    grade: z.string().nullable().describe("a rating's letter, else null"),
    lastRunAt: time().nullable(),
    lastChangeAt: time().nullable(),
  }),
  'MonitorPairState',
  'The latest state of one target × check.',
);

export const monitorDetailSchema = named(
  monitorViewSchema.extend({ state: z.array(pairStateSchema) }),
  'MonitorDetail',
  'A monitor with the state of each target × check.',
);

export const monitorPageSchema = named(
  z.object({ monitors: z.array(monitorViewSchema), nextCursor: z.string().nullable() }),
  'MonitorPage',
  "A page of the key's monitors, newest first.",
);

export const historyEntrySchema = named(
  z.object({
    runId: z.string(),
    at: time(),
    target: target(),
    check: z.string(),
    ok: z.boolean(),
    status: z.int().describe('the HTTP status the single call would have had'),
    data: z.record(z.string(), z.unknown()).optional().describe("the single call's data"),
    error: z.object({ code: z.string(), message: z.string() }).optional(),
  }),
  'MonitorRun',
  "One run of one target × check: the single call's data or its error.",
);

export const historyPageSchema = named(
  z.object({ runs: z.array(historyEntrySchema), nextCursor: z.string().nullable() }),
  'MonitorHistory',
  'Runs, newest first.',
);

export const monitorEventSchema = named(
  z.object({
    id: z.string().describe('<monitor id>.<number>, ordered'),
    at: time(),
    monitorId: z.string(),
    target: target().nullable(),
    check: z.string().nullable(),
    kind: z.enum(['changed', 'failing', 'recovered', 'expiring', 'paused', 'resumed']),
    severity: z.enum(['info', 'warning', 'critical']),
    summary: z.string().describe('one sentence a person reads'),
    changes: z.array(z.object({ path: z.string(), before: z.unknown(), after: z.unknown() })),
  }),
  'MonitorEvent',
  'An event (docs/contract/monitors.md "Events").',
);

export const eventPageSchema = named(
  z.object({ events: z.array(monitorEventSchema), nextCursor: z.string().nullable() }),
  'MonitorEvents',
  'Events, newest first (with ?since=, the newer ones, oldest first).',
);

export const monitorBodySchema = named(
  z.object({
    name: z.string().max(200).optional(),
    checks: z.array(z.string()).min(1).describe('v1 tools or presets: web, mail, tls'),
    targets: z.array(target()).min(1),
    params: z.record(z.string(), z.union([z.string(), z.number(), z.boolean()])).optional(),
    every: z.string().describe('a duration of at least monitors.minInterval: 30s, 15m, 6h, 1d'),
    notify: z
      .object({ webhook: z.string().describe('https') })
      .nullable()
      .optional(),
    warnDays: z.int().min(1).max(365).optional(),
    public: z.boolean().optional(),
  }),
  'MonitorBody',
  'A monitor to create.',
);

export const monitorPatchSchema = named(
  z.object({
    name: z.string().max(200).optional(),
    every: z.string().optional(),
    notify: z.object({ webhook: z.string() }).nullable().optional(),
    warnDays: z.int().min(1).max(365).optional(),
    paused: z.boolean().optional(),
    public: z.boolean().optional(),
  }),
  'MonitorPatch',
  'What PATCH changes.',
);

// the answers' types have exactly the declared shapes' fields (a field added to one and not the other fails to compile)
type SameFields<A, B> = [keyof A] extends [keyof B] ? ([keyof B] extends [keyof A] ? true : false) : false;
export const SHAPES_MATCH: [
  SameFields<MonitorView, Omit<z.infer<typeof monitorViewSchema>, 'secret'>>,
  SameFields<PairStateView, z.infer<typeof pairStateSchema>>,
  SameFields<HistoryEntry, z.infer<typeof historyEntrySchema>>,
  SameFields<MonitorEvent, z.infer<typeof monitorEventSchema>>,
] = [true, true, true, true];
