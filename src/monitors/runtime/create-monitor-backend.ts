/**
 * The monitors' store and schedule by mode (docs/contract/monitors.md "Behaviour"; docs/monitors.md "Where
 * monitors run"): without `store.redisUrl`, the embedded database in `server.dataDir`
 * (../store/embedded-monitor-store.ts, ../schedule/embedded-schedule.ts); with it, the Redis store
 * (../store/redis-monitor-store.ts), BullMQ's job schedulers (../schedule/redis-schedule.ts), a bus between
 * instances (./redis-monitor-bus.ts) and a lease per monitor's webhook (./redis-delivery-lease.ts). The
 * Redis parts are imported here, with a Redis URL only: a process without one (the command) never loads
 * ioredis or BullMQ, and an API process loads BullMQ at its first schedule written, not at its start.
 */
import { openEmbeddedDb } from '../../platform/embedded-db.js';
import type { Services } from '../../services.js';
import type { CompiledWatchSpec } from '../../watch/watch-spec.js';
import { EmbeddedSchedule } from '../schedule/embedded-schedule.js';
import type { MonitorSchedule } from '../schedule/monitor-schedule.js';
import type { MonitorStore } from '../store/monitor-store.js';
import { EmbeddedMonitorStore } from '../store/embedded-monitor-store.js';
import type { ApiMonitorBus, RunnerMonitorBus } from './monitor-bus.js';
import type { DeliveryLease } from './redis-delivery-lease.js';

export interface BackendSchedule extends MonitorSchedule {
  /** looks at the earliest due time again (the embedded schedule's timer); a shared schedule needs none */
  wake?(): void;
}

export interface MonitorBackend {
  readonly store: MonitorStore;
  readonly schedule: BackendSchedule;
  /** the bus between instances (Redis mode); none: the instance's own bus (in one process, or over IPC) */
  readonly bus?: ApiMonitorBus & RunnerMonitorBus;
  /** one webhook deliverer per monitor across instances (Redis mode) */
  readonly deliveryLease?: DeliveryLease;
  /** calls `each` with every monitor that may have events to deliver, a page at a time */
  undelivered(each: (monitorId: string) => void): Promise<void>;
  /**
   * how often a runner looks at `undelivered` again after its start: where another instance's deliverer
   * may die and leave events behind (Redis mode); none: only at the start
   */
  readonly sweepMs?: number;
  /** closes what the backend opened (the connections of Redis mode; the embedded database stays open) */
  close(): Promise<void>;
}

/** A run that threw is handed out again after this (embedded: the schedule's own retry). */
const RETRY_MS = 30_000;
/** Monitors with deliveries to look at, read per page of the Redis index. */
const UNDELIVERED_PAGE = 500;

/**
 * The backend of this process's mode. The embedded one's databases are opened before this returns its
 * promise (a caller that must open them before another writer starts need not wait); Redis' connects,
 * bounded (src/platform/redis.ts `connectRedis`): a Redis that is down still gives a backend, whose
 * commands then fail at once with a 503.
 */
export function createMonitorBackend(
  services: Services,
  options: { specs: ReadonlyMap<string, CompiledWatchSpec>; announce?: (monitorId: string) => void },
): Promise<MonitorBackend> {
  const { config } = services;
  if (config.store.redisUrl) return redisBackend(services, config.store.redisUrl, options.specs);
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
  return Promise.resolve({
    store,
    schedule,
    async undelivered(each) {
      for (const id of schedule.monitorIds()) each(id);
    },
    close: () => store.close(),
  });
}

async function redisBackend(
  services: Services,
  redisUrl: string,
  specs: ReadonlyMap<string, CompiledWatchSpec>,
): Promise<MonitorBackend> {
  const { config, logger } = services;
  const [{ connectRedis }, { createRedisMonitorStore }, { monitorKeys }, { createRedisMonitorBus }, lease] =
    await Promise.all([
      import('../../platform/redis.js'),
      import('../store/redis-monitor-store.js'),
      import('../store/redis-monitor-keys.js'),
      import('./redis-monitor-bus.js'),
      import('./redis-delivery-lease.js'),
    ]);
  const connection = await connectRedis(redisUrl, { logger });
  const store = createRedisMonitorStore({
    redis: connection,
    keepRuns: config.monitors.keepRuns,
    keepEventsDays: config.monitors.keepEventsDays,
    specs,
    logger,
  });
  const bus = createRedisMonitorBus(redisUrl, logger);
  const schedule = lazyRedisSchedule(redisUrl, services);
  const keys = monitorKeys();
  return {
    store,
    schedule,
    bus,
    deliveryLease: lease.createRedisDeliveryLease({ connection, key: keys.deliverer }),
    sweepMs: lease.DELIVERY_LEASE_MS,
    async undelivered(each) {
      let after: string | null = null;
      for (;;) {
        const page: string[] = await store.undeliveredMonitors(after, UNDELIVERED_PAGE);
        for (const id of page) each(id);
        if (page.length < UNDELIVERED_PAGE) return;
        after = page.at(-1)!;
      }
    },
    async close() {
      await schedule.close();
      await store.close();
      await bus.close();
      await connection.close();
    },
  };
}

/** BullMQ's schedule, loaded and connected at its first use: an API process that never writes one never loads it. */
function lazyRedisSchedule(redisUrl: string, services: Services): BackendSchedule & { close(): Promise<void> } {
  type Opened = Awaited<ReturnType<typeof import('../schedule/redis-schedule.js').createRedisSchedule>>;
  let opened: Promise<Opened> | null = null;
  const open = () =>
    (opened ??= import('../schedule/redis-schedule.js').then((m) =>
      // a run whose instance died is handed to another as a job item is (jobs.staleAfterMs)
      m.createRedisSchedule({
        redisUrl,
        logger: services.logger,
        lockDurationMs: services.config.jobs.staleAfterMs,
      }),
    ));
  return {
    upsert: async (id, everyMs, firstDueAt) => (await open()).upsert(id, everyMs, firstDueAt),
    remove: async (id) => (await open()).remove(id),
    start: async (run, concurrency) => (await open()).start(run, concurrency),
    // a schedule that could not be made has nothing to stop
    stop: async () =>
      opened?.then(
        (schedule) => schedule.stop(),
        () => undefined,
      ),
    close: async () =>
      opened?.then(
        (schedule) => schedule.close(),
        () => undefined,
      ),
  };
}
