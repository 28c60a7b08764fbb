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
  const bus: ApiMonitorBus = local ?? (place.kind === 'elsewhere' && place.bus ? place.bus : localMonitorBus());
  const outcome = createMonitorBackend(services, { specs, announce: (id) => bus.scheduled(id) });
  if (!outcome.ok) return { port: unavailableMonitors(outcome.message), stop: async () => {} };
  const { backend } = outcome;
  const runner =
    local && place.kind === 'here'
      ? startMonitorRunner({
          services,
          tools,
          bus: local,
          backend,
          ...(place.interactiveBusy ? { interactiveBusy: place.interactiveBusy } : {}),
        })
      : Promise.resolve(null);
  runner.catch((e: unknown) => services.logger.error('monitors_runner_unavailable', { message: (e as Error).message }));
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
  return {
    port,
    async stop() {
      hub.close();
      const running = await runner.catch(() => null);
      await running?.stop();
      await backend.store.close();
    },
  };
}

/** The runner's store and schedule (their databases opened now), or null where monitors are not run (Redis mode). */
export function openMonitorBackend(
  services: Services,
  specs: ReadonlyMap<string, CompiledWatchSpec>,
): MonitorBackend | null {
  const outcome = createMonitorBackend(services, { specs });
  if (outcome.ok) return outcome.backend;
  services.logger.warn('monitors_not_run', { message: outcome.message });
  return null;
}

/** The runner (the job worker, or beside the API in one process). */
export async function startMonitorRunner(options: {
  services: Services;
  tools: JobTools;
  bus: RunnerMonitorBus;
  backend: MonitorBackend | null;
  interactiveBusy?: () => boolean;
}): Promise<MonitorRunner> {
  const { services, tools, bus, backend } = options;
  const { logger } = services;
  if (!backend) return { stop: async () => {} };
  const { store, schedule } = backend;
  const stopping = new AbortController();
  const slots = createItemSlots(
    services.config.jobs.concurrency,
    (e) => logger.error('monitor_slot_failed', { message: (e as Error).message }),
    options.interactiveBusy,
  );
  const deliverer = createWebhookDeliverer({ store, services, signal: stopping.signal });
  const published = (monitorId: string) => {
    bus.events(monitorId);
    deliverer.wake(monitorId);
  };
  const run = createMonitorRun({ store, tools, services, slots, published, signal: stopping.signal });
  // a schedule written here or by an API worker: the earliest due time is looked at again
  bus.onScheduled(() => schedule.wake());
  await schedule.start(run, RUNS_AT_ONCE);
  // events a crash left undelivered
  for (const id of await backend.monitorIds()) deliverer.wake(id);
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
      stopping.abort(new DOMException('the service is stopping', 'AbortError'));
      await schedule.stop();
      await deliverer.stop();
    },
  };
}
