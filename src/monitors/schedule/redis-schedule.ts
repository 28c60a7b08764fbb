/**
 * The monitors' schedule on Redis (docs/contract/monitors.md "Behaviour": schedules live in Redis, in the
 * queue library's own scheduled jobs, and each due run runs once across all instances). Each monitor is a
 * BullMQ job scheduler (`upsertJobScheduler`, id: the monitor's id) that puts one job in a queue every
 * instance shares for each due time; a Worker hands each job to one instance, renews its lock while it
 * runs and hands it to another instance when its own died (the lock ran out), and retries a run that threw.
 *
 * The due time of a job is the time BullMQ scheduled it for, which it writes into the job's id
 * (`repeat:<scheduler id>:<due time in ms>`, BullMQ's `getSchedulerNextJobId`): every instance reads the
 * same due time from the same job, and so the store's run id (`runIdOf`) of a job handed out twice (its
 * instance died mid-run) is the same, and the store's `beginRun` recognises it. BullMQ's `every` counts
 * from the first due time (`max(startDate, now)`), one due time after another; due times missed while no
 * instance ran are not made up, the next one is on the same grid.
 *
 * This module, and with it BullMQ, is imported when a schedule is first used
 * (../runtime/create-monitor-backend.ts), as the jobs' runner is (src/jobs/jobs-module.ts), so an instance
 * without Redis never loads it. Its imports are static: the bundle (dist/) gives a CommonJS package's
 * module object as the default export of a dynamic import, not its named exports.
 */
import { type Job, Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import type { Logger } from '../../log.js';
import { MONITOR_BULL_PREFIX, MONITOR_RUN_QUEUE } from '../store/redis-monitor-keys.js';
import type { DueRun, MonitorSchedule } from './monitor-schedule.js';

export interface RedisScheduleOptions {
  /** `store.redisUrl`: BullMQ opens connections of its own (its blocking commands need unlimited retries) */
  readonly redisUrl: string;
  /** BullMQ's key prefix (`netdiag:bull` by default, beside the jobs' queue) */
  readonly prefix?: string;
  /** the queue's name (`netdiag-monitor-runs` by default) */
  readonly queueName?: string;
  /** tries of a due run that throws, in all (5 by default) */
  readonly attempts?: number;
  /** the wait before the first retry, doubled for each next one (1 s by default) */
  readonly retryDelayMs?: number;
  /**
   * how long a run's lock holds without renewal (BullMQ renews it at half): the time after which a run
   * whose instance died is handed to another (30 s by default, BullMQ's)
   */
  readonly lockDurationMs?: number;
  readonly logger?: Logger;
}

export interface RedisMonitorSchedule extends MonitorSchedule {
  /** `stop`, then closes the queue and its connections */
  close(): Promise<void>;
}

interface RunData {
  readonly monitorId: string;
}

const JOB_NAME = 'monitor-run';
const DEFAULT_ATTEMPTS = 5;
const DEFAULT_RETRY_DELAY_MS = 1_000;

/** The due run a scheduler's job stands for, or null for a job that is not a monitor's due time. */
export function dueRunOf(job: Pick<Job<RunData>, 'id' | 'data'>): DueRun | null {
  const match = /^repeat:(.+):([0-9]{1,15})$/.exec(job.id ?? '');
  if (!match || match[1] !== job.data.monitorId) return null;
  return { monitorId: job.data.monitorId, dueAt: Number(match[2]) };
}

/** BullMQ's blocking commands need ioredis to retry without limit (its documented requirement). */
function connect(url: string): Redis {
  const client = new Redis(url, { maxRetriesPerRequest: null });
  // the store's connection reports Redis being down; one line per outage here would repeat it
  client.on('error', () => undefined);
  return client;
}

/** Redis away: the store's connection logs that once per outage (src/platform/redis.ts); BullMQ would on each retry. */
const UNREACHABLE = /ECONNREFUSED|ECONNRESET|ETIMEDOUT|EHOSTUNREACH|ENOTFOUND|EAI_AGAIN|Connection is closed/;

export async function createRedisSchedule(options: RedisScheduleOptions): Promise<RedisMonitorSchedule> {
  const prefix = options.prefix ?? MONITOR_BULL_PREFIX;
  const name = options.queueName ?? MONITOR_RUN_QUEUE;
  const { logger } = options;
  const jobOptions = {
    attempts: options.attempts ?? DEFAULT_ATTEMPTS,
    backoff: { type: 'exponential', delay: options.retryDelayMs ?? DEFAULT_RETRY_DELAY_MS },
    removeOnComplete: true,
    removeOnFail: true,
  };
  const queueConnection = connect(options.redisUrl);
  const queue: Queue<RunData> = new Queue<RunData>(name, { connection: queueConnection, prefix });
  const reportError = (e: Error) => {
    if (!UNREACHABLE.test(e.message)) logger?.warn('monitor_schedule_error', { message: e.message });
  };
  queue.on('error', reportError);
  let worker: Worker<RunData> | null = null;
  let workerConnection: Redis | null = null;

  async function stop(): Promise<void> {
    const stopping = worker;
    worker = null;
    if (!stopping) return;
    // waits for the runs handed out to settle; no new one is taken meanwhile. Without a connection to
    // Redis, BullMQ would wait for one to close: it is closed at once (a run it held is handed out again
    // once its lock ran out, and the store resumes it)
    await stopping.close(workerConnection?.status !== 'ready').catch(() => undefined);
    workerConnection?.disconnect();
    workerConnection = null;
  }

  async function remove(monitorId: string): Promise<void> {
    const scheduler = await queue.getJobScheduler(monitorId);
    await queue.removeJobScheduler(monitorId);
    // BullMQ removes the next due time while it waits for its time; one already due and waiting for a
    // worker is removed here (one a worker holds is not: `start`'s check drops it)
    if (scheduler?.next !== undefined) await queue.remove(`repeat:${monitorId}:${scheduler.next}`);
  }

  return {
    async upsert(monitorId, everyMs, firstDueAt) {
      // BullMQ keeps a scheduler's next due time when it is upserted with the same `every`: a run asked
      // for now (or a new first due time) replaces the scheduler instead
      const scheduler = await queue.getJobScheduler(monitorId);
      if (scheduler && scheduler.next !== firstDueAt) await remove(monitorId);
      await queue.upsertJobScheduler(
        monitorId,
        { every: everyMs, startDate: new Date(firstDueAt) },
        { name: JOB_NAME, data: { monitorId }, opts: jobOptions },
      );
    },

    remove,

    async start(run, concurrency) {
      if (worker) throw new Error('the monitors schedule is started already');
      workerConnection = connect(options.redisUrl);
      worker = new Worker<RunData>(
        name,
        async (job) => {
          const due = dueRunOf(job);
          if (!due) return;
          // a due time taken after its monitor's schedule was removed is dropped (`remove` resolved before)
          if (!(await queue.getJobScheduler(due.monitorId))) return;
          await run(due);
        },
        {
          connection: workerConnection,
          prefix,
          concurrency,
          // a lock that ran out is looked for as often as it lasts
          ...(options.lockDurationMs
            ? { lockDuration: options.lockDurationMs, stalledInterval: options.lockDurationMs }
            : {}),
        },
      );
      worker.on('error', reportError);
      worker.on('failed', (job, e) =>
        logger?.warn('monitor_run_failed', {
          monitorId: job?.data.monitorId,
          attempt: job?.attemptsMade,
          message: e.message,
        }),
      );
      await worker.waitUntilReady();
    },

    stop,

    async close() {
      await stop();
      await queue.close().catch(() => undefined);
      queueConnection.disconnect();
    },
  };
}
