/**
 * The primary process of `npm start`, whatever `server.workers` is (docs/operations.md "Every core"): it owns the
 * API port and hands each connection to a ready worker (connection-router.ts), answers liveness itself,
 * serves /metrics on a listener of its own with every process's counts (metrics-listener.ts), holds the
 * credit ledgers when there is no Redis (ledger-ipc.ts), forks the workers, and on SIGTERM or SIGINT
 * stops accepting and lets every worker drain before exiting.
 *
 * Start-up: the API port opens when the first worker is ready, so no request meets a process that
 * cannot answer it yet. A worker that exits before it was ever ready ends the instance with a non-zero
 * code and says so: what failed one start would fail the next, and a replacement loop would hide it.
 * A worker that dies after it was ready is replaced.
 */
import { mkdirSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import cluster, { type Worker } from 'node:cluster';
import type { RequestListener } from 'node:http';
import type { AddressInfo, Server } from 'node:net';
import { Gauge } from 'prom-client';
import { DEFAULT_METRICS_PORT, workerCount, type Config } from '../config.js';
import type { Logger } from '../log.js';
import { loadOrCreateSecret } from '../platform/keys.js';
import { createMetrics, enableProcessMetrics } from '../platform/metrics.js';
import { createMemoryQuotaStore, type QuotaStore } from '../platform/quota.js';
import { createJournaledQuotaStore } from '../platform/quota-journal.js';
import { ensureBundledIpDataFile } from '../probes/ipdata/bundled.js';
import { ledgerPolicies } from '../platform/ledger-policies.js';
import { createConnectionRouter } from './connection-router.js';
import { LEDGERS_IN_PRIMARY_ENV, serveLedgers, type LedgerName } from './ledger-ipc.js';
import { addressOf, type ListenError, listenOn } from './listen.js';
import { createMetricsCollector } from './metrics-ipc.js';
import { createMetricsListener } from './metrics-listener.js';
import { answeredByPrimary } from './primary-answers.js';
import { isWorkerState } from './worker-messages.js';
import { helperPoolSize, workerExecArgv } from './worker-gc.js';
import { startJobWorkerProcess, type JobWorkerProcess } from './job-worker-process.js';

/** A worker that dies after it was ready is replaced after this pause, never in a tight loop. */
const RESPAWN_DELAY_MS = 1_000;

/** The exit code of a refused configuration (main.ts), from a worker too. */
const EX_CONFIG = 78;
/** Any other start that cannot serve: a port that cannot be opened, a worker that cannot start. */
const EX_START_FAILED = 1;

/** The credit ledger's journal in `server.dataDir` (src/platform/quota-journal.ts). */
const QUOTA_JOURNAL_FILE = 'ledger-quota.ndjson';

export interface PrimaryOptions {
  readonly shutdownGraceMs: number;
  /** what the primary answers while no worker is ready (src/web/starting.ts): 503 with Retry-After */
  readonly answerWithoutWorker: RequestListener;
}

type WorkerPhase = 'starting' | 'ready' | 'stopping';

export async function runPrimary(config: Config, logger: Logger, options: PrimaryOptions): Promise<void> {
  // One secret for all workers: created here, before any worker could race to create its own.
  loadOrCreateSecret(config.auth.secret, config.server.dataDir);
  mkdirSync(config.server.dataDir, { recursive: true });
  const policies = ledgerPolicies(config);
  const stores: Record<LedgerName, QuotaStore> | null = config.store.redisUrl
    ? null
    : {
        // the credit ledger outlives a restart (docs/contract/jobs.md "Behaviour": durable), beside the jobs
        quota: createJournaledQuotaStore(policies.quota, join(config.server.dataDir, QUOTA_JOURNAL_FILE)),
        issue: createMemoryQuotaStore(policies.issue),
        unkeyed: createMemoryQuotaStore(policies.unkeyed),
      };
  const phases = new Map<Worker, WorkerPhase>();
  let stopping = false;
  let portOpened = false;

  // The primary's own counts (liveness answers, its process) join the workers' in /metrics.
  const metrics = createMetrics({ tools: [] });
  enableProcessMetrics(metrics);
  const router = createConnectionRouter(answeredByPrimary(options.answerWithoutWorker, logger, metrics), logger);
  new Gauge({
    name: 'netdiag_workers_ready',
    help: 'Workers taking new connections now (the primary hands connections to these only).',
    registers: [metrics.registry],
    collect() {
      this.set(router.readyCount());
    },
  });
  const readyWorkers = () => [...phases].filter(([, phase]) => phase === 'ready').map(([worker]) => worker);
  // the job worker (docs/jobs.md "Where items run") is counted in /metrics once ready
  let jobWorker: JobWorkerProcess | null = null;
  const collector = createMetricsCollector(metrics.registry, () => [...readyWorkers(), ...(jobWorker?.ready() ?? [])]);
  const metricsListener =
    config.metrics.port === null ? null : createMetricsListener(collector.exposition, config.metrics.token, logger);

  const exit = (code: number): never => {
    logger.flush?.();
    process.exit(code);
  };

  /** Stops accepting, lets every worker drain, then exits with `code`. */
  const stop = (reason: string, code: number): void => {
    if (stopping) return;
    stopping = true;
    logger.info('shutdown', { signal: reason, workers: phases.size });
    router.close();
    metricsListener?.close();
    jobWorker?.stop();
    // Each worker takes no new connection, finishes what it has in flight and exits (main.ts).
    for (const worker of phases.keys()) {
      router.withdraw(worker);
      worker.process.kill('SIGTERM');
    }
    const check = setInterval(() => {
      if (phases.size > 0 || jobWorker?.running()) return;
      clearInterval(check);
      logger.info('stopped', {});
      exit(code);
    }, 50);
    setTimeout(() => {
      logger.error('shutdown_forced', { afterMs: options.shutdownGraceMs });
      exit(code === 0 ? 1 : code);
    }, options.shutdownGraceMs + 1_000).unref();
  };

  const failStart = (message: string, fields: Record<string, unknown>, code: number): void => {
    process.stderr.write(`netdiag: ${message}\n`);
    logger.error('start_failed', { message, ...fields });
    stop('start_failed', code);
  };

  const openPort = (): void => {
    portOpened = true;
    const { host, port } = config.server;
    router.listen(host, port).then(
      (address) => {
        logger.info('listening', { pid: process.pid, address: addressOf(address.address, address.port) });
        // for the person who started it (the JSON lines on stdout are for machines)
        process.stderr.write(
          `netdiag: listening on ${browsable(address.address, address.port)} — the developer page; the API at /api/v1, GraphQL at /graphql, docs at /docs\n`,
        );
      },
      (e: unknown) => failStart((e as Error).message, { code: (e as ListenError).code }, EX_START_FAILED),
    );
  };

  const fork = (): Worker => {
    const worker = cluster.fork(stores ? { [LEDGERS_IN_PRIMARY_ENV]: '1' } : {});
    phases.set(worker, 'starting');
    if (stores) serveLedgers(worker, stores);
    collector.serve(worker);
    jobWorker?.relayFrom(worker);
    worker.on('message', (message: unknown) => {
      if (isWorkerState(message, 'ready') && phases.get(worker) === 'starting' && !stopping) {
        phases.set(worker, 'ready');
        router.ready(worker);
        if (!portOpened) openPort();
      } else if (isWorkerState(message, 'stopping') && phases.has(worker)) {
        phases.set(worker, 'stopping');
        router.withdraw(worker);
      }
    });
    worker.on('disconnect', () => router.withdraw(worker));
    // A message sent to a worker that has just gone (a ledger reply, a scrape) fails with an 'error'
    // event, which would end the primary if nothing listened; its exit is handled below.
    worker.on('error', (e: Error) =>
      logger.warn('worker_channel_error', { pid: worker.process.pid, message: e.message }),
    );
    return worker;
  };

  /** A worker (an API worker or the job worker) that exits before it was ready ends the start. */
  function failedToStart(
    which: string,
    exit: { pid?: number | undefined; code: number | null; signal: string | null },
  ) {
    const { code, signal } = exit;
    if (code === EX_CONFIG) {
      // The worker refused its configuration (a file it names is unreadable): it said why on stderr.
      logger.error('worker_refused_configuration', { which, ...exit });
      stop('start_failed', EX_CONFIG);
      return;
    }
    failStart(
      `a worker exited while starting (${which}, ${signal ? `signal ${signal}` : `exit code ${code}`}); its error is above. Not replacing it: the instance stops`,
      { which, ...exit },
      EX_START_FAILED,
    );
  }

  cluster.on('exit', (worker, code, signal) => {
    const phase = phases.get(worker);
    phases.delete(worker);
    router.forget(worker);
    if (stopping || phase === undefined) return;
    const pid = worker.process.pid;
    if (phase === 'starting') {
      failedToStart('an API worker', { pid, code, signal });
      return;
    }
    logger.error('worker_died', { pid, code, signal, replacing: true });
    setTimeout(() => {
      if (!stopping) logger.info('worker_replaced', { pid: fork().process.pid });
    }, RESPAWN_DELAY_MS).unref();
  });

  process.on('SIGTERM', () => stop('SIGTERM', 0));
  process.on('SIGINT', () => stop('SIGINT', 0));

  // The metrics port first: a port that cannot be opened ends the start before any worker is forked.
  if (metricsListener && config.metrics.port !== null) {
    try {
      const address = await listenForMetrics(metricsListener, config.metrics.host, config.metrics.port, logger);
      logger.info('metrics_listening', { address: addressOf(address.address, address.port) });
      process.stderr.write(`netdiag: metrics on ${browsable(address.address, address.port)}metrics\n`);
    } catch (e) {
      process.stderr.write(`netdiag: ${(e as Error).message}\n`);
      logger.error('start_failed', { message: (e as Error).message });
      exit(EX_START_FAILED);
    }
  }

  const workers = workerCount(config);
  if (config.ipInfo.database === null) await prepareBundledIpData(config.server.dataDir, logger);
  const cores = availableParallelism();
  const execArgv = workerExecArgv(process.execArgv, { workers, cores });
  cluster.setupPrimary({ execArgv });
  if (stopping) return;
  if (config.server.role !== 'api')
    jobWorker = startJobWorkerProcess({
      ledgers: stores,
      apiWorkers: readyWorkers,
      logger,
      failed: (code, signal) => failedToStart('the job worker', { code, signal }),
    });
  if (config.server.role !== 'jobs') for (let i = 0; i < workers; i++) fork();
  logger.info('primary', {
    pid: process.pid,
    workers,
    ledgers: stores ? 'primary' : 'redis',
    gc: execArgv.includes('--single-threaded-gc') ? 'single-threaded' : 'parallel',
    gcHelpers: helperPoolSize(workers, cores),
  });
}

/**
 * Opens the metrics listener. The default port, when another process holds it (a second instance on this
 * host, started with another PORT), gives way to a free port, said on stderr and in the log: the instance
 * starts, and its metrics are where the `metrics_listening` line says. A port the operator chose is theirs:
 * taken, it stops the start.
 */
async function listenForMetrics(listener: Server, host: string, port: number, logger: Logger): Promise<AddressInfo> {
  const settings = 'METRICS_PORT / metrics.host / metrics.port';
  try {
    return await listenOn(listener, host, port, settings);
  } catch (e) {
    if (port !== DEFAULT_METRICS_PORT || (e as ListenError).code !== 'EADDRINUSE') throw e;
    const address = await listenOn(listener, host, 0, settings);
    const message = `the metrics port ${port} is taken (another instance on this host?): metrics on port ${address.port} instead; set METRICS_PORT to choose the port`;
    process.stderr.write(`netdiag: ${message}\n`);
    logger.warn('metrics_port_taken', { port, instead: address.port });
    return address;
  }
}

/**
 * Builds the bundled IP data's file before the workers start, when it is missing (a first start): each
 * worker would otherwise run a builder of its own at the same time, each taking its memory and CPU. A
 * failure is logged and left to the workers, which try again and say why on their own.
 */
async function prepareBundledIpData(dataDir: string, logger: Logger): Promise<void> {
  const started = performance.now();
  try {
    await ensureBundledIpDataFile(dataDir);
    logger.info('ip_data_file_ready', { ms: Math.round(performance.now() - started) });
  } catch (e) {
    logger.error('ip_data_file_failed', { message: (e as Error).message });
  }
}

/** An address a browser can open: a wildcard address is reached as localhost. */
function browsable(host: string, port: number): string {
  const name = host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  return `http://${name}:${port}/`;
}
