/**
 * The monitors module as a process mounts it (docs/monitors.md "Where monitors run"), as the jobs module
 * is mounted (src/jobs/jobs-module.ts):
 *   - `createMonitorsApi`: what answers the endpoints — the store, the schedule's writing side, the event
 *     hub — with the runner in this same process (one process, tests) or in the job worker (an API worker
 *     of a multi-process instance, told of new schedules and told of new events over the bus);
 *   - `startMonitorRunner`: the schedule's hand-out, the runs and the webhook deliverers, in the job worker.
 * The watch specs are injected (a map from tool to its watched fields), built where the app is composed.
 */
import type { JobTools } from '../../jobs/job-tools.js';
import { createItemSlots } from '../../jobs/runner/item-slots.js';
import type { Services } from '../../services.js';
import type { CompiledWatchSpec } from '../../watch/watch-spec.js';
import { createMonitorBackend, type MonitorBackend } from './create-monitor-backend.js';
import { type ApiMonitorBus, localMonitorBus, type RunnerMonitorBus } from './monitor-bus.js';
import { createMonitorEventHub } from './monitor-event-hub.js';
import { createMonitorOperations, type MonitorsPort, unavailableMonitors } from './monitor-operations.js';
import { createMonitorRun } from './monitor-run.js';
import { createWebhookDeliverer } from './webhook-deliverer.js';

export type MonitorsPlace =
  /** runs happen in this process; `interactiveBusy`: its interactive requests, which items give way to */
  | { readonly kind: 'here'; readonly interactiveBusy?: () => boolean }
  /** runs happen in the job worker; `bus` reaches it (none: a process whose schedules nobody hands out, the warm-up) */
  | { readonly kind: 'elsewhere'; readonly bus?: ApiMonitorBus };

export interface MonitorsApi {
  readonly port: MonitorsPort;
  stop(): Promise<void>;
}

export interface MonitorRunner {
  stop(): Promise<void>;
}

/** Runs of different monitors at once in one process (their items share the item slots). */
const RUNS_AT_ONCE = 16;
/** How often old events and what deleted monitors left are removed. */
const PRUNE_INTERVAL_MS = 3_600_000;

export function createMonitorsApi(options: {
  services: Services;
  tools: JobTools;
  place: MonitorsPlace;
  specs: ReadonlyMap<string, CompiledWatchSpec>;
}): MonitorsApi {
  const { services, tools, place, specs } = options;
  const local = place.kind === 'here' ? localMonitorBus() : null;
  const instanceBus: ApiMonitorBus = local ?? (place.kind === 'elsewhere' && place.bus ? place.bus : localMonitorBus());
  const open = () =>
    createMonitorBackend(services, { specs, announce: (id) => instanceBus.scheduled(id) }).then((backend) => {
      // on Redis, every process hears of events over Redis (./redis-monitor-bus.ts); else the instance's bus
      const bus = backend.bus ?? instanceBus;
      const runner =
        place.kind === 'here'
          ? startMonitorRunner({
              services,
              tools,
              bus: backend.bus ?? local!,
              backend,
              ...(place.interactiveBusy ? { interactiveBusy: place.interactiveBusy } : {}),
            })
          : Promise.resolve(null);
      runner.catch((e: unknown) =>
        services.logger.error('monitors_runner_unavailable', { message: (e as Error).message }),
      );
      const hub = createMonitorEventHub({
        bus,
        store: () => backend.store,
        maxStreamsPerKey: services.config.jobs.maxStreamsPerKey,
        onError: (e) => services.logger.error('monitor_events_failed', { message: (e as Error).message }),
      });
      const port = createMonitorOperations({
        store: () => backend.store,
        schedule: () => backend.schedule,
        hub,
        tools,
        services,
        specs,
      });
      return { backend, runner, hub, port };
    });
  // With the runner here, the backend opens now (its schedule hands runs out). Elsewhere (an API worker, the
  // command) it opens at the first monitors request: a process that never serves one — the command on its
  // way to one check — neither opens the embedded database nor connects to Redis for it.
  let opened: ReturnType<typeof open> | null = null;
  let portReady: Promise<MonitorsPort> | null = null;
  const ready = (): Promise<MonitorsPort> => {
    if (portReady) return portReady;
    opened = open();
    portReady = opened.then(
      (parts) => parts.port,
      (e: unknown) => {
        services.logger.error('monitors_unavailable', { message: (e as Error).message });
        return unavailableMonitors(`monitors are unavailable on this instance: ${(e as Error).message}`);
      },
    );
    return portReady;
  };
  if (place.kind === 'here') void ready();
  const port = portWhenReady(ready);
  return {
    port,
    async stop() {
      const parts = await opened?.catch(() => null);
      if (!parts) return;
      parts.hub.close();
      const running = await parts.runner.catch(() => null);
      await running?.stop();
      await parts.backend.close();
    },
  };
}

/** The port once the backend is open: a request that comes earlier waits for it (bounded: the connect is). */
function portWhenReady(ready: () => Promise<MonitorsPort>): MonitorsPort {
  const when = <K extends keyof MonitorsPort>(name: K): MonitorsPort[K] =>
    (async (...args: unknown[]) =>
      ((await ready())[name] as (...a: unknown[]) => unknown)(...args)) as unknown as MonitorsPort[K];
  return {
    create: when('create'),
    get: when('get'),
    list: when('list'),
    update: when('update'),
    remove: when('remove'),
    runNow: when('runNow'),
    history: when('history'),
    events: when('events'),
    follow: when('follow'),
    subscribe: when('subscribe'),
    badge: when('badge'),
  };
}

/**
 * The runner's store and schedule: the embedded databases are opened before this returns (a caller that
 * opens them before another writer needs not wait), Redis' connection once it resolves.
 */
export function openMonitorBackend(
  services: Services,
  specs: ReadonlyMap<string, CompiledWatchSpec>,
): Promise<MonitorBackend> {
  return createMonitorBackend(services, { specs });
}

/** The runner (the job worker, or beside the API in one process). */
export async function startMonitorRunner(options: {
  services: Services;
  tools: JobTools;
  bus: RunnerMonitorBus;
  backend: MonitorBackend;
  interactiveBusy?: () => boolean;
}): Promise<MonitorRunner> {
  const { services, tools, backend } = options;
  const { logger } = services;
  const { store, schedule } = backend;
  // on Redis, events are told to every instance (./redis-monitor-bus.ts)
  const bus = backend.bus ?? options.bus;
  const stopping = new AbortController();
  const slots = createItemSlots(
    services.config.jobs.concurrency,
    (e) => logger.error('monitor_slot_failed', { message: (e as Error).message }),
    options.interactiveBusy,
  );
  const deliverer = createWebhookDeliverer({
    store,
    services,
    signal: stopping.signal,
    ...(backend.deliveryLease ? { lease: backend.deliveryLease } : {}),
  });
  const published = (monitorId: string) => {
    bus.events(monitorId);
    deliverer.wake(monitorId);
  };
  const run = createMonitorRun({ store, tools, services, slots, published, signal: stopping.signal });
  // a schedule written here or by an API worker: the earliest due time is looked at again
  bus.onScheduled(() => schedule.wake?.());
  await schedule.start(run, RUNS_AT_ONCE);
  // events a crash left undelivered, and on Redis, now and then, those of another instance's deliverer that died
  const sweep = () =>
    backend
      .undelivered((id) => deliverer.wake(id))
      .catch((e: unknown) => logger.error('monitor_webhook_sweep_failed', { message: (e as Error).message }));
  await sweep();
  const sweepTimer = backend.sweepMs ? setInterval(() => void sweep(), backend.sweepMs) : undefined;
  sweepTimer?.unref();
  const prune = async () => {
    try {
      const pruned = await store.prune(new Date(services.now()));
      if (pruned.events + pruned.purged > 0) logger.info('monitors_pruned', pruned);
    } catch (e) {
      logger.error('monitor_prune_failed', { message: (e as Error).message });
    }
  };
  const pruneTimer = setInterval(() => void prune(), PRUNE_INTERVAL_MS);
  pruneTimer.unref();
  return {
    async stop() {
      clearInterval(pruneTimer);
      clearInterval(sweepTimer);
      stopping.abort(new DOMException('the service is stopping', 'AbortError'));
      await schedule.stop();
      await deliverer.stop();
    },
  };
}
