/**
 * The primary process of `server.workers` > 1 (README "Every core"): it serves no HTTP itself. It
 * forks the workers (they share the listening port through node:cluster), holds the credit ledgers
 * when there is no Redis (src/cluster/ledger-ipc.ts), replaces a worker that dies, and on SIGTERM or
 * SIGINT lets every worker drain before exiting.
 */
import { availableParallelism } from 'node:os';
import cluster, { type Worker } from 'node:cluster';
import { workerCount, type Config } from '../config.js';
import type { Logger } from '../log.js';
import { loadOrCreateSecret } from '../platform/keys.js';
import { createMemoryQuotaStore, type QuotaStore } from '../platform/quota.js';
import { ensureBundledIpDataFile } from '../probes/ipdata/bundled.js';
import { ledgerPolicies } from '../platform/ledger-policies.js';
import { serveLedgers, type LedgerName } from './ledger-ipc.js';
import { helperPoolSize, workerExecArgv } from './worker-gc.js';

/** A worker that dies this soon after its start is not replaced in a loop faster than this. */
const RESPAWN_DELAY_MS = 1_000;

/** The exit code of a refused configuration (main.ts), from a worker too. */
const EX_CONFIG = 78;

/** Set in a worker's environment when the primary holds the ledgers (no Redis). */
export const LEDGERS_IN_PRIMARY_ENV = 'NETDIAG_LEDGERS_IN_PRIMARY';

export async function runPrimary(config: Config, logger: Logger, shutdownGraceMs: number): Promise<void> {
  // One secret for all workers: created here, before any worker could race to create its own.
  loadOrCreateSecret(config.auth.secret, config.server.dataDir);
  const policies = ledgerPolicies(config);
  const stores: Record<LedgerName, QuotaStore> | null = config.store.redisUrl
    ? null
    : {
        quota: createMemoryQuotaStore(policies.quota),
        issue: createMemoryQuotaStore(policies.issue),
        unkeyed: createMemoryQuotaStore(policies.unkeyed),
      };
  let stopping = false;

  const fork = (): Worker => {
    const worker = cluster.fork(stores ? { [LEDGERS_IN_PRIMARY_ENV]: '1' } : {});
    if (stores) serveLedgers(worker, stores);
    return worker;
  };
  cluster.on('exit', (worker, code, signal) => {
    if (stopping) return;
    if (code === EX_CONFIG) {
      // The worker refused its configuration (a file it names is unreadable): another would too.
      logger.error('worker_refused_configuration', { pid: worker.process.pid });
      logger.flush?.();
      process.exit(EX_CONFIG);
    }
    logger.error('worker_died', { pid: worker.process.pid, code, signal, replacing: true });
    setTimeout(() => {
      if (!stopping) logger.info('worker_replaced', { pid: fork().process.pid });
    }, RESPAWN_DELAY_MS).unref();
  });
  const workers = workerCount(config);
  if (config.ipInfo.database === null) await prepareBundledIpData(config.server.dataDir, logger);
  const cores = availableParallelism();
  const execArgv = workerExecArgv(process.execArgv, {
    singleThreadedGc: config.server.singleThreadedGc,
    workers,
    cores,
  });
  cluster.setupPrimary({ execArgv });
  for (let i = 0; i < workers; i++) fork();
  logger.info('primary', {
    pid: process.pid,
    workers,
    ledgers: stores ? 'primary' : 'redis',
    gc: execArgv.includes('--single-threaded-gc') ? 'single-threaded' : 'parallel',
    gcHelpers: helperPoolSize(workers, cores),
  });

  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    logger.info('shutdown', { signal, workers: Object.keys(cluster.workers ?? {}).length });
    // Each worker stops accepting, finishes what it has in flight and exits (main.ts).
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill(signal);
    const check = setInterval(() => {
      if (Object.keys(cluster.workers ?? {}).length > 0) return;
      clearInterval(check);
      logger.info('stopped', {});
      logger.flush?.();
      process.exit(0);
    }, 50);
    setTimeout(() => {
      logger.error('shutdown_forced', { afterMs: shutdownGraceMs });
      logger.flush?.();
      process.exit(1);
    }, shutdownGraceMs + 1_000).unref();
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

/**
 * Builds the bundled IP data's file before the workers start, when it is missing (a first start): each
 * worker would otherwise run a builder of its own at the same time, about 40 MB and a second of CPU
 * apiece. A failure is logged and left to the workers, which try again and say why on their own.
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
