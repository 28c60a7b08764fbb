/**
 * Where monitors live (docs/contract/monitors.md "Behaviour"): the operations every mode offers. The
 * embedded mode keeps them in the embedded database (./embedded-monitor-store.ts); the Redis store
 * (./redis-monitor-store.ts) implements the same interface. Writes that belong together are one transaction: a run's
 * outcome, the pair's new state and its events are committed together or not at all, so a crash never
 * leaves an event without its run, and an outcome committed twice (a retry) is recognised by its run id
 * and adds nothing.
 *
 * Run ids are ordered: a later run has a greater id (the schedule's due time in ISO 8601, ../schedule/monitor-schedule.ts `runIdOf`, which sorts as
 * text). That is how a run begun again, or an outcome committed again after a crash, is recognised as
 * done without an index of every run id.
 */
import type { PairState, RunOutcome } from '../evaluate.js';
import type { MonitorEvent } from '../events.js';
import type { HistoryEntry, MonitorPatch, MonitorProgress, MonitorRecord } from './records.js';

export interface MonitorLimits {
  readonly maxPerKey: number;
  readonly maxPairsPerKey: number;
}

export type CreateResult = { readonly ok: true } | { readonly ok: false; readonly limit: 'monitors' | 'pairs' };

export interface Page<T> {
  readonly items: T[];
  /** give it back as `before` for the next (older) page; null on the last page */
  readonly nextCursor: string | null;
}

/** What `beginRun` decided. */
export type BeginRun =
  /** a new run: charge it, then `recordCharge` */
  | { readonly outcome: 'start' }
  /** this run id was begun before and not finished (a crash): run its items not yet committed; charge only if `charged` is false */
  | { readonly outcome: 'resume'; readonly charged: boolean }
  /** another run is still going: this due time is skipped (and counted) */
  | { readonly outcome: 'busy' }
  /** the monitor was deleted, or is paused by PATCH */
  | { readonly outcome: 'gone' | 'paused' }
  /** this run id, or a later one, was begun before: it has run */
  | { readonly outcome: 'stale' };

export interface OutcomeInput {
  readonly runId: string;
  readonly targetIndex: number;
  readonly check: string;
  readonly at: Date;
  readonly outcome: RunOutcome;
}

/** One target × check's state, by its place in the monitor. */
export interface PairStateEntry {
  readonly targetIndex: number;
  readonly check: string;
  readonly state: PairState;
}

export interface MonitorStore {
  /** Writes a new monitor unless the key would pass a limit (checked and written in one transaction). */
  create(monitor: MonitorRecord, limits: MonitorLimits): Promise<CreateResult>;
  get(id: string): Promise<MonitorRecord | null>;
  /** null for an unknown id. A webhook set where there was none starts after the events already made. */
  update(id: string, patch: MonitorPatch, now: Date): Promise<MonitorRecord | null>;
  /** false for an unknown id. No run starts and no outcome is committed after it; its data is purged. */
  delete(id: string): Promise<boolean>;
  /** the key's monitors, newest first */
  listByKey(keyId: string, options: { limit: number; before?: string | null }): Promise<Page<MonitorRecord>>;
  /** what the key has: monitors and target × check pairs */
  usage(keyId: string): Promise<{ monitors: number; pairs: number }>;
  progress(id: string): Promise<MonitorProgress | null>;

  /** Takes a due run (docs/contract/monitors.md "Behaviour": runs never overlap). */
  beginRun(id: string, run: { runId: string; at: Date; nextRunAt: Date }): Promise<BeginRun>;
  /**
   * The charge of a begun run: covered marks it charged; not covered ends it unstarted. Either may change
   * the allowance's pause and make `paused` / `resumed` (../allowance.ts), committed with it.
   */
  recordCharge(id: string, runId: string, covered: boolean, at: Date): Promise<MonitorEvent[]>;
  /** The (target index, check) pairs of the run not yet committed: all of them for a new run. */
  pendingItems(id: string, runId: string): Promise<{ targetIndex: number; check: string }[]>;
  /**
   * One item's outcome: the run, the pair's new state and its events (../evaluate.ts) in one transaction.
   * `duplicate`: this run's outcome for the pair (or a later run's) was committed before; nothing was written.
   */
  recordOutcome(id: string, input: OutcomeInput): Promise<{ events: MonitorEvent[]; duplicate: boolean }>;
  finishRun(id: string, runId: string, at: Date): Promise<void>;

  /** newest first; `targetIndex` and `check` narrow it to one pair */
  history(
    id: string,
    options: { targetIndex?: number; check?: string; limit: number; before?: string | null },
  ): Promise<Page<HistoryEntry>>;
  /** newest first; `since` (an event id): only the newer ones, oldest first (a stream's resume) */
  events(
    id: string,
    options: { limit: number; before?: string | null; since?: string | null },
  ): Promise<Page<MonitorEvent>>;
  states(id: string): Promise<PairStateEntry[]>;
  state(id: string, targetIndex: number, check: string): Promise<PairState | null>;

  /** events not yet handed to the webhook, oldest first */
  pendingDeliveries(id: string, limit: number): Promise<MonitorEvent[]>;
  /** the event was delivered, or given up after its tries (`error`) */
  markDelivered(id: string, eventId: string, error: string | null): Promise<void>;

  /** deletes events older than `monitors.keepEventsDays` and what deleted monitors left, a bounded batch per call */
  prune(now: Date): Promise<{ events: number; purged: number }>;
  close(): Promise<void>;
}
