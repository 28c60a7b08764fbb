/**
 * The monitors' store on Redis (docs/contract/monitors.md "Behaviour", with `store.redisUrl`): what
 * ./monitor-store.ts promises, shared by every instance on one Redis. Layout: ./redis-monitor-keys.ts.
 *
 * What the embedded store (./embedded-monitor-store.ts) commits in one transaction is one Lua script here
 * (./redis-monitor-scripts.ts). The pure parts run in Node: a run's outcome is evaluated (../evaluate.ts)
 * over the pair's state as read, and the script commits it only if the pair's last run id (its version:
 * it only grows) is still the one read, else the store reads again and evaluates again. Two instances
 * committing one item at once: one commits, the other reads the committed run id and answers `duplicate`.
 *
 * Every read on a request path is an index read (a sorted set by number, a hash by field): no scan of
 * Redis' keys, no list of every monitor read at once. Pruning walks the monitors a stretch per call.
 */
import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Logger } from '../../log.js';
import { chargeOutcome } from '../allowance.js';
import { evaluateRun, type PairState } from '../evaluate.js';
import type { MonitorEvent, NewMonitorEvent } from '../events.js';
import type { CompiledWatchSpec } from '../../watch/watch-spec.js';
import type {
  BeginRun,
  CreateResult,
  MonitorLimits,
  MonitorStore,
  OutcomeInput,
  Page,
  PairStateEntry,
} from './monitor-store.js';
import {
  eventIdOf,
  eventSeqOf,
  type HistoryEntry,
  historyEntry,
  type MonitorPatch,
  type MonitorProgress,
  type MonitorRecord,
  type StoredRun,
} from './records.js';
import { type MonitorKeys, monitorKeys, pairField, parsePairField } from './redis-monitor-keys.js';
import {
  BEGIN_RUN,
  CREATE_MONITOR,
  DELETE_MONITOR,
  FINISH_RUN,
  MARK_DELIVERED,
  PRUNE_EVENTS,
  RECORD_CHARGE,
  RECORD_OUTCOME,
  UPDATE_MONITOR,
} from './redis-monitor-scripts.js';

/**
 * A Redis connection whose commands are bounded: the instance's (src/platform/redis.ts `connectRedis`
 * makes one; it has this shape), so that a Redis that is down makes a request fail at once with a 503.
 */
export interface MonitorRedisConnection {
  readonly client: Redis;
  run<T>(commands: (client: Redis) => Promise<T>): Promise<T>;
  /** the error to throw when a command for `purpose` failed */
  unavailable(purpose: string, cause: unknown): Error;
}

export interface RedisMonitorStoreOptions {
  /** the instance's bounded connection, or a plain ioredis client (its own time-outs apply) */
  readonly redis: MonitorRedisConnection | Redis;
  /** where the keys live (./redis-monitor-keys.ts); `netdiag:monitors:` by default */
  readonly prefix?: string;
  /** monitors.keepRuns */
  readonly keepRuns: number;
  /** monitors.keepEventsDays */
  readonly keepEventsDays: number;
  /** the watch spec of each tool (src/graphql-server/watch-specs.ts): monitors receive them as data */
  readonly specs: ReadonlyMap<string, CompiledWatchSpec>;
  /** where a failed purge of a deleted monitor is reported (it is tried again by `prune`) */
  readonly logger?: Logger;
}

interface Scripts extends Redis {
  ndMonCreate(...args: (string | number)[]): Promise<string>;
  ndMonUpdate(...args: (string | number)[]): Promise<number>;
  ndMonDelete(...args: (string | number)[]): Promise<number>;
  ndMonBegin(...args: (string | number)[]): Promise<[string, string?]>;
  ndMonCharge(...args: (string | number)[]): Promise<number>;
  ndMonOutcome(...args: (string | number)[]): Promise<[string, number?]>;
  ndMonFinish(...args: (string | number)[]): Promise<number>;
  ndMonDelivered(...args: (string | number)[]): Promise<number>;
  ndMonPrune(...args: (string | number)[]): Promise<number>;
}

const COMMANDS: [name: string, keys: number, lua: string][] = [
  ['ndMonCreate', 4, CREATE_MONITOR],
  ['ndMonUpdate', 2, UPDATE_MONITOR],
  ['ndMonDelete', 4, DELETE_MONITOR],
  ['ndMonBegin', 1, BEGIN_RUN],
  ['ndMonCharge', 4, RECORD_CHARGE],
  ['ndMonOutcome', 9, RECORD_OUTCOME],
  ['ndMonFinish', 1, FINISH_RUN],
  ['ndMonDelivered', 2, MARK_DELIVERED],
  ['ndMonPrune', 2, PRUNE_EVENTS],
];

/** The progress's fields in the monitor's hash (./redis-monitor-keys.ts). */
const PROGRESS_FIELDS = [
  'runs',
  'skipped',
  'lastRunAt',
  'nextRunAt',
  'curRunId',
  'curStartedAt',
  'curCharged',
  'lastRunId',
  'allowancePaused',
  'runSeq',
  'eventSeq',
  'deliveredSeq',
  'deliveryStatus',
  'lastError',
  'failedEvents',
] as const;

const NEW_PROGRESS_FIELDS: Record<(typeof PROGRESS_FIELDS)[number], string | number> = {
  runs: 0,
  skipped: 0,
  lastRunAt: '',
  nextRunAt: '',
  curRunId: '',
  curStartedAt: '',
  curCharged: 0,
  lastRunId: '',
  allowancePaused: 0,
  runSeq: 0,
  eventSeq: 0,
  deliveredSeq: 0,
  deliveryStatus: 'idle',
  lastError: '',
  failedEvents: 0,
};

const DAY_MS = 86_400_000;
/** Monitors one `prune` call walks, and old events it deletes per monitor. */
const PRUNE_MONITORS = 200;
const PRUNE_BATCH = 500;
/** Deleted monitors one `prune` call purges. */
const PURGE_MONITORS = 20;
/** Keys one UNLINK deletes (a deleted monitor has one key per pair). */
const UNLINK_BATCH = 500;
/** Run-order entries one history page reads at most when it filters across pairs, and per round trip. */
const HISTORY_SCAN = 20_000;
const HISTORY_CHUNK = 1_000;
/** Monitors' records this process keeps decoded, by their version (a run commits many outcomes of one monitor). */
const CACHED_RECORDS = 64;
/** Commits tried over a state that changed meanwhile before giving up (only instances racing on one item retry). */
const MAX_TRIES = 20;

const nullable = (text: string | null | undefined): string | null => (text ? text : null);

function progressOf(values: (string | null)[]): MonitorProgress | null {
  const f = Object.fromEntries(PROGRESS_FIELDS.map((name, i) => [name, values[i] ?? null])) as Record<
    (typeof PROGRESS_FIELDS)[number],
    string | null
  >;
  if (f.runs === null) return null;
  return {
    runs: Number(f.runs),
    skipped: Number(f.skipped),
    lastRunAt: nullable(f.lastRunAt),
    nextRunAt: nullable(f.nextRunAt),
    currentRun: f.curRunId
      ? { runId: f.curRunId, startedAt: f.curStartedAt ?? '', charged: f.curCharged === '1' }
      : null,
    lastRunId: nullable(f.lastRunId),
    allowancePaused: f.allowancePaused === '1',
    runSeq: Number(f.runSeq),
    eventSeq: Number(f.eventSeq),
    delivery: {
      deliveredSeq: Number(f.deliveredSeq),
      status: f.deliveryStatus as MonitorProgress['delivery']['status'],
      lastError: nullable(f.lastError),
      failedEvents: Number(f.failedEvents),
    },
  };
}

/** The events' arguments of a script: each as JSON (without id and monitorId) and its time in ms. */
function eventArgs(events: readonly NewMonitorEvent[]): (string | number)[] {
  return events.flatMap((event) => [JSON.stringify(event), Date.parse(event.at)]);
}

function numbered(id: string, first: number, events: readonly NewMonitorEvent[]): MonitorEvent[] {
  return events.map((event, i) => ({ id: eventIdOf(id, first + i), monitorId: id, ...event }));
}

const bit = (value: boolean) => (value ? '1' : '0');

/** A record's version: opaque and never reused, so that a version cached is never another record's. */
const newVersion = () => randomBytes(9).toString('base64url');

export interface RedisMonitorStore extends MonitorStore {
  /**
   * A page of the monitors with a webhook and events not yet delivered, in id order after `after`: what
   * a runner reads to find deliveries no process is making (a crash, a deliverer that died).
   */
  undeliveredMonitors(after: string | null, limit: number): Promise<string[]>;
}

export function createRedisMonitorStore(options: RedisMonitorStoreOptions): RedisMonitorStore {
  return new RedisStore(options);
}

class RedisStore implements RedisMonitorStore {
  readonly #connection: MonitorRedisConnection;
  readonly #keys: MonitorKeys;
  readonly #options: RedisMonitorStoreOptions;
  /** purges of deleted monitors under way in this process */
  readonly #purges = new Set<Promise<unknown>>();
  /** decoded records by id, with the version they were read at (`rv`): read again once it changes */
  readonly #records = new Map<string, { rv: string; record: MonitorRecord }>();

  constructor(options: RedisMonitorStoreOptions) {
    this.#options = options;
    this.#connection = 'run' in options.redis ? options.redis : plainConnection(options.redis);
    this.#keys = monitorKeys(options.prefix);
    const { client } = this.#connection;
    // ioredis sends a defined command as EVALSHA, and the script itself when the server does not have it
    for (const [name, numberOfKeys, lua] of COMMANDS)
      if (!(name in client)) client.defineCommand(name, { numberOfKeys, lua });
  }

  /** the commands under the connection's deadline; a failure is the store's 503 */
  async #run<T>(commands: (client: Scripts) => Promise<T>): Promise<T> {
    try {
      return await this.#connection.run((client) => commands(client as Scripts));
    } catch (e) {
      throw this.#connection.unavailable('the monitors store', e);
    }
  }

  /** The record at version `rv` (read with the caller's other reads): decoded once per version. */
  async #recordAt(id: string, rv: string | null): Promise<MonitorRecord | null> {
    if (rv === null) return null;
    const cached = this.#records.get(id);
    if (cached?.rv === rv) return cached.record;
    const [rec = null, rvNow = null] = await this.#run((c) => c.hmget(this.#keys.monitor(id), 'rec', 'rv'));
    if (rec === null || rvNow === null) return null;
    const record = JSON.parse(rec) as MonitorRecord;
    if (this.#records.size >= CACHED_RECORDS) this.#records.delete(this.#records.keys().next().value!);
    this.#records.set(id, { rv: rvNow, record });
    return record;
  }

  async #record(id: string): Promise<MonitorRecord | null> {
    return this.#recordAt(id, await this.#run((c) => c.hget(this.#keys.monitor(id), 'rv')));
  }

  async create(monitor: MonitorRecord, limits: MonitorLimits): Promise<CreateResult> {
    const k = this.#keys;
    const pairs = monitor.targets.length * monitor.checks.length;
    const member = `${monitor.createdAt} ${monitor.id}`;
    const fields: Record<string, string | number> = {
      rec: JSON.stringify(monitor),
      rv: newVersion(),
      keyId: monitor.keyId,
      member,
      pairs,
      paused: bit(monitor.paused),
      hook: bit(monitor.notify !== null),
      ...NEW_PROGRESS_FIELDS,
    };
    const answer = await this.#run((c) =>
      c.ndMonCreate(
        k.usage(monitor.keyId),
        k.byKey(monitor.keyId),
        k.monitor(monitor.id),
        k.all,
        limits.maxPerKey,
        limits.maxPairsPerKey,
        pairs,
        member,
        monitor.id,
        ...Object.entries(fields).flat(),
      ),
    );
    if (answer === 'ok') return { ok: true };
    if (answer === 'monitors' || answer === 'pairs') return { ok: false, limit: answer };
    throw new Error(`a monitor with the id ${monitor.id} exists`);
  }

  async get(id: string): Promise<MonitorRecord | null> {
    const rec = await this.#run((c) => c.hget(this.#keys.monitor(id), 'rec'));
    return rec === null ? null : (JSON.parse(rec) as MonitorRecord);
  }

  async update(id: string, patch: MonitorPatch, now: Date): Promise<MonitorRecord | null> {
    for (let tries = 0; tries < MAX_TRIES; tries++) {
      const [rec = null, rv = null] = await this.#run((c) => c.hmget(this.#keys.monitor(id), 'rec', 'rv'));
      if (rec === null || rv === null) return null;
      const monitor = JSON.parse(rec) as MonitorRecord;
      const updated: MonitorRecord = { ...monitor, ...patch, updatedAt: now.toISOString() };
      const written = await this.#run((c) =>
        c.ndMonUpdate(
          this.#keys.monitor(id),
          this.#keys.undelivered,
          rv,
          newVersion(),
          JSON.stringify(updated),
          bit(updated.paused),
          bit(updated.notify !== null && monitor.notify === null),
          bit(updated.notify !== null),
          id,
        ),
      );
      if (written === 1) return updated;
      if (written === 0) return null;
    }
    throw new Error(`the monitor ${id} kept changing while it was updated`);
  }

  async delete(id: string): Promise<boolean> {
    const k = this.#keys;
    const deleted = await this.#run((c) => c.ndMonDelete(k.monitor(id), k.all, k.deleted, k.undelivered, k.prefix, id));
    if (deleted === 1) this.#track(this.#purge(id));
    return deleted === 1;
  }

  async listByKey(keyId: string, options: { limit: number; before?: string | null }): Promise<Page<MonitorRecord>> {
    let from = '+';
    if (options.before) {
      const cursor = decodeCursor(options.before);
      // a cursor is an entry of this key's list, never another's
      if (cursor === null || cursor[0] !== keyId) return { items: [], nextCursor: null };
      from = `(${cursor[1]}`;
    }
    const members = await this.#run((c) =>
      c.zrange(this.#keys.byKey(keyId), from, '-', 'BYLEX', 'REV', 'LIMIT', 0, options.limit + 1),
    );
    const page = members.slice(0, options.limit);
    const recs = page.length
      ? await this.#run((c) => {
          const batch = c.multi();
          for (const member of page) batch.hget(this.#keys.monitor(member.slice(member.indexOf(' ') + 1)), 'rec');
          return batch.exec();
        })
      : [];
    const items = (recs ?? [])
      .map(([, rec]) => (typeof rec === 'string' ? (JSON.parse(rec) as MonitorRecord) : null))
      .filter((m): m is MonitorRecord => m !== null);
    return { items, nextCursor: members.length > options.limit ? encodeCursor([keyId, page.at(-1)!]) : null };
  }

  async usage(keyId: string): Promise<{ monitors: number; pairs: number }> {
    const [monitors, pairs] = await this.#run((c) => c.hmget(this.#keys.usage(keyId), 'monitors', 'pairs'));
    return { monitors: Number(monitors ?? 0), pairs: Number(pairs ?? 0) };
  }

  async progress(id: string): Promise<MonitorProgress | null> {
    return progressOf(await this.#run((c) => c.hmget(this.#keys.monitor(id), ...PROGRESS_FIELDS)));
  }

  async beginRun(id: string, run: { runId: string; at: Date; nextRunAt: Date }): Promise<BeginRun> {
    const [outcome, charged] = await this.#run((c) =>
      c.ndMonBegin(this.#keys.monitor(id), run.runId, run.at.toISOString(), run.nextRunAt.toISOString()),
    );
    if (outcome === 'resume') return { outcome, charged: charged === '1' };
    return { outcome } as BeginRun;
  }

  async recordCharge(id: string, runId: string, covered: boolean, at: Date): Promise<MonitorEvent[]> {
    const k = this.#keys;
    for (let tries = 0; tries < MAX_TRIES; tries++) {
      const [current = null, pausedRead = null] = await this.#run((c) =>
        c.hmget(k.monitor(id), 'curRunId', 'allowancePaused'),
      );
      if (current !== runId) return [];
      const { paused, events } = chargeOutcome(pausedRead === '1', covered, at);
      const first = await this.#run((c) =>
        c.ndMonCharge(
          k.monitor(id),
          k.events(id),
          k.eventTimes(id),
          k.undelivered,
          runId,
          pausedRead ?? '0',
          bit(paused),
          bit(covered),
          at.toISOString(),
          id,
          ...eventArgs(events),
        ),
      );
      if (first === 0) return [];
      if (first > 0) return numbered(id, first, events);
    }
    throw new Error(`the monitor ${id}'s allowance kept changing while a run was charged`);
  }

  async pendingItems(id: string, runId: string): Promise<{ targetIndex: number; check: string }[]> {
    const [rv, last] = await this.#run((c) =>
      Promise.all([c.hget(this.#keys.monitor(id), 'rv'), c.hgetall(this.#keys.last(id))]),
    );
    const monitor = await this.#recordAt(id, rv);
    if (monitor === null) return [];
    const pending: { targetIndex: number; check: string }[] = [];
    for (let targetIndex = 0; targetIndex < monitor.targets.length; targetIndex++)
      for (const check of monitor.checks)
        if ((last[pairField(targetIndex, check)] ?? '') < runId) pending.push({ targetIndex, check });
    return pending;
  }

  async recordOutcome(id: string, input: OutcomeInput): Promise<{ events: MonitorEvent[]; duplicate: boolean }> {
    const k = this.#keys;
    const field = pairField(input.targetIndex, input.check);
    const spec = this.#options.specs.get(input.check);
    for (let tries = 0; tries < MAX_TRIES; tries++) {
      const [rv, stateText, last] = await this.#run((c) =>
        Promise.all([c.hget(k.monitor(id), 'rv'), c.hget(k.states(id), field), c.hget(k.last(id), field)]),
      );
      const monitor = await this.#recordAt(id, rv);
      if (monitor === null) return { events: [], duplicate: false };
      const target = monitor.targets[input.targetIndex];
      if (!spec || target === undefined || !monitor.checks.includes(input.check))
        return { events: [], duplicate: false };
      if (last !== null && input.runId <= last) return { events: [], duplicate: true };
      const previous = stateText === null ? null : (JSON.parse(stateText) as PairState);
      const { state, events } = evaluateRun(previous, input.outcome, {
        spec,
        target,
        runId: input.runId,
        warnDays: monitor.warnDays,
        now: input.at,
      });
      const run: Omit<StoredRun, 'seq'> = {
        runId: input.runId,
        at: input.at.toISOString(),
        targetIndex: input.targetIndex,
        check: input.check,
        outcome: input.outcome,
      };
      const [answer, first] = await this.#run((c) =>
        c.ndMonOutcome(
          k.monitor(id),
          k.states(id),
          k.last(id),
          k.runs(id),
          k.order(id),
          k.pair(id, field),
          k.events(id),
          k.eventTimes(id),
          k.undelivered,
          field,
          last ?? '',
          input.runId,
          JSON.stringify(state),
          JSON.stringify(run),
          field,
          this.#options.keepRuns,
          this.#pruneCutoff(input.at),
          id,
          ...eventArgs(events),
        ),
      );
      if (answer === 'ok') return { events: numbered(id, Number(first), events), duplicate: false };
      if (answer === 'duplicate') return { events: [], duplicate: true };
      if (answer === 'gone') return { events: [], duplicate: false };
    }
    throw new Error(`the monitor ${id}'s ${field} kept changing while an outcome was committed`);
  }

  #pruneCutoff(now: Date): number {
    return now.getTime() - this.#options.keepEventsDays * DAY_MS;
  }

  async finishRun(id: string, runId: string, at: Date): Promise<void> {
    await this.#run((c) => c.ndMonFinish(this.#keys.monitor(id), runId, at.toISOString()));
  }

  async history(
    id: string,
    options: { targetIndex?: number; check?: string; limit: number; before?: string | null },
  ): Promise<Page<HistoryEntry>> {
    const k = this.#keys;
    const monitor = await this.#record(id);
    if (monitor === null) return { items: [], nextCursor: null };
    const before = options.before ? Number(options.before) : Number.POSITIVE_INFINITY;
    if (options.before && !Number.isSafeInteger(before)) return { items: [], nextCursor: null };
    const from = before === Number.POSITIVE_INFINITY ? '+inf' : `(${before}`;
    let seqs: string[];
    if (options.targetIndex !== undefined && options.check !== undefined) {
      const pair = k.pair(id, pairField(options.targetIndex, options.check));
      seqs = await this.#run((c) => c.zrevrangebyscore(pair, from, '-inf', 'LIMIT', 0, options.limit + 1));
    } else {
      // across pairs: the run order, filtered by the target or check given; a page reads a bounded stretch
      // of it, and may come back short with a cursor to go on from
      const filtered = options.targetIndex !== undefined || options.check !== undefined;
      const wanted = (entry: string) => {
        const [, targetIndex, check] = entry.split('|');
        return (
          (options.targetIndex === undefined || Number(targetIndex) === options.targetIndex) &&
          (options.check === undefined || check === options.check)
        );
      };
      seqs = [];
      let scanned = 0;
      let next = from;
      let lastScanned = '';
      while (seqs.length <= options.limit && scanned < HISTORY_SCAN) {
        const chunk = filtered ? Math.min(HISTORY_CHUNK, HISTORY_SCAN - scanned) : options.limit + 1 - seqs.length;
        const entries = await this.#run((c) => c.zrevrangebyscore(k.order(id), next, '-inf', 'LIMIT', 0, chunk));
        for (const entry of entries) {
          scanned += 1;
          lastScanned = entry.slice(0, entry.indexOf('|'));
          if (wanted(entry)) seqs.push(lastScanned);
          if (seqs.length > options.limit) break;
        }
        if (entries.length < chunk) break;
        next = `(${lastScanned}`;
      }
      if (seqs.length <= options.limit && scanned >= HISTORY_SCAN)
        return { items: await this.#runsOf(monitor, id, seqs), nextCursor: lastScanned };
    }
    const page = seqs.slice(0, options.limit);
    return {
      items: await this.#runsOf(monitor, id, page),
      nextCursor: seqs.length > options.limit ? page.at(-1)! : null,
    };
  }

  async #runsOf(monitor: MonitorRecord, id: string, seqs: string[]): Promise<HistoryEntry[]> {
    if (seqs.length === 0) return [];
    const runs = await this.#run((c) => c.hmget(this.#keys.runs(id), ...seqs));
    // a run trimmed between the two reads is left out
    return runs.filter((run): run is string => run !== null).map((run) => historyEntry(monitor, JSON.parse(run)));
  }

  async events(
    id: string,
    options: { limit: number; before?: string | null; since?: string | null },
  ): Promise<Page<MonitorEvent>> {
    const key = this.#keys.events(id);
    let texts: string[];
    if (options.since) {
      const since = eventSeqOf(id, options.since) ?? 0;
      texts = await this.#run((c) => c.zrangebyscore(key, `(${since}`, '+inf', 'LIMIT', 0, options.limit + 1));
    } else {
      const before = options.before ? `(${eventSeqOf(id, options.before) ?? 0}` : '+inf';
      texts = await this.#run((c) => c.zrevrangebyscore(key, before, '-inf', 'LIMIT', 0, options.limit + 1));
    }
    const items = texts.map((text) => JSON.parse(text) as MonitorEvent);
    const page = items.slice(0, options.limit);
    return { items: page, nextCursor: items.length > options.limit ? page.at(-1)!.id : null };
  }

  async states(id: string): Promise<PairStateEntry[]> {
    const all = await this.#run((c) => c.hgetall(this.#keys.states(id)));
    return Object.entries(all)
      .map(([field, text]) => ({ ...parsePairField(field), state: JSON.parse(text) as PairState }))
      .sort((a, b) => a.targetIndex - b.targetIndex || (a.check < b.check ? -1 : a.check > b.check ? 1 : 0));
  }

  async state(id: string, targetIndex: number, check: string): Promise<PairState | null> {
    const text = await this.#run((c) => c.hget(this.#keys.states(id), pairField(targetIndex, check)));
    return text === null ? null : (JSON.parse(text) as PairState);
  }

  async pendingDeliveries(id: string, limit: number): Promise<MonitorEvent[]> {
    const delivered = await this.#run((c) => c.hget(this.#keys.monitor(id), 'deliveredSeq'));
    if (delivered === null) return [];
    const texts = await this.#run((c) =>
      c.zrangebyscore(this.#keys.events(id), `(${delivered}`, '+inf', 'LIMIT', 0, limit),
    );
    return texts.map((text) => JSON.parse(text) as MonitorEvent);
  }

  async undeliveredMonitors(after: string | null, limit: number): Promise<string[]> {
    const k = this.#keys;
    return this.#run((c) => c.zrange(k.undelivered, after ? `(${after}` : '-', '+', 'BYLEX', 'LIMIT', 0, limit));
  }

  async markDelivered(id: string, eventId: string, error: string | null): Promise<void> {
    const seq = eventSeqOf(id, eventId);
    if (seq === null) return;
    await this.#run((c) =>
      c.ndMonDelivered(this.#keys.monitor(id), this.#keys.undelivered, seq, bit(error !== null), error ?? '', id),
    );
  }

  async prune(now: Date): Promise<{ events: number; purged: number }> {
    const k = this.#keys;
    // a stretch of the monitors after where the last call stopped (any instance's), then from the start again
    const cursor = await this.#run((c) => c.get(k.pruneCursor));
    const ids = await this.#run((c) =>
      c.zrange(k.all, cursor ? `(${cursor}` : '-', '+', 'BYLEX', 'LIMIT', 0, PRUNE_MONITORS),
    );
    await this.#run(async (c) => {
      if (ids.length < PRUNE_MONITORS) await c.del(k.pruneCursor);
      else await c.set(k.pruneCursor, ids.at(-1)!);
    });
    let events = 0;
    const cutoff = this.#pruneCutoff(now);
    for (const id of ids)
      events += await this.#run((c) => c.ndMonPrune(k.events(id), k.eventTimes(id), cutoff, PRUNE_BATCH));
    let purged = 0;
    const deleted = await this.#run((c) => c.srandmember(k.deleted, PURGE_MONITORS));
    for (const id of deleted) purged += await this.#purge(id);
    return { events, purged };
  }

  /**
   * Deletes what a deleted monitor left (its delete script made sure nothing is committed for it after);
   * returns the entries deleted. UNLINK frees a large hash or set in the server's background.
   */
  async #purge(id: string): Promise<number> {
    const k = this.#keys;
    const [pairs, runs, events, states] = await this.#run((c) =>
      Promise.all([c.hkeys(k.states(id)), c.hlen(k.runs(id)), c.zcard(k.events(id)), c.hlen(k.states(id))]),
    );
    const keys = [
      ...pairs.map((field) => k.pair(id, field)),
      k.runs(id),
      k.order(id),
      k.events(id),
      k.eventTimes(id),
      k.last(id),
      k.states(id),
    ];
    for (let i = 0; i < keys.length; i += UNLINK_BATCH) {
      const batch = keys.slice(i, i + UNLINK_BATCH);
      await this.#run((c) => c.unlink(...batch));
    }
    await this.#run((c) => c.srem(k.deleted, id));
    return runs * 2 + events + states;
  }

  #track(promise: Promise<unknown>): void {
    const tracked = promise
      .catch((e: unknown) => this.#options.logger?.warn('monitor_purge_failed', { message: (e as Error).message }))
      .finally(() => this.#purges.delete(tracked));
    this.#purges.add(tracked);
  }

  /** Waits for purges under way; the connection is the caller's and stays open. */
  async close(): Promise<void> {
    await Promise.all(this.#purges);
  }
}

/** A plain ioredis client as a connection: its own time-outs bound the commands. */
function plainConnection(client: Redis): MonitorRedisConnection {
  return {
    client,
    run: (commands) => commands(client),
    unavailable: (purpose, cause) =>
      new Error(`${purpose} is unavailable: ${cause instanceof Error ? cause.message : String(cause)}`, { cause }),
  };
}

function encodeCursor(entry: [keyId: string, member: string]): string {
  return Buffer.from(JSON.stringify(entry)).toString('base64url');
}

function decodeCursor(cursor: string): [string, string] | null {
  try {
    const entry = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    return Array.isArray(entry) && entry.length === 2 && entry.every((e) => typeof e === 'string')
      ? (entry as [string, string])
      : null;
  } catch {
    return null;
  }
}
