/**
 * A monitor as the API answers it (docs/contract/monitors.md): the 201 and list entries, and
 * GET's with the state of each target × check. Pure: the routes read the store and answer these.
 */
import { PENDING_STATE, type PairStatus } from './evaluate.js';
import { describeTarget, type MonitorTarget } from './events.js';
import type { PairStateEntry } from './store/monitor-store.js';
import type { MonitorProgress, MonitorRecord } from './store/records.js';

export interface MonitorLinks {
  readonly self: string;
  readonly history: string;
  readonly events: string;
  /** only for a public monitor: its first check's badge */
  readonly badge?: string;
}

export interface MonitorView {
  readonly id: string;
  readonly name: string;
  readonly checks: readonly string[];
  /** how many */
  readonly targets: number;
  readonly every: string;
  /** paused by PATCH, or by an allowance that did not cover the last run */
  readonly paused: boolean;
  readonly public: boolean;
  readonly warnDays: number;
  readonly createdAt: string;
  readonly lastRunAt: string | null;
  readonly nextRunAt: string | null;
  readonly runs: number;
  /** due times skipped because the run before was still going (docs/contract/monitors.md "Behaviour") */
  readonly skippedRuns: number;
  readonly notify: {
    readonly webhook: string;
    readonly status: string;
    readonly lastError: string | null;
    readonly failedEvents: number;
  } | null;
  readonly links: MonitorLinks;
}

export interface PairStateView {
  readonly target: MonitorTarget;
  readonly check: string;
  readonly status: PairStatus;
  readonly summary: string;
  readonly grade: string | null;
  readonly lastRunAt: string | null;
  readonly lastChangeAt: string | null;
}

export function linksOf(monitor: MonitorRecord): MonitorLinks {
  const self = `/api/v1/monitors/${encodeURIComponent(monitor.id)}`;
  return {
    self,
    history: `${self}/history`,
    events: `${self}/events`,
    ...(monitor.public ? { badge: `/badge/${encodeURIComponent(monitor.id)}/${monitor.checks[0]}.svg` } : {}),
  };
}

export function monitorView(monitor: MonitorRecord, progress: MonitorProgress | null): MonitorView {
  return {
    id: monitor.id,
    name: monitor.name,
    checks: monitor.checks,
    targets: monitor.targets.length,
    every: monitor.every,
    paused: monitor.paused || (progress?.allowancePaused ?? false),
    public: monitor.public,
    warnDays: monitor.warnDays,
    createdAt: monitor.createdAt,
    lastRunAt: progress?.lastRunAt ?? null,
    nextRunAt: progress?.nextRunAt ?? null,
    runs: progress?.runs ?? 0,
    skippedRuns: progress?.skipped ?? 0,
    notify: monitor.notify && {
      webhook: monitor.notify.webhook,
      status: progress?.delivery.status ?? 'idle',
      lastError: progress?.delivery.lastError ?? null,
      failedEvents: progress?.delivery.failedEvents ?? 0,
    },
    links: linksOf(monitor),
  };
}

/** One entry per target × check, in the monitor's order; a pair that has not run yet is pending. */
export function pairStates(monitor: MonitorRecord, entries: readonly PairStateEntry[]): PairStateView[] {
  const byPair = new Map(entries.map((e) => [`${e.targetIndex} ${e.check}`, e.state]));
  return monitor.targets.flatMap((target, index) =>
    monitor.checks.map((check) => {
      const state = byPair.get(`${index} ${check}`) ?? PENDING_STATE;
      return {
        target,
        check,
        status: state.status,
        summary: state.summary,
        grade: state.grade,
        lastRunAt: state.lastRunAt,
        lastChangeAt: state.lastChangeAt,
      };
    }),
  );
}

/**
 * The index of the target a `?target=` names: a text target equal to it, or an object target whose
 * parameters read as it (`domain=example.com selector=s1`) or whose single parameter is it; null for none.
 */
export function targetIndexOf(monitor: MonitorRecord, text: string): number | null {
  const index = monitor.targets.findIndex(
    (t) =>
      t === text ||
      (typeof t !== 'string' &&
        (describeTarget(t) === text || (Object.keys(t).length === 1 && Object.values(t)[0] === text))),
  );
  return index < 0 ? null : index;
}
