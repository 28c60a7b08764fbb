/**
 * The monitor operations with their rules (docs/contract/monitors.md), for the REST endpoints
 * (src/rest/monitors/) — one port, as jobs have (src/jobs/jobs-port.ts). Reading, listing, changing and
 * deleting are free; runs are charged when they start (./monitor-run.ts). A monitor belongs to its key:
 * another key's is answered as an unknown one (404). Every store step is bounded by
 * `server.requestTimeoutMs`: a store that does not answer is a 503.
 */
import { InputError, NetdiagError } from '../../errors.js';
import type { JobTools } from '../../jobs/job-tools.js';
import { checkWebhookUrl } from '../../jobs/signed-delivery.js';
import type { KeyIdentity } from '../../platform/keys.js';
import type { Services } from '../../services.js';
import { BADGE_CACHE_CONTROL, badgeOf } from '../badge.js';
import { PENDING_STATE } from '../evaluate.js';
import type { MonitorEvent } from '../events.js';
import type { MonitorSchedule } from '../schedule/monitor-schedule.js';
import type { MonitorStore } from '../store/monitor-store.js';
import {
  type HistoryEntry,
  type MonitorPatch,
  type MonitorRecord,
  newMonitorId,
  newWebhookSecret,
} from '../store/records.js';
import { MonitorSubmissionError, readMonitorPatch, readMonitorSubmission } from '../submission.js';
import { parseDuration } from '../duration.js';
import { type MonitorView, monitorView, type PairStateView, pairStates, targetIndexOf } from '../views.js';
import type { MonitorEventHub } from './monitor-event-hub.js';
import { monitorItemValues } from './monitor-run.js';
import { boundedStoreStep } from '../../platform/bounded-store-step.js';

export const DEFAULT_PAGE = 20;
export const MAX_PAGE = 100;

export type MonitorsAnswer<T> =
  | { readonly ok: true; readonly data: T; readonly headers?: Record<string, string> }
  | {
      readonly ok: false;
      readonly status: number;
      readonly code: 'BAD_INPUT' | 'NOT_FOUND' | 'MONITOR_LIMIT' | 'STREAM_LIMIT' | 'UNAVAILABLE';
      readonly error: string;
      readonly headers?: Record<string, string>;
    };

export interface MonitorsCaller {
  readonly identity: KeyIdentity;
  readonly request: Request;
  readonly url: URL;
}

export type MonitorCreated = MonitorView & { readonly secret?: string };
export type MonitorDetail = MonitorView & { readonly state: PairStateView[] };

export interface MonitorsPort {
  create(input: unknown, caller: MonitorsCaller): Promise<MonitorsAnswer<MonitorCreated>>;
  get(id: string, keyId: string): Promise<MonitorsAnswer<MonitorDetail>>;
  list(
    keyId: string,
    limit: number | null,
    cursor: string | null,
  ): Promise<MonitorsAnswer<{ monitors: MonitorView[]; nextCursor: string | null }>>;
  update(id: string, input: unknown, caller: MonitorsCaller): Promise<MonitorsAnswer<MonitorCreated>>;
  remove(id: string, keyId: string): Promise<MonitorsAnswer<null>>;
  runNow(id: string, keyId: string): Promise<MonitorsAnswer<MonitorView>>;
  history(
    id: string,
    keyId: string,
    query: { target: string | null; check: string | null; limit: number | null; before: string | null },
  ): Promise<MonitorsAnswer<{ runs: HistoryEntry[]; nextCursor: string | null }>>;
  events(
    id: string,
    keyId: string,
    query: { since: string | null; before: string | null; limit: number | null },
  ): Promise<MonitorsAnswer<{ events: MonitorEvent[]; nextCursor: string | null }>>;
  follow(
    id: string,
    keyId: string,
    lastEventId: string | null,
    signal: AbortSignal,
  ): Promise<MonitorsAnswer<ReadableStream<Uint8Array>>>;
  /** the events as they come (the GraphQL subscription `monitorEvents`) */
  subscribe(
    id: string,
    keyId: string,
    lastEventId: string | null,
    signal: AbortSignal,
  ): Promise<MonitorsAnswer<AsyncIterable<MonitorEvent>>>;
  /** the badge of a public monitor's check; null: 404 (unknown, not public, not one of its checks) */
  badge(
    id: string,
    check: string,
    target: string | null,
  ): Promise<{ svg: string; etag: string; cacheControl: string } | null>;
}

/** Every operation answers 503 with `message` (Redis mode until its store and schedule are there). */
export function unavailableMonitors(message: string): MonitorsPort {
  const no = async (): Promise<MonitorsAnswer<never>> => ({
    ok: false,
    status: 503,
    code: 'UNAVAILABLE',
    error: message,
    headers: { 'retry-after': '3600' },
  });
  return {
    create: no,
    get: no,
    list: no,
    update: no,
    remove: no,
    runNow: no,
    history: no,
    events: no,
    follow: no,
    subscribe: no,
    badge: async () => null,
  };
}

export interface MonitorOperationsOptions {
  readonly store: () => MonitorStore;
  readonly schedule: () => MonitorSchedule;
  readonly hub: MonitorEventHub;
  readonly tools: JobTools;
  readonly services: Services;
  /** the tools a monitor may run: those with a watched-fields spec */
  readonly specs: ReadonlyMap<string, unknown>;
}

const MONITOR_ID = /^mon_[A-Za-z0-9_-]{22}$/;

export function createMonitorOperations(options: MonitorOperationsOptions): MonitorsPort {
  const { hub, tools, services, specs } = options;
  const { config, logger } = services;
  const boundMs = config.server.requestTimeoutMs;
  const minIntervalMs = parseDuration(config.monitors.minInterval) ?? 900_000;

  /** a store step within the request bound, or a 503 that says the store did not answer */
  const bounded = boundedStoreStep({ store: 'the monitor store', boundMs, logger, event: 'monitor_store_failed' });

  const store = () => options.store();

  async function readOwn(id: string, keyId: string): Promise<MonitorRecord | null> {
    if (!MONITOR_ID.test(id)) return null;
    const monitor = await bounded('read', () => store().get(id));
    return monitor && monitor.keyId === keyId ? monitor : null;
  }

  const notFound = (id: string): MonitorsAnswer<never> => ({
    ok: false,
    status: 404,
    code: 'NOT_FOUND',
    error: `no such monitor: ${id.slice(0, 64)}`,
  });
  const bad = (message: string): MonitorsAnswer<never> => ({
    ok: false,
    status: 400,
    code: 'BAD_INPUT',
    error: message,
  });

  const tooManyStreams = (): MonitorsAnswer<never> => ({
    ok: false,
    status: 429,
    code: 'STREAM_LIMIT',
    error: `this key has ${config.jobs.maxStreamsPerKey} event streams open here, the most it may have (jobs.maxStreamsPerKey); close one first`,
    headers: { 'retry-after': '5' },
  });

  async function view(monitor: MonitorRecord): Promise<MonitorView> {
    return monitorView(monitor, await bounded('progress', () => store().progress(monitor.id)));
  }

  /** the webhook's host checked by the target guard (decisions §7); a refusal is a 400 naming notify.webhook */
  async function checkedNotify(
    notify: { webhook: string } | null | undefined,
    signal: AbortSignal,
  ): Promise<{ webhook: string } | null | undefined> {
    if (!notify) return notify;
    const url = await checkWebhookUrl(notify.webhook, services, signal, 'notify.webhook');
    return { webhook: url.href };
  }

  function readPage(limit: number | null): number | string {
    const size = limit ?? DEFAULT_PAGE;
    if (!Number.isInteger(size) || size < 1 || size > MAX_PAGE) return `limit: a whole number from 1 to ${MAX_PAGE}`;
    return size;
  }

  return {
    async create(input, caller) {
      const { identity } = caller;
      const validator = tools.validator(caller);
      let submission: Awaited<ReturnType<typeof readMonitorSubmission>>;
      try {
        submission = await readMonitorSubmission(input, {
          minIntervalMs,
          maxTargets: config.monitors.maxTargets,
          tools: specs,
          validateTarget(check, target, params) {
            const tool = tools.get(check);
            if (!tool) return `${check} is not served here`;
            try {
              validator.check(tool, monitorItemValues(params, target, tool));
              return null;
            } catch (e) {
              if (e instanceof NetdiagError && e.status === 400) return e.message;
              throw e;
            }
          },
        });
        submission = { ...submission, notify: (await checkedNotify(submission.notify, caller.request.signal)) ?? null };
      } catch (e) {
        if (e instanceof MonitorSubmissionError || e instanceof InputError) return bad(e.message);
        if (e instanceof NetdiagError && e.status === 400) return bad(e.message);
        throw e;
      } finally {
        validator.close();
      }
      const now = new Date(services.now());
      const record: MonitorRecord = {
        id: newMonitorId(),
        keyId: identity.id,
        ...submission,
        paused: false,
        secret: newWebhookSecret(),
        createdAt: now.toISOString(),
        updatedAt: now.toISOString(),
      };
      const limits = { maxPerKey: config.monitors.maxPerKey, maxPairsPerKey: config.monitors.maxPairsPerKey };
      const created = await bounded('create', () => store().create(record, limits));
      if (!created.ok)
        return {
          ok: false,
          status: 429,
          code: 'MONITOR_LIMIT',
          error:
            created.limit === 'monitors'
              ? `this key has ${limits.maxPerKey} monitors, the most it may have (monitors.maxPerKey); delete one first`
              : `this monitor's ${record.targets.length * record.checks.length} target × check pairs would take this key past ${limits.maxPairsPerKey} (monitors.maxPairsPerKey); delete a monitor or watch fewer`,
        };
      // the first run starts at once
      await bounded('schedule', () => options.schedule().upsert(record.id, record.everyMs, now.getTime()));
      const data = { ...monitorView(record, null), nextRunAt: now.toISOString(), secret: record.secret };
      return { ok: true, data };
    },

    async get(id, keyId) {
      const monitor = await readOwn(id, keyId);
      if (!monitor) return notFound(id);
      const states = await bounded('states', () => store().states(id));
      return { ok: true, data: { ...(await view(monitor)), state: pairStates(monitor, states) } };
    },

    async list(keyId, limit, cursor) {
      const size = readPage(limit);
      if (typeof size === 'string') return bad(size);
      const page = await bounded('list', () => store().listByKey(keyId, { limit: size, before: cursor }));
      const monitors = await Promise.all(page.items.map(view));
      return { ok: true, data: { monitors, nextCursor: page.nextCursor } };
    },

    async update(id, input, caller) {
      const monitor = await readOwn(id, caller.identity.id);
      if (!monitor) return notFound(id);
      let patch: MonitorPatch;
      try {
        patch = readMonitorPatch(input, { minIntervalMs });
        if (patch.notify) patch = { ...patch, notify: (await checkedNotify(patch.notify, caller.request.signal))! };
      } catch (e) {
        if (e instanceof MonitorSubmissionError || (e instanceof NetdiagError && e.status === 400))
          return bad(e.message);
        throw e;
      }
      const now = services.now();
      const updated = await bounded('update', () => store().update(id, patch, new Date(now)));
      if (!updated) return notFound(id);
      if (patch.everyMs !== undefined && patch.everyMs !== monitor.everyMs) {
        // the next run `every` after the last one (or now, when that has passed)
        const progress = await bounded('progress', () => store().progress(id));
        const last = progress?.lastRunAt ? Date.parse(progress.lastRunAt) : now;
        await bounded('schedule', () =>
          options.schedule().upsert(id, patch.everyMs!, Math.max(now, last + patch.everyMs!)),
        );
      }
      const data: MonitorCreated = {
        ...(await view(updated)),
        // a webhook set where there was none: its signing secret, which the caller has not seen yet
        ...(patch.notify && !monitor.notify ? { secret: updated.secret } : {}),
      };
      return { ok: true, data };
    },

    async remove(id, keyId) {
      const monitor = await readOwn(id, keyId);
      if (!monitor) return notFound(id);
      await bounded('schedule', () => options.schedule().remove(id));
      await bounded('delete', () => store().delete(id));
      return { ok: true, data: null };
    },

    async runNow(id, keyId) {
      const monitor = await readOwn(id, keyId);
      if (!monitor) return notFound(id);
      // one run now, then every `every` after it
      await bounded('schedule', () => options.schedule().upsert(id, monitor.everyMs, services.now()));
      return { ok: true, data: await view(monitor) };
    },

    async history(id, keyId, query) {
      const monitor = await readOwn(id, keyId);
      if (!monitor) return notFound(id);
      const size = readPage(query.limit);
      if (typeof size === 'string') return bad(size);
      let targetIndex: number | undefined;
      if (query.target !== null) {
        const index = targetIndexOf(monitor, query.target);
        if (index === null)
          return bad(`target: ${JSON.stringify(query.target.slice(0, 80))} is not one of this monitor's targets`);
        targetIndex = index;
      }
      if (query.check !== null && !monitor.checks.includes(query.check))
        return bad(`check: one of this monitor's checks (${monitor.checks.join(', ')})`);
      if (query.before !== null && !/^[1-9][0-9]{0,15}$/.test(query.before))
        return bad('before: a nextCursor of an earlier page');
      const page = await bounded('history', () =>
        store().history(id, {
          limit: size,
          before: query.before,
          ...(targetIndex !== undefined ? { targetIndex } : {}),
          ...(query.check !== null ? { check: query.check } : {}),
        }),
      );
      return { ok: true, data: { runs: page.items, nextCursor: page.nextCursor } };
    },

    async events(id, keyId, query) {
      const monitor = await readOwn(id, keyId);
      if (!monitor) return notFound(id);
      const size = readPage(query.limit);
      if (typeof size === 'string') return bad(size);
      for (const [name, value] of [
        ['since', query.since],
        ['before', query.before],
      ] as const)
        if (value !== null && !value.startsWith(`${id}.`)) return bad(`${name}: an event id of this monitor`);
      const page = await bounded('events', () =>
        store().events(id, { limit: size, before: query.before, since: query.since }),
      );
      return { ok: true, data: { events: page.items, nextCursor: page.nextCursor } };
    },

    async follow(id, keyId, lastEventId, signal) {
      const monitor = await readOwn(id, keyId);
      if (!monitor) return notFound(id);
      const last = lastEventId?.startsWith(`${id}.`) ? lastEventId : null;
      const stream = await hub.open(id, keyId, last, signal);
      return stream === 'too-many' ? tooManyStreams() : { ok: true, data: stream };
    },

    async subscribe(id, keyId, lastEventId, signal) {
      const monitor = await readOwn(id, keyId);
      if (!monitor) return notFound(id);
      const last = lastEventId?.startsWith(`${id}.`) ? lastEventId : null;
      const events = await hub.subscribe(id, keyId, last, signal);
      return events === 'too-many' ? tooManyStreams() : { ok: true, data: events };
    },

    async badge(id, check, target) {
      if (!MONITOR_ID.test(id)) return null;
      const monitor = await bounded('read', () => store().get(id));
      if (!monitor?.public || !monitor.checks.includes(check)) return null;
      const targetIndex = target === null ? 0 : targetIndexOf(monitor, target);
      if (targetIndex === null) return null;
      const state = (await bounded('state', () => store().state(id, targetIndex, check))) ?? PENDING_STATE;
      return { ...badgeOf(check, state), cacheControl: BADGE_CACHE_CONTROL };
    },
  };
}
