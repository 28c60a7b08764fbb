/**
 * The monitors' store and schedule by mode (docs/contract/monitors.md "Behaviour"): without
 * `store.redisUrl`, the embedded database in `server.dataDir` (../store/embedded-monitor-store.ts,
 * ../schedule/embedded-schedule.ts). With it, the monitors' endpoints answer 503 with a message that says so:
 * the Redis store and schedule (../store/redis-monitor-store.ts, ../schedule/redis-schedule.ts) are not
 * connected here yet, nor is a bus that carries events between instances.
 */
import { openEmbeddedDb } from '../../platform/embedded-db.js';
import type { Services } from '../../services.js';
import type { CompiledWatchSpec } from '../../watch/watch-spec.js';
import { EmbeddedSchedule } from '../schedule/embedded-schedule.js';
import type { MonitorStore } from '../store/monitor-store.js';
import { EmbeddedMonitorStore } from '../store/embedded-monitor-store.js';

export interface MonitorBackend {
  readonly store: MonitorStore;
  readonly schedule: EmbeddedSchedule;
  /** monitors that may have events to deliver (at start: what a crash left unsent) */
  monitorIds(): Promise<string[]>;
}

export type MonitorBackendOutcome =
  | { readonly ok: true; readonly backend: MonitorBackend }
  | { readonly ok: false; readonly message: string };

export const REDIS_NOT_YET =
  'monitors do not run on an instance with store.redisUrl in this version; run without store.redisUrl to use monitors (docs/monitors.md "Where monitors run")';

/** A run that threw is handed out again after this. */
const RETRY_MS = 30_000;

export function createMonitorBackend(
  services: Services,
  options: { specs: ReadonlyMap<string, CompiledWatchSpec>; announce?: (monitorId: string) => void },
): MonitorBackendOutcome {
  const { config } = services;
  if (config.store.redisUrl) return { ok: false, message: REDIS_NOT_YET };
  const db = openEmbeddedDb(config.server.dataDir);
  const store = new EmbeddedMonitorStore(db, {
    keepRuns: config.monitors.keepRuns,
    keepEventsDays: config.monitors.keepEventsDays,
    specs: options.specs,
  });
  const schedule = new EmbeddedSchedule(db, {
    now: services.now,
    retryMs: RETRY_MS,
    ...(options.announce ? { announce: options.announce } : {}),
    onError: (e) => services.logger.error('monitor_schedule_failed', { message: (e as Error).message }),
  });
  return { ok: true, backend: { store, schedule, monitorIds: async () => schedule.monitorIds() } };
}
