/**
 * The GraphQL face of monitors (docs/contract/monitors.md, docs/monitors.md "GraphQL"): `monitor(id)` and
 * `monitors` on Query; `createMonitor`, `updateMonitor`, `deleteMonitor` and `runMonitor` on Mutation;
 * `monitorEvents(id)` on Subscription (over SSE). They go through the same operations as the REST
 * endpoints (the request context's `monitors`, src/monitors/runtime/monitor-operations.ts), so refusals,
 * messages and prices are the same: a run is charged when it starts; the fields themselves are free.
 * A monitor's input is the REST body (JSON): one reading, one set of messages.
 */
import { GraphQLError } from 'graphql';
import type { MonitorEvent } from '../../monitors/events.js';
import type {
  MonitorCreated,
  MonitorDetail,
  MonitorsAnswer,
  MonitorsPort,
} from '../../monitors/runtime/monitor-operations.js';
import type { MonitorView, PairStateView } from '../../monitors/views.js';
import { builder } from '../builder.js';
import type { RequestContext } from '../context.js';

const Monitor = builder.objectRef<MonitorView & { state?: PairStateView[]; secret?: string }>('Monitor');
const MonitorPairState = builder.objectRef<PairStateView>('MonitorPairState');
const MonitorEventRef = builder.objectRef<MonitorEvent>('MonitorEvent');
const MonitorList = builder.objectRef<{ monitors: MonitorView[]; nextCursor: string | null }>('MonitorList');

MonitorPairState.implement({
  description: 'The latest state of one target × check.',
  fields: (t) => ({
    target: t.field({ type: 'JSON', resolve: (s) => s.target, description: 'the target as given' }),
    check: t.exposeString('check'),
    status: t.exposeString('status', { description: 'ok, info, warning, critical, error or pending' }),
    summary: t.exposeString('summary'),
    grade: t.exposeString('grade', { nullable: true, description: "a rating's letter, else null" }),
    lastRunAt: t.exposeString('lastRunAt', { nullable: true }),
    lastChangeAt: t.exposeString('lastChangeAt', { nullable: true }),
  }),
});

Monitor.implement({
  description: 'A monitor: checks run over targets on a schedule (docs/monitors.md).',
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    checks: t.exposeStringList('checks'),
    targets: t.exposeInt('targets', { description: 'how many targets' }),
    every: t.exposeString('every'),
    paused: t.exposeBoolean('paused'),
    public: t.exposeBoolean('public'),
    warnDays: t.exposeInt('warnDays'),
    createdAt: t.exposeString('createdAt'),
    lastRunAt: t.exposeString('lastRunAt', { nullable: true }),
    nextRunAt: t.exposeString('nextRunAt', { nullable: true }),
    runs: t.exposeInt('runs'),
    skippedRuns: t.exposeInt('skippedRuns', {
      description: 'due times skipped because the run before was still going',
    }),
    notify: t.field({
      type: 'JSON',
      nullable: true,
      resolve: (m) => m.notify,
      description: '{ webhook, status, lastError, failedEvents } or null',
    }),
    links: t.field({ type: 'JSON', resolve: (m) => m.links, description: '{ self, history, events, badge? }' }),
    state: t.field({
      type: [MonitorPairState],
      nullable: true,
      resolve: (m) => m.state ?? null,
      description: 'one entry per target × check (monitor(id) only)',
    }),
    secret: t.exposeString('secret', {
      nullable: true,
      description:
        "the webhook's signing secret: in createMonitor's answer only (and updateMonitor's when it sets the first webhook)",
    }),
  }),
});

MonitorEventRef.implement({
  description: 'An event of a monitor (docs/contract/monitors.md "Events").',
  fields: (t) => ({
    id: t.exposeID('id'),
    at: t.exposeString('at'),
    monitorId: t.exposeString('monitorId'),
    target: t.field({ type: 'JSON', nullable: true, resolve: (e) => e.target }),
    check: t.exposeString('check', { nullable: true }),
    kind: t.exposeString('kind', { description: 'changed, failing, recovered, expiring, paused or resumed' }),
    severity: t.exposeString('severity', { description: 'info, warning or critical' }),
    summary: t.exposeString('summary'),
    changes: t.field({ type: 'JSON', resolve: (e) => e.changes, description: '[{ path, before, after }]' }),
  }),
});

MonitorList.implement({
  fields: (t) => ({
    monitors: t.field({ type: [Monitor], resolve: (l) => l.monitors }),
    nextCursor: t.exposeString('nextCursor', { nullable: true }),
  }),
});

function portOf(ctx: RequestContext): { monitors: MonitorsPort; identity: { id: string; kind: 'static' | 'issued' } } {
  if (!ctx.monitors)
    throw refusal({ ok: false, status: 503, code: 'UNAVAILABLE', error: 'monitors are not offered here' });
  if (!ctx.auth.ok) throw refusal({ ok: false, status: 401, code: 'NOT_FOUND', error: ctx.auth.error.message });
  return { monitors: ctx.monitors, identity: ctx.auth.identity };
}

function refusal(answer: MonitorsAnswer<unknown> & { ok: false }): GraphQLError {
  const status = answer.status;
  return new GraphQLError(answer.error, {
    extensions: { code: answer.code, status, http: { status, ...(answer.headers ? { headers: answer.headers } : {}) } },
  });
}

function unwrap<T>(answer: MonitorsAnswer<T>, ctx: RequestContext): T {
  if (answer.headers) Object.assign(ctx.responseHeaders, answer.headers);
  if (!answer.ok) throw refusal(answer);
  return answer.data;
}

const orNull = <T>(answer: MonitorsAnswer<T>, ctx: RequestContext): T | null =>
  !answer.ok && answer.status === 404 ? null : unwrap(answer, ctx);

builder.queryField('monitor', (t) =>
  t.field({
    type: Monitor,
    nullable: true,
    description: "A monitor of the caller's key with its state (null for an unknown id or another key's). Free.",
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_root, args, ctx) => {
      const { monitors, identity } = portOf(ctx);
      return orNull<MonitorDetail>(await monitors.get(String(args.id), identity.id), ctx);
    },
  }),
);

builder.queryField('monitors', (t) =>
  t.field({
    type: MonitorList,
    description: "The caller key's monitors, newest first. Free.",
    args: { limit: t.arg.int({ required: false }), cursor: t.arg.string({ required: false }) },
    resolve: async (_root, args, ctx) => {
      const { monitors, identity } = portOf(ctx);
      return unwrap(await monitors.list(identity.id, args.limit ?? null, args.cursor ?? null), ctx);
    },
  }),
);

builder.mutationField('createMonitor', (t) =>
  t.field({
    type: Monitor,
    description:
      'Creates a monitor from the body POST /api/v1/monitors takes ({ name, checks, targets, params, every, notify, warnDays, public }); its first run starts at once. Each run costs the checks’ prices × targets.',
    args: { input: t.arg({ type: 'JSON', required: true }) },
    resolve: async (_root, args, ctx) => {
      const { monitors, identity } = portOf(ctx);
      return unwrap<MonitorCreated>(
        await monitors.create(args.input, { identity, request: ctx.request, url: ctx.url }),
        ctx,
      );
    },
  }),
);

builder.mutationField('updateMonitor', (t) =>
  t.field({
    type: Monitor,
    description: 'Changes any of name, every, notify, warnDays, paused, public (the body PATCH takes). Free.',
    args: { id: t.arg.id({ required: true }), input: t.arg({ type: 'JSON', required: true }) },
    resolve: async (_root, args, ctx) => {
      const { monitors, identity } = portOf(ctx);
      return unwrap(
        await monitors.update(String(args.id), args.input, { identity, request: ctx.request, url: ctx.url }),
        ctx,
      );
    },
  }),
);

builder.mutationField('deleteMonitor', (t) =>
  t.boolean({
    description: 'Deletes a monitor: no run starts after it, its history and events are purged. Free.',
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_root, args, ctx) => {
      const { monitors, identity } = portOf(ctx);
      unwrap(await monitors.remove(String(args.id), identity.id), ctx);
      return true;
    },
  }),
);

builder.mutationField('runMonitor', (t) =>
  t.field({
    type: Monitor,
    description: 'One run now (charged as any run), then the schedule continues.',
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_root, args, ctx) => {
      const { monitors, identity } = portOf(ctx);
      return unwrap(await monitors.runNow(String(args.id), identity.id), ctx);
    },
  }),
);

builder.subscriptionType({ description: "Monitors' events only: monitorEvents (docs/monitors.md)." });

builder.subscriptionField('monitorEvents', (t) =>
  t.field({
    type: MonitorEventRef,
    description:
      "A monitor's events as they are made (over SSE), after `lastEventId` when given (a resume), else from now on. Free; a key holds at most jobs.maxStreamsPerKey streams per process.",
    args: { id: t.arg.id({ required: true }), lastEventId: t.arg.string({ required: false }) },
    subscribe: async (_root, args, ctx) => {
      const { monitors, identity } = portOf(ctx);
      return unwrap(
        await monitors.subscribe(String(args.id), identity.id, args.lastEventId ?? null, ctx.request.signal),
        ctx,
      );
    },
    resolve: (event) => event,
  }),
);
