/**
 * Composition root: loadConfig, then the primary process (src/cluster/primary.ts) or, in a worker it
 * forked, services → createApp → serving the connections the primary hands over. The only place that
 * reads the environment (through loadConfig) and handles signals.
 *
 * `npm start` always runs a primary and `server.workers` workers (docs/operations.md "Every core"), one worker
 * included, so that the process an orchestrator probes behaves the same whatever the count: the primary
 * owns the port, opens it once a worker can answer, and answers /healthz itself; workers never listen.
 */
import cluster from 'node:cluster';
import { ConfigError, loadConfig, type Config } from './config.js';
import { createJsonLogger, type Logger } from './log.js';
import { whileStarting } from './web/starting.js';
import type { ParentChannel } from './jobs/job-bus.js';
import type { Services } from './services.js';
import type { App } from './app.js';
import { JOB_WORKER_ENV } from './cluster/job-worker-process.js';
import { exitAfterWrites } from './platform/embedded-db-processes.js';

const SHUTDOWN_GRACE_MS = 25_000;

async function main(): Promise<void> {
  const started = performance.now();
  const logger = createJsonLogger();
  let config: Config;
  try {
    // the primary says once what the file names that this version no longer reads (the workers read it too)
    config = loadConfig(process.env, (message) => {
      if (!cluster.isPrimary) return;
      process.stderr.write(`netdiag: ${message}\n`);
      logger.warn('config_key_removed', { message });
    });
  } catch (e) {
    refuseConfig(e);
  }

  if (cluster.isPrimary) {
    const { runPrimary } = await import('./cluster/primary.js');
    await runPrimary(config, logger, { shutdownGraceMs: SHUTDOWN_GRACE_MS, answerWithoutWorker: whileStarting });
    return;
  }
  // the worker the primary forks to run the job items (src/cluster/job-worker-process.ts)
  if (process.env[JOB_WORKER_ENV] === '1') {
    const { runJobWorker } = await import('./job-worker.js');
    // a file the configuration names that the job worker cannot read is refused as the API workers refuse it
    await runJobWorker(config, logger, started).catch(refuseConfig);
    return;
  }
  await runWorker(config, logger, started);
}

/** A worker: loads the app, tells the primary it is ready, serves what it is handed, drains on SIGTERM. */
async function runWorker(config: Config, logger: Logger, started: number): Promise<void> {
  // after the embedded database's writes are on disk: lmdb-js can block an exit that comes during a flush
  const exit = (code: number): void => exitAfterWrites(code, () => logger.flush?.());
  let services: Services | undefined;
  let app: App | undefined;
  let drain: (() => Promise<void>) | undefined;
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info('shutdown', { signal, pid: process.pid });
    const draining = drain;
    // Not serving yet: nothing to drain.
    if (!draining) {
      logger.info('stopped', { pid: process.pid });
      return exit(0);
    }
    setTimeout(() => {
      logger.error('shutdown_forced', { afterMs: SHUTDOWN_GRACE_MS, pid: process.pid });
      exit(1);
    }, SHUTDOWN_GRACE_MS).unref();
    // Take no new job item (one cut short runs again at the next start), no new connection; let in-flight
    // requests finish, close idle keep-alive connections.
    void app?.stopBackground();
    draining().then(async () => {
      await services?.close();
      logger.info('stopped', { pid: process.pid });
      exit(0);
    });
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));

  const [
    { createServices },
    { createApp },
    { createHttpServer },
    { enableProcessMetrics },
    { LEDGERS_IN_PRIMARY_ENV, ipcLedgers },
    { takeHandedConnections },
    { expositionFromPrimary, serveMetricsToPrimary },
    { ipcApiJobBus },
    { ipcApiMonitorBus },
  ] = await Promise.all([
    import('./create-services.js'),
    import('./app.js'),
    import('./http-server.js'),
    import('./platform/metrics.js'),
    import('./cluster/ledger-ipc.js'),
    import('./cluster/handed-connections.js'),
    import('./cluster/metrics-ipc.js'),
    import('./jobs/job-bus.js'),
    import('./monitors/runtime/monitor-bus.js'),
  ]);
  try {
    // Services read files named by the configuration (RDAP bootstrap, IP database): a bad one is a
    // configuration error too, reported the same way.
    services = await createServices(
      config,
      logger,
      process.env[LEDGERS_IN_PRIMARY_ENV] === '1' ? { ledgers: ipcLedgers() } : {},
    );
  } catch (e) {
    refuseConfig(e);
  }
  const primary = process as unknown as Parameters<typeof takeHandedConnections>[1];
  enableProcessMetrics(services.metrics);
  serveMetricsToPrimary(primary, services.metrics.registry);
  // /metrics on the API port (with metrics.token) shows the whole instance, as the metrics port does.
  services.metrics.exposeFrom(expositionFromPrimary(primary));
  // Job items run in the job worker (or, with Redis, in the instances whose role includes jobs): never here,
  // beside the interactive requests (docs/jobs.md "Where items run").
  const bus = config.store.redisUrl === null ? ipcApiJobBus(process as unknown as ParentChannel) : undefined;
  const monitorBus = config.store.redisUrl === null ? ipcApiMonitorBus(process as unknown as ParentChannel) : undefined;
  app = createApp(services, {
    jobs: { kind: 'elsewhere', ...(bus ? { bus } : {}) },
    monitors: { kind: 'elsewhere', ...(monitorBus ? { bus: monitorBus } : {}) },
  });
  const { jobStats } = app;
  services.metrics.watchJobs(jobStats, config.store.redisUrl !== null);
  const intake = takeHandedConnections(createHttpServer(app), primary);
  drain = intake.drain;
  // Warm before ready: the first answer of this worker as fast as its tenth (src/warm-up/warm-up.ts).
  const { warmUp } = await import('./warm-up/warm-up.js');
  const warmed = await warmUp(services, app);
  if (warmed.failed.length > 0 || warmed.cutShort) logger.warn('warm_up_incomplete', { pid: process.pid, ...warmed });
  else logger.info('warmed_up', { pid: process.pid, ms: warmed.ms });
  logger.info('ready', { pid: process.pid, ms: Math.round(performance.now() - started) });
  intake.ready();
  // Open the IP data now (on a first start its file is built by a child process), so the first ip-info
  // request does not wait for it; a failure leaves lookups to try again and says why.
  const warming = performance.now();
  services.ipData.warm?.().then(
    () => logger.info('ip_database_ready', { ms: Math.round(performance.now() - warming) }),
    (e: unknown) => logger.error('ip_database_unavailable', { message: (e as Error).message }),
  );
}

function refuseConfig(e: unknown): never {
  if (e instanceof ConfigError) {
    process.stderr.write(`netdiag: refusing to start: invalid configuration\n${e.message}\n`);
    process.exit(78); // EX_CONFIG
  }
  throw e;
}

main().catch((e) => {
  process.stderr.write(`netdiag: failed to start: ${(e as Error).stack ?? e}\n`);
  process.exit(1);
});
