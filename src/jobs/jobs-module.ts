/**
 * The jobs module as a process mounts it (docs/jobs.md "Where items run"):
 *   - `createJobsApi`: what answers the endpoints and the GraphQL fields — the store, the bus to the
 *     runner, the event hub — with the runner in this same process (one process, tests) or elsewhere
 *     (an API worker of a multi-process instance: the job worker, or on Redis the instances whose role
 *     includes jobs);
 *   - `startJobRunner`: the runner alone, in the job worker process.
 * Without `store.redisUrl` the store is the embedded database in `server.dataDir`; with it, Redis, and the
 * BullMQ runner, imported only where items run (a process that only answers never loads it).
 */
import type { Services } from '../services.js';
import { openEmbeddedJobStore } from './embedded/lmdb-job-store.js';
import { startEmbeddedRunner } from './embedded/embedded-runner.js';
import { localJobBus, type ApiJobBus, type RunnerJobBus } from './job-bus.js';
import { sendJobCallback } from './job-callback.js';
import { createJobEventHub } from './job-event-hub.js';
import { createJobOperations } from './job-operations.js';
import type { JobRunner, JobStats } from './job-runner.js';
import type { JobStore } from './job-store.js';
import type { JobTools } from './job-tools.js';
import type { JobsPort } from './jobs-port.js';
import { createRedisJobBus } from './redis/redis-job-bus.js';
import { createRedisJobStore } from './redis/redis-job-store.js';

export interface JobsApi {
  readonly port: JobsPort;
  /** the figures of the runner in this process (none when items run elsewhere): for /metrics */
  stats(): Promise<JobStats>;
  /** stops the runner here and the event streams; what is not written runs again at the next start */
  stop(): Promise<void>;
}

export type RunnerPlace =
  /** items run in this process; `interactiveBusy`: its interactive requests, which items give way to */
  | { readonly kind: 'here'; readonly interactiveBusy?: () => boolean }
  /** items run in another process; `bus` reaches it (the IPC channel to the primary; none on Redis) */
  | { readonly kind: 'elsewhere'; readonly bus?: ApiJobBus };

const NO_STATS: JobStats = { jobs: { queued: 0, running: 0 }, itemsFinished: 0, queueDepth: 0 };

interface Parts {
  store: JobStore;
  bus: ApiJobBus;
  runner: Promise<JobRunner | null>;
  close(): Promise<void>;
}

/** The store opened by its first use: a process that never answers a job endpoint never opens it. */
function openedWhenUsed(open: () => JobStore): JobStore {
  let store: JobStore | undefined;
  const use = () => (store ??= open());
  return {
    create: (record, targets, maxActive) => use().create(record, targets, maxActive),
    activeCount: (keyId) => use().activeCount(keyId),
    read: (id) => use().read(id),
    page: (keyId, limit, cursor) => use().page(keyId, limit, cursor),
    results: (record, after) => use().results(record, after),
    cancel: (record) => use().cancel(record),
    close: async () => store?.close(),
  };
}

function embeddedParts(services: Services, tools: JobTools, place: RunnerPlace): Parts {
  const { dataDir } = services.config.server;
  if (place.kind === 'elsewhere') {
    if (!place.bus) throw new Error('jobs: the embedded store needs a bus to the job worker');
    const store = openedWhenUsed(() => openEmbeddedJobStore(dataDir));
    return { store, bus: place.bus, runner: Promise.resolve(null), close: () => store.close() };
  }
  const store = openEmbeddedJobStore(dataDir);
  const bus = localJobBus();
  const runner = startEmbeddedRunner({
    store,
    tools,
    services,
    bus,
    ...(place.interactiveBusy ? { interactiveBusy: place.interactiveBusy } : {}),
  });
  return { store, bus, runner: Promise.resolve(runner), close: () => store.close() };
}

function redisParts(services: Services, tools: JobTools, place: RunnerPlace, redisUrl: string): Parts {
  const { logger, quota, config } = services;
  const bus = createRedisJobBus(redisUrl, logger);
  const stopping = new AbortController();
  const store = createRedisJobStore(redisUrl, {
    logger,
    retentionMs: Math.round(config.jobs.retentionHours * 3_600_000),
    now: services.now,
    hooks: {
      async refund(record, items) {
        if (record.chargeId === null || items * record.itemCost === 0) return;
        await quota
          .refund(record.keyId, record.chargeId, items * record.itemCost)
          .catch((e: unknown) =>
            logger.error('job_refund_failed', { jobId: record.id, message: (e as Error).message }),
          );
      },
      ended(record, setCallback) {
        bus.changed({ id: record.id, ended: true });
        void sendJobCallback(services, record, setCallback, stopping.signal).catch((e: unknown) =>
          logger.error('job_callback_failed', { jobId: record.id, message: (e as Error).message }),
        );
      },
    },
  });
  const runner =
    place.kind === 'here'
      ? import('./redis/redis-runner.js').then((m) => m.startRedisRunner({ redisUrl, tools, services, bus }))
      : Promise.resolve(null);
  // an import that fails is reported here; the API keeps answering
  runner.catch((e: unknown) => logger.error('jobs_runner_unavailable', { message: (e as Error).message }));
  return {
    store,
    bus,
    runner,
    async close() {
      stopping.abort();
      await store.close();
      await bus.close();
    },
  };
}

export function createJobsApi(options: { services: Services; tools: JobTools; place: RunnerPlace }): JobsApi {
  const { services, tools, place } = options;
  const { redisUrl } = services.config.store;
  const parts = redisUrl ? redisParts(services, tools, place, redisUrl) : embeddedParts(services, tools, place);
  const hub = createJobEventHub({
    bus: parts.bus,
    read: (id) => parts.store.read(id),
    maxStreamsPerKey: services.config.jobs.maxStreamsPerKey,
    onError: (e) => services.logger.error('job_events_failed', { message: (e as Error).message }),
  });
  const port = createJobOperations({ store: parts.store, bus: parts.bus, hub, tools, services });
  return {
    port,
    async stats() {
      const runner = await parts.runner.catch(() => null);
      return runner ? runner.stats() : NO_STATS;
    },
    async stop() {
      hub.close();
      const runner = await parts.runner.catch(() => null);
      await runner?.stop();
      await parts.close();
    },
  };
}

/** The runner alone (the job worker process), hearing of jobs on `bus` (embedded) or on Redis. */
export async function startJobRunner(options: {
  services: Services;
  tools: JobTools;
  bus: RunnerJobBus;
}): Promise<JobRunner> {
  const { services, tools } = options;
  const { redisUrl } = services.config.store;
  if (redisUrl) {
    const bus = createRedisJobBus(redisUrl, services.logger);
    const { startRedisRunner } = await import('./redis/redis-runner.js');
    const runner = startRedisRunner({ redisUrl, tools, services, bus });
    return {
      stats: () => runner.stats(),
      async stop() {
        await runner.stop();
        await bus.close();
      },
    };
  }
  const store = openEmbeddedJobStore(services.config.server.dataDir);
  return startEmbeddedRunner({ store, tools, services, bus: options.bus });
}
