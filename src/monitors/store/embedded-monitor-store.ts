/**
 * The monitors' store in the embedded database (src/platform/embedded-db.ts): named databases of one
 * LMDB environment in `server.dataDir`, shared by every process of the instance. Every write that belongs
 * with another is one LMDB write transaction (serialised across processes by LMDB's lock), so what
 * ./monitor-store.ts promises holds across a SIGKILL: a committed transaction is whole, an interrupted one
 * left nothing.
 *
 * Keys (arrays, ordered element by element, so that every read is a range, never a scan):
 *   monitors          id                               → MonitorRecord
 *   monitor-keys      [keyId, createdAt, id]           → pairs (targets × checks)
 *   monitor-progress  id                               → MonitorProgress
 *   monitor-states    [id, targetIndex, check]         → StoredPair (the pair's state and its kept runs)
 *   monitor-runs      [id, targetIndex, check, seq]    → StoredRun
 *   monitor-run-order [id, seq]                        → [targetIndex, check] (the history across pairs)
 *   monitor-events    [id, seq]                        → MonitorEvent
 *   monitor-deleted   id                               → true while its runs, states and events are purged
 */
import type { Database } from 'lmdb';
import type { EmbeddedDb } from '../../platform/embedded-db.js';
import { chargeOutcome } from '../allowance.js';
import { evaluateRun, type PairState } from '../evaluate.js';
import type { MonitorEvent, NewMonitorEvent } from '../events.js';
import { type CompiledWatchSpec, WATCH_SPECS } from '../watched/index.js';
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
  NEW_PROGRESS,
  type StoredRun,
} from './records.js';

type Key = (string | number)[];

interface StoredPair {
  readonly state: PairState;
  /** runs of the pair in monitor-runs, so that the oldest past `keepRuns` is deleted without counting */
  readonly kept: number;
}

export interface EmbeddedMonitorStoreOptions {
  /** monitors.keepRuns */
  readonly keepRuns: number;
  /** monitors.keepEventsDays */
  readonly keepEventsDays: number;
  /** each check's watched fields (the composition passes them; default: ../watched/index.ts) */
  readonly specs?: ReadonlyMap<string, CompiledWatchSpec>;
}

/** Appended to a first key element, above every key that starts with that element ([id, …]): ids never hold \x01. */
const AFTER = '\u0001';
const MAX_SEQ = Number.MAX_SAFE_INTEGER;
/** Deletions one transaction makes when it purges or prunes: a long write transaction holds every writer. */
const BATCH = 500;
/** Old events a run's commit deletes on its way (the rest is `prune`'s). */
const PRUNE_ON_COMMIT = 8;
const DAY_MS = 86_400_000;
/** Where a database keeps its shared msgpack structures (a symbol: outside every key range). */
const STRUCTURES = Symbol.for('structures');
/** Run-order entries one history page reads at most when it filters across pairs. */
const HISTORY_SCAN = 20_000;

export class EmbeddedMonitorStore implements MonitorStore {
  readonly #root: EmbeddedDb;
  readonly #monitors: Database<MonitorRecord, string>;
  readonly #byKey: Database<number, Key>;
  readonly #progress: Database<MonitorProgress, string>;
  readonly #states: Database<StoredPair, Key>;
  readonly #runs: Database<StoredRun, Key>;
  readonly #runOrder: Database<[number, string], Key>;
  readonly #events: Database<MonitorEvent, Key>;
  readonly #deleted: Database<true, string>;
  readonly #options: EmbeddedMonitorStoreOptions;
  /** purges of deleted monitors under way in this process */
  readonly #purges = new Set<Promise<unknown>>();

  constructor(root: EmbeddedDb, options: EmbeddedMonitorStoreOptions) {
    this.#root = root;
    this.#options = options;
    this.#monitors = root.openDB({ name: 'monitors' });
    this.#byKey = root.openDB({ name: 'monitor-keys' });
    this.#progress = root.openDB({ name: 'monitor-progress' });
    // answers, states and events repeat the same shapes: their field names are stored once per database
    // (msgpack's shared structures, which lmdb-js keeps consistent across processes) rather than in
    // every entry, which makes entries smaller and decoding a history page much faster
    this.#states = root.openDB({ name: 'monitor-states', sharedStructuresKey: STRUCTURES });
    this.#runs = root.openDB({ name: 'monitor-runs', sharedStructuresKey: STRUCTURES });
    this.#runOrder = root.openDB({ name: 'monitor-run-order' });
    this.#events = root.openDB({ name: 'monitor-events', sharedStructuresKey: STRUCTURES });
    this.#deleted = root.openDB({ name: 'monitor-deleted' });
  }

  create(monitor: MonitorRecord, limits: MonitorLimits): Promise<CreateResult> {
    const pairs = monitor.targets.length * monitor.checks.length;
    return this.#root.transaction((): CreateResult => {
      const usage = this.#usageNow(monitor.keyId);
      if (usage.monitors + 1 > limits.maxPerKey) return { ok: false, limit: 'monitors' };
      if (usage.pairs + pairs > limits.maxPairsPerKey) return { ok: false, limit: 'pairs' };
      this.#monitors.put(monitor.id, monitor);
      this.#byKey.put([monitor.keyId, monitor.createdAt, monitor.id], pairs);
      this.#progress.put(monitor.id, NEW_PROGRESS);
      return { ok: true };
    });
  }

  async get(id: string): Promise<MonitorRecord | null> {
    return this.#monitors.get(id) ?? null;
  }

  update(id: string, patch: MonitorPatch, now: Date): Promise<MonitorRecord | null> {
    return this.#root.transaction(() => {
      const monitor = this.#monitors.get(id);
      if (!monitor) return null;
      const updated: MonitorRecord = { ...monitor, ...patch, updatedAt: now.toISOString() };
      this.#monitors.put(id, updated);
      // a webhook that starts now receives the events made from now on
      if (updated.notify && !monitor.notify) {
        const progress = this.#progressOf(id);
        this.#progress.put(id, { ...progress, delivery: { ...progress.delivery, deliveredSeq: progress.eventSeq } });
      }
      return updated;
    });
  }

  async delete(id: string): Promise<boolean> {
    const deleted = await this.#root.transaction(() => {
      const monitor = this.#monitors.get(id);
      if (!monitor) return false;
      this.#monitors.remove(id);
      this.#byKey.remove([monitor.keyId, monitor.createdAt, monitor.id]);
      this.#progress.remove(id);
      this.#deleted.put(id, true);
      return true;
    });
    if (deleted) this.#track(this.#purge(id));
    return deleted;
  }

  async listByKey(keyId: string, options: { limit: number; before?: string | null }): Promise<Page<MonitorRecord>> {
    const start: Key = options.before ? decodeCursor(options.before) : [keyId + AFTER];
    // a cursor is a key of this key's index, never another's
    if (options.before && start[0] !== keyId) return { items: [], nextCursor: null };
    const keys = [
      ...this.#byKey.getKeys({ start, end: [keyId], reverse: true, exclusiveStart: true, limit: options.limit + 1 }),
    ] as Key[];
    const page = keys.slice(0, options.limit);
    const items = page.map((k) => this.#monitors.get(String(k[2]))).filter((m): m is MonitorRecord => m !== undefined);
    return { items, nextCursor: keys.length > options.limit ? encodeCursor(page.at(-1)!) : null };
  }

  async usage(keyId: string): Promise<{ monitors: number; pairs: number }> {
    return this.#usageNow(keyId);
  }

  #usageNow(keyId: string): { monitors: number; pairs: number } {
    let monitors = 0;
    let pairs = 0;
    for (const { value } of this.#byKey.getRange({ start: [keyId], end: [keyId + AFTER] })) {
      monitors += 1;
      pairs += value;
    }
    return { monitors, pairs };
  }

  async progress(id: string): Promise<MonitorProgress | null> {
    return this.#progress.get(id) ?? null;
  }

  #progressOf(id: string): MonitorProgress {
    return this.#progress.get(id) ?? NEW_PROGRESS;
  }

  beginRun(id: string, run: { runId: string; at: Date; nextRunAt: Date }): Promise<BeginRun> {
    return this.#root.transaction((): BeginRun => {
      const monitor = this.#monitors.get(id);
      if (!monitor) return { outcome: 'gone' };
      const progress = this.#progressOf(id);
      const current = progress.currentRun;
      if (current?.runId === run.runId) return { outcome: 'resume', charged: current.charged };
      if (progress.lastRunId !== null && run.runId <= progress.lastRunId) return { outcome: 'stale' };
      if (current) {
        this.#progress.put(id, { ...progress, skipped: progress.skipped + 1, nextRunAt: run.nextRunAt.toISOString() });
        return { outcome: 'busy' };
      }
      if (monitor.paused) {
        this.#progress.put(id, { ...progress, nextRunAt: run.nextRunAt.toISOString() });
        return { outcome: 'paused' };
      }
      this.#progress.put(id, {
        ...progress,
        currentRun: { runId: run.runId, startedAt: run.at.toISOString(), charged: false },
        lastRunId: run.runId,
        nextRunAt: run.nextRunAt.toISOString(),
      });
      return { outcome: 'start' };
    });
  }

  recordCharge(id: string, runId: string, covered: boolean, at: Date): Promise<MonitorEvent[]> {
    return this.#root.transaction(() => {
      const progress = this.#progress.get(id);
      if (!progress || progress.currentRun?.runId !== runId) return [];
      const { paused, events } = chargeOutcome(progress.allowancePaused, covered, at);
      const numbered = this.#number(id, progress.eventSeq, events);
      this.#progress.put(id, {
        ...progress,
        allowancePaused: paused,
        eventSeq: progress.eventSeq + numbered.length,
        ...(covered
          ? {
              currentRun: { ...progress.currentRun, charged: true },
              runs: progress.runs + 1,
              lastRunAt: at.toISOString(),
            }
          : { currentRun: null }),
      });
      return numbered;
    });
  }

  async pendingItems(id: string, runId: string): Promise<{ targetIndex: number; check: string }[]> {
    const monitor = this.#monitors.get(id);
    if (!monitor) return [];
    const pending: { targetIndex: number; check: string }[] = [];
    for (let targetIndex = 0; targetIndex < monitor.targets.length; targetIndex++)
      for (const check of monitor.checks)
        if ((this.#states.get([id, targetIndex, check])?.state.lastRunId ?? '') < runId)
          pending.push({ targetIndex, check });
    return pending;
  }

  recordOutcome(id: string, input: OutcomeInput): Promise<{ events: MonitorEvent[]; duplicate: boolean }> {
    return this.#root.transaction(() => {
      const monitor = this.#monitors.get(id);
      const spec = (this.#options.specs ?? WATCH_SPECS).get(input.check);
      const target = monitor?.targets[input.targetIndex];
      if (!monitor || !spec || target === undefined || !monitor.checks.includes(input.check))
        return { events: [], duplicate: false };
      const pairKey: Key = [id, input.targetIndex, input.check];
      const stored = this.#states.get(pairKey);
      const last = stored?.state.lastRunId ?? null;
      if (last !== null && input.runId <= last) return { events: [], duplicate: true };
      const { state, events } = evaluateRun(stored?.state ?? null, input.outcome, {
        spec,
        target,
        runId: input.runId,
        warnDays: monitor.warnDays,
        now: input.at,
      });
      const progress = this.#progressOf(id);
      const seq = progress.runSeq + 1;
      const run: StoredRun = {
        seq,
        runId: input.runId,
        at: input.at.toISOString(),
        targetIndex: input.targetIndex,
        check: input.check,
        outcome: input.outcome,
      };
      this.#runs.put([...pairKey, seq], run);
      this.#runOrder.put([id, seq], [input.targetIndex, input.check]);
      const kept = this.#trimRuns(pairKey, (stored?.kept ?? 0) + 1);
      this.#states.put(pairKey, { state, kept });
      const numbered = this.#number(id, progress.eventSeq, events);
      this.#progress.put(id, { ...progress, runSeq: seq, eventSeq: progress.eventSeq + numbered.length });
      this.#pruneEvents(id, input.at, PRUNE_ON_COMMIT);
      return { events: numbered, duplicate: false };
    });
  }

  /** Deletes a pair's oldest runs past `keepRuns` (a few at a time when the setting was lowered); returns what is kept. */
  #trimRuns(pairKey: Key, kept: number): number {
    const excess = Math.min(kept - this.#options.keepRuns, 8);
    if (excess <= 0) return kept;
    const oldest = [
      ...this.#runs.getKeys({ start: [...pairKey, 0], end: [...pairKey, MAX_SEQ], limit: excess }),
    ] as Key[];
    for (const key of oldest) {
      this.#runs.remove(key);
      this.#runOrder.remove([pairKey[0]!, key[3]!]);
    }
    return kept - oldest.length;
  }

  /** Gives events their ids, numbered after `lastSeq`, and writes them. */
  #number(id: string, lastSeq: number, events: readonly NewMonitorEvent[]): MonitorEvent[] {
    return events.map((event, i) => {
      const seq = lastSeq + i + 1;
      const numbered: MonitorEvent = { id: eventIdOf(id, seq), monitorId: id, ...event };
      this.#events.put([id, seq], numbered);
      return numbered;
    });
  }

  finishRun(id: string, runId: string, at: Date): Promise<void> {
    return this.#root.transaction(() => {
      const progress = this.#progress.get(id);
      if (!progress || progress.currentRun?.runId !== runId) return;
      this.#progress.put(id, { ...progress, currentRun: null, lastRunAt: progress.lastRunAt ?? at.toISOString() });
    });
  }

  async history(
    id: string,
    options: { targetIndex?: number; check?: string; limit: number; before?: string | null },
  ): Promise<Page<HistoryEntry>> {
    const monitor = this.#monitors.get(id);
    if (!monitor) return { items: [], nextCursor: null };
    const before = options.before ? Number(options.before) : MAX_SEQ;
    if (!Number.isSafeInteger(before)) return { items: [], nextCursor: null };
    const runs: StoredRun[] = [];
    let lastScanned = before;
    if (options.targetIndex !== undefined && options.check !== undefined) {
      const pair = [id, options.targetIndex, options.check];
      for (const { value } of this.#runs.getRange({
        start: [...pair, before],
        end: [...pair, 0],
        reverse: true,
        exclusiveStart: true,
        limit: options.limit + 1,
      }))
        runs.push(value);
    } else {
      // across pairs: the run order, filtered by the target or check given; a page reads a bounded stretch
      // of it, and may come back short with a cursor to go on from
      const wanted = ([t, c]: [number, string]) =>
        (options.targetIndex === undefined || t === options.targetIndex) &&
        (options.check === undefined || c === options.check);
      let scanned = 0;
      for (const { key, value } of this.#runOrder.getRange({
        start: [id, before],
        end: [id, 0],
        reverse: true,
        exclusiveStart: true,
        limit: HISTORY_SCAN,
      })) {
        scanned += 1;
        lastScanned = (key as Key)[1] as number;
        if (!wanted(value)) continue;
        const run = this.#runs.get([id, value[0], value[1], lastScanned]);
        if (run) runs.push(run);
        if (runs.length > options.limit) break;
      }
      if (runs.length <= options.limit && scanned === HISTORY_SCAN)
        return { items: runs.map((run) => historyEntry(monitor, run)), nextCursor: String(lastScanned) };
    }
    const page = runs.slice(0, options.limit);
    return {
      items: page.map((run) => historyEntry(monitor, run)),
      nextCursor: runs.length > options.limit ? String(page.at(-1)!.seq) : null,
    };
  }

  async events(
    id: string,
    options: { limit: number; before?: string | null; since?: string | null },
  ): Promise<Page<MonitorEvent>> {
    if (options.since) {
      const since = eventSeqOf(id, options.since) ?? 0;
      const items = [
        ...this.#events
          .getRange({ start: [id, since], end: [id, MAX_SEQ], exclusiveStart: true, limit: options.limit + 1 })
          .map((e) => e.value),
      ];
      const page = items.slice(0, options.limit);
      return { items: page, nextCursor: items.length > options.limit ? page.at(-1)!.id : null };
    }
    const before = options.before ? (eventSeqOf(id, options.before) ?? 0) : MAX_SEQ;
    const items = [
      ...this.#events
        .getRange({ start: [id, before], end: [id, 0], reverse: true, exclusiveStart: true, limit: options.limit + 1 })
        .map((e) => e.value),
    ];
    const page = items.slice(0, options.limit);
    return { items: page, nextCursor: items.length > options.limit ? page.at(-1)!.id : null };
  }

  async states(id: string): Promise<PairStateEntry[]> {
    return [...this.#states.getRange({ start: [id], end: [id + AFTER] })].map(({ key, value }) => ({
      targetIndex: (key as Key)[1] as number,
      check: (key as Key)[2] as string,
      state: value.state,
    }));
  }

  async state(id: string, targetIndex: number, check: string): Promise<PairState | null> {
    return this.#states.get([id, targetIndex, check])?.state ?? null;
  }

  async pendingDeliveries(id: string, limit: number): Promise<MonitorEvent[]> {
    const progress = this.#progress.get(id);
    if (!progress) return [];
    return [
      ...this.#events
        .getRange({ start: [id, progress.delivery.deliveredSeq], end: [id, MAX_SEQ], exclusiveStart: true, limit })
        .map((e) => e.value),
    ];
  }

  markDelivered(id: string, eventId: string, error: string | null): Promise<void> {
    return this.#root.transaction(() => {
      const progress = this.#progress.get(id);
      const seq = eventSeqOf(id, eventId);
      if (!progress || seq === null || seq <= progress.delivery.deliveredSeq) return;
      const { delivery } = progress;
      this.#progress.put(id, {
        ...progress,
        delivery: {
          deliveredSeq: seq,
          status: error === null ? 'ok' : 'failing',
          lastError: error ?? delivery.lastError,
          failedEvents: delivery.failedEvents + (error === null ? 0 : 1),
        },
      });
    });
  }

  async prune(now: Date): Promise<{ events: number; purged: number }> {
    let events = 0;
    for (const id of this.#monitors.getKeys()) {
      events += await this.#root.transaction(() => this.#pruneEvents(String(id), now, BATCH));
    }
    let purged = 0;
    for (const id of [...this.#deleted.getKeys()]) purged += await this.#purge(String(id));
    return { events, purged };
  }

  /** Deletes up to `max` of the monitor's events older than `keepEventsDays` (they are the oldest numbers). */
  #pruneEvents(id: string, now: Date, max: number): number {
    const cutoff = new Date(now.getTime() - this.#options.keepEventsDays * DAY_MS).toISOString();
    let removed = 0;
    for (const { key, value } of this.#events.getRange({ start: [id, 0], end: [id, MAX_SEQ], limit: max })) {
      if (value.at >= cutoff) break;
      this.#events.remove(key);
      removed += 1;
    }
    return removed;
  }

  /** Deletes what a deleted monitor left, a batch per transaction; returns the entries deleted. */
  async #purge(id: string): Promise<number> {
    let total = 0;
    for (const db of [this.#runs, this.#runOrder, this.#states, this.#events] as Database<unknown, Key>[]) {
      for (;;) {
        const removed = await this.#root.transaction(() => {
          const keys = [...db.getKeys({ start: [id], end: [id + AFTER], limit: BATCH })];
          for (const key of keys) db.remove(key);
          return keys.length;
        });
        total += removed;
        if (removed < BATCH) break;
      }
    }
    await this.#deleted.remove(id);
    return total;
  }

  #track(promise: Promise<unknown>): void {
    const tracked = promise.catch(() => undefined).finally(() => this.#purges.delete(tracked));
    this.#purges.add(tracked);
  }

  /** Waits for purges under way; the environment is the instance's and stays open. */
  async close(): Promise<void> {
    await Promise.all(this.#purges);
  }
}

function encodeCursor(key: Key): string {
  return Buffer.from(JSON.stringify(key)).toString('base64url');
}

function decodeCursor(cursor: string): Key {
  try {
    const key = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    return Array.isArray(key) && key.every((k) => typeof k === 'string' || typeof k === 'number') ? key : [];
  } catch {
    return [];
  }
}
