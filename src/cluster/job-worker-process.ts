/**
 * The job worker process (docs/jobs.md "Where items run"), as the primary forks and keeps it: one per
 * instance whose role includes jobs, running every job item apart from the API workers, so that items never
 * share an event loop with interactive requests. It is a cluster worker like the API workers (the same
 * credit ledgers over IPC and the same /metrics collection) that takes no connection: src/main.ts sends it
 * to src/job-worker.ts, the job worker's own entry, so the primary never loads the schema.
 *
 * The primary relays the job bus (src/jobs/job-bus.ts): a submission or cancellation from an API worker
 * goes to the job worker, and each change the job worker reports goes to every API worker, whose event
 * streams follow it. The monitors' bus (src/monitors/runtime/monitor-bus.ts) is relayed the same way: a
 * new schedule to the job worker, a monitor's new events to every API worker. A message sent while no job worker runs is dropped: the next one reads the store when
 * it starts. A job worker that dies is replaced after a pause; one that exits before it was ever ready ends
 * the instance, as an API worker's would.
 */
import cluster, { type Worker } from 'node:cluster';
import type { Logger } from '../log.js';
import { isJobBusMessage, type JobBusMessage } from '../jobs/job-bus.js';
import { isMonitorBusMessage, type MonitorBusMessage } from '../monitors/runtime/monitor-bus.js';
import type { QuotaStore } from '../platform/quota.js';
import { LEDGERS_IN_PRIMARY_ENV, serveLedgers, type LedgerName } from './ledger-ipc.js';
import { isWorkerState } from './worker-messages.js';

/** Set in the job worker's environment: src/main.ts starts the job worker instead of an API worker. */
export const JOB_WORKER_ENV = 'NETDIAG_JOB_WORKER';

/** A job worker that dies after it was ready is replaced after this pause, never in a tight loop. */
const RESPAWN_DELAY_MS = 1_000;

export interface JobWorkerProcess {
  /** relays `worker`'s job messages (an API worker) to the job worker */
  relayFrom(worker: Worker): void;
  /** the job worker while it is ready (for /metrics), else nothing */
  ready(): readonly Worker[];
  /** true until the job worker has exited after `stop` */
  running(): boolean;
  /** asks the job worker to stop (SIGTERM): it takes no new item and exits */
  stop(): void;
}

export function startJobWorkerProcess(options: {
  /** the primary's ledgers (no Redis), served to the job worker as to the API workers */
  readonly ledgers: Readonly<Record<LedgerName, QuotaStore>> | null;
  /** the API workers to tell of job changes, at the time of each change */
  readonly apiWorkers: () => readonly Worker[];
  readonly logger: Logger;
  /** a job worker that exits before it was ever ready (its error is on stderr): the instance cannot run its jobs */
  readonly failed: (code: number | null, signal: string | null) => void;
}): JobWorkerProcess {
  const { logger } = options;
  let current: Worker | null = null;
  let isReady = false;
  let stopping = false;

  const fork = (): void => {
    const env: Record<string, string> = { [JOB_WORKER_ENV]: '1' };
    if (options.ledgers) env[LEDGERS_IN_PRIMARY_ENV] = '1';
    const worker = cluster.fork(env);
    current = worker;
    isReady = false;
    if (options.ledgers) serveLedgers(worker, options.ledgers);
    worker.on('message', (message: unknown) => {
      if (isWorkerState(message, 'ready')) {
        isReady = true;
        logger.info('job_worker_ready', { pid: worker.process.pid });
      } else if (isJobBusMessage(message) && message.netdiagJobs === 'changed') {
        for (const api of options.apiWorkers()) send(api, message);
      } else if (isMonitorBusMessage(message) && message.netdiagMonitors === 'events') {
        for (const api of options.apiWorkers()) send(api, message);
      }
    });
    worker.on('error', (e: Error) =>
      logger.warn('worker_channel_error', { pid: worker.process.pid, message: e.message }),
    );
    worker.on('exit', (code, signal) => {
      const wasReady = isReady;
      current = null;
      isReady = false;
      if (stopping) return;
      if (!wasReady) {
        options.failed(code, signal);
        return;
      }
      logger.error('job_worker_died', { pid: worker.process.pid, code, signal, replacing: true });
      setTimeout(() => {
        if (!stopping) fork();
      }, RESPAWN_DELAY_MS).unref();
    });
  };

  function send(worker: Worker, message: JobBusMessage | MonitorBusMessage): void {
    if (worker.isConnected()) worker.send(message, undefined, () => {});
  }

  fork();

  return {
    relayFrom(worker) {
      worker.on('message', (message: unknown) => {
        // a monitor's new schedule: the job worker's schedule looks at its earliest due time again
        if (isMonitorBusMessage(message) && message.netdiagMonitors === 'scheduled') {
          if (current) send(current, message);
          return;
        }
        if (!isJobBusMessage(message) || message.netdiagJobs === 'changed') return;
        // sent while it starts too: it keeps what arrives before its runner listens (src/jobs/job-bus.ts)
        if (current) send(current, message);
      });
    },
    ready: () => (current && isReady ? [current] : []),
    running: () => current !== null,
    stop() {
      stopping = true;
      current?.process.kill('SIGTERM');
    },
  };
}
