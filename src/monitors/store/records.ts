/**
 * What the store keeps of a monitor (docs/contract/monitors.md "Behaviour"): its definition
 * (what PATCH changes), its progress (what runs change), the runs, the events and the state of each
 * target × check (../evaluate.ts). The definition and the progress are separate records so that a PATCH
 * and a run's commit never write each other's fields.
 */
import { randomBytes } from 'node:crypto';
import type { RunOutcome } from '../evaluate.js';
import type { MonitorTarget } from '../events.js';

export interface MonitorRecord {
  /** `mon_` and 16 random bytes (base64url) */
  readonly id: string;
  /** the owning key's id (KeyIdentity.id): only that key sees the monitor */
  readonly keyId: string;
  readonly name: string;
  /** the tools, presets expanded, each once, in the order given */
  readonly checks: readonly string[];
  readonly targets: readonly MonitorTarget[];
  /** parameters shared by every target */
  readonly params: Readonly<Record<string, string>>;
  /** as given (`15m`) and in milliseconds */
  readonly every: string;
  readonly everyMs: number;
  readonly warnDays: number;
  readonly public: boolean;
  /** paused by PATCH (the allowance's pause is the progress's) */
  readonly paused: boolean;
  readonly notify: { readonly webhook: string } | null;
  /** the HMAC key of the webhook's signatures: returned once, in the 201 answer */
  readonly secret: string;
  readonly createdAt: string;
  readonly updatedAt: string;
}

/** What PATCH may change (docs/contract/monitors.md). */
export type MonitorPatch = Partial<
  Pick<MonitorRecord, 'name' | 'every' | 'everyMs' | 'warnDays' | 'paused' | 'public' | 'notify'>
>;

/** The run in progress: at most one per monitor (runs never overlap). */
export interface CurrentRun {
  readonly runId: string;
  readonly startedAt: string;
  /** its price was charged (a run resumed after a crash is not charged again) */
  readonly charged: boolean;
}

export interface DeliveryProgress {
  /** the last event handed to the webhook (delivered, or given up after its tries); 0: none */
  readonly deliveredSeq: number;
  readonly status: 'ok' | 'failing' | 'idle';
  readonly lastError: string | null;
  /** events given up after their tries */
  readonly failedEvents: number;
}

export interface MonitorProgress {
  /** runs started (charged) */
  readonly runs: number;
  /** runs due while the previous one still ran, skipped (docs/contract/monitors.md "Behaviour") */
  readonly skipped: number;
  readonly lastRunAt: string | null;
  readonly nextRunAt: string | null;
  readonly currentRun: CurrentRun | null;
  /** the last run begun: a run id at or before it has run (run ids are ordered, see ./monitor-store.ts) */
  readonly lastRunId: string | null;
  /** the key's allowance did not cover the last run tried */
  readonly allowancePaused: boolean;
  /** the last numbers given: stored runs and events of this monitor */
  readonly runSeq: number;
  readonly eventSeq: number;
  readonly delivery: DeliveryProgress;
}

export const NEW_PROGRESS: MonitorProgress = {
  runs: 0,
  skipped: 0,
  lastRunAt: null,
  nextRunAt: null,
  currentRun: null,
  lastRunId: null,
  allowancePaused: false,
  runSeq: 0,
  eventSeq: 0,
  delivery: { deliveredSeq: 0, status: 'idle', lastError: null, failedEvents: 0 },
};

/** One stored outcome of one target × check (the history's entry, with the target by its index). */
export interface StoredRun {
  readonly seq: number;
  readonly runId: string;
  readonly at: string;
  readonly targetIndex: number;
  readonly check: string;
  readonly outcome: RunOutcome;
}

/** A history entry as the contract answers it (`GET …/history`). */
export interface HistoryEntry {
  readonly runId: string;
  readonly at: string;
  readonly target: MonitorTarget;
  readonly check: string;
  readonly ok: boolean;
  readonly status: number;
  readonly data?: unknown;
  readonly error?: { readonly code: string; readonly message: string };
}

export function historyEntry(monitor: MonitorRecord, run: StoredRun): HistoryEntry {
  const base = {
    runId: run.runId,
    at: run.at,
    target: monitor.targets[run.targetIndex] ?? '',
    check: run.check,
    ok: run.outcome.ok,
    status: run.outcome.status,
  };
  return run.outcome.ok ? { ...base, data: run.outcome.data } : { ...base, error: run.outcome.error };
}

export function newMonitorId(): string {
  return `mon_${randomBytes(16).toString('base64url')}`;
}

/** A webhook secret: 32 random bytes (as a job's callbackSecret, docs/contract/jobs.md "Behaviour"). */
export function newWebhookSecret(): string {
  return randomBytes(32).toString('base64url');
}

/** An event's id: the monitor's id and the event's number in it, so that ids are unique and ordered per monitor. */
export function eventIdOf(monitorId: string, seq: number): string {
  return `${monitorId}.${seq}`;
}

/** The number of one of this monitor's event ids; null for anything else. */
export function eventSeqOf(monitorId: string, id: string): number | null {
  if (!id.startsWith(`${monitorId}.`)) return null;
  const text = id.slice(monitorId.length + 1);
  return /^[1-9][0-9]{0,14}$/.test(text) ? Number(text) : null;
}
