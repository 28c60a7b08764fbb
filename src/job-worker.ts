/**
 * The job worker process (docs/jobs.md "Where items run"): forked by the primary
 * (src/cluster/job-worker-process.ts) and sent here by src/main.ts. It serves no connection: it runs the
 * instance's job items — every item runs the tool's REST document through the same pipeline as a single
 * call (src/rest/jobs/rest-job-tools.ts) — hears of new jobs and cancellations by push, and reports each
 * job's progress back, all through the primary.
 *
 * Its threads run at the lowest CPU priority: on a machine whose cores are busy, an interactive request's
 * work goes first and the items take what it leaves; they mostly wait on the network, and lose little.
 */
import { readdirSync } from 'node:fs';
import { setPriority } from 'node:os';
import type { Config } from './config.js';
import type { Logger } from './log.js';
import { ipcRunnerJobBus, type ParentChannel } from './jobs/job-bus.js';
import { ipcRunnerMonitorBus } from './monitors/runtime/monitor-bus.js';
import { exitAfterWrites } from './platform/embedded-db-processes.js';
import type { JobRunner } from './jobs/job-runner.js';
import type { Services } from './services.js';

/** The niceness of the job worker's threads: the lowest priority (the API workers' is 0). */
const JOB_WORKER_NICENESS = 19;

/** Every thread of this process (Linux sets a priority per thread), else the process alone. */
function lowerPriority(logger: Logger): void {
  let threads: number[];
  try {
    threads = readdirSync('/proc/self/task').map(Number);
  } catch {
    threads = [0];
  }
  for (const thread of threads) {
    try {
      setPriority(thread, JOB_WORKER_NICENESS);
    } catch (e) {
      logger.warn('job_worker_priority_unchanged', { message: (e as Error).message });
      return;
    }
  }
}

export async function runJobWorker(config: Config, logger: Logger, started: number): Promise<void> {
  const channel = process as unknown as ParentChannel & { send(message: unknown): boolean };
  // first: submissions pushed while this process loads are kept for the runner
  const bus = ipcRunnerJobBus(channel);
  const monitorBus = ipcRunnerMonitorBus(channel);
  lowerPriority(logger);
  // after the embedded database's writes are on disk: lmdb-js can block an exit that comes during a flush
  const exit = (code: number): void => exitAfterWrites(code, () => logger.flush?.());
  // Signals are handled from the start: one that comes while the process loads ends it at once.
  let stopping = false;
  let runner: JobRunner | undefined;
  let monitorRunner: { stop(): Promise<void> } | undefined;
  let services: Services | undefined;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info('shutdown', { signal, pid: process.pid });
    const stopped = () => {
      logger.info('stopped', { pid: process.pid });
      exit(0);
    };
    if (!runner || !services) return stopped();
    // Takes no new item; one cut short runs again at the next start (docs/jobs.md "Durability").
    void Promise.all([runner.stop(), monitorRunner?.stop()])
      .then(() => services?.close())
      .then(stopped, () => exit(1));
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
  const [
    { createServices },
    { enableProcessMetrics },
    { LEDGERS_IN_PRIMARY_ENV, ipcLedgers },
    { serveMetricsToPrimary },
    { precompileDocuments },
    { createNetdiagYoga },
    { schema },
    { restRoutes },
    { createRestJobTools },
    { startJobRunner },
    { openMonitorBackend, startMonitorRunner },
    { watchSpecs },
  ] = await Promise.all([
    import('./create-services.js'),
    import('./platform/metrics.js'),
    import('./cluster/ledger-ipc.js'),
    import('./cluster/metrics-ipc.js'),
    import('./graphql-server/plugins/use-precompiled-documents.js'),
    import('./graphql-server/yoga.js'),
    import('./graphql-server/schema.js'),
    import('./rest/routes.js'),
    import('./rest/jobs/rest-job-tools.js'),
    import('./jobs/jobs-module.js'),
    import('./monitors/runtime/monitors-module.js'),
    import('./graphql-server/watch-specs.js'),
  ]);
  services = await createServices(
    config,
    logger,
    process.env[LEDGERS_IN_PRIMARY_ENV] === '1' ? { ledgers: ipcLedgers() } : {},
  );
  enableProcessMetrics(services.metrics);
  serveMetricsToPrimary(channel, services.metrics.registry);
  const precompiled = precompileDocuments(
    schema,
    [...restRoutes.values()].map((route) => route.document),
  );
  const yoga = createNetdiagYoga(services, { precompiled });
  const tools = createRestJobTools(yoga, services);
  // The monitors' named databases are opened before the job runner starts writing: opening one waits for
  // the environment's write lock, which a job's synchronous writes in this process hold in turn.
  const monitorBackend = openMonitorBackend(services, watchSpecs());
  const running = await startJobRunner({ services, tools, bus });
  runner = running;
  // monitors' runs, schedule and webhooks run here too (docs/monitors.md "Where monitors run")
  // (on Redis, in the job worker of each instance whose role includes jobs, sharing the schedule's queue)
  // Not awaited: a Redis that is down at the start holds the schedule's worker back until it is back, and
  // the job runner is ready meanwhile.
  const backend = await monitorBackend;
  let monitorsRunning: { stop(): Promise<void> } | null = null;
  startMonitorRunner({ services, tools, bus: monitorBus, backend }).then(
    (runner) => {
      monitorsRunning = runner;
    },
    (e: unknown) => logger.error('monitors_runner_unavailable', { message: (e as Error).message }),
  );
  monitorRunner = {
    async stop() {
      // one still starting has handed out nothing: closing the backend ends it
      await monitorsRunning?.stop();
      await backend.close();
    },
  };
  services.metrics.watchJobs(() => running.stats(), config.store.redisUrl !== null);
  logger.info('job_worker', { pid: process.pid, ms: Math.round(performance.now() - started) });
  channel.send({ netdiagWorker: 'ready' });
}
