/**
 * The runner of jobs on Redis (docs/jobs.md "Where items run", with `store.redisUrl`), in every instance
 * whose role includes jobs (`server.role`): its items come from one BullMQ queue every instance shares.
 * Items are handed to the queue a few at a time, in turn by key and then by job (NEXT_ITEM,
 * ./redis-job-scripts.ts), rather than all at submission: BullMQ's queue is first come first served, and
 * a turn order kept beside it is what makes keys take turns. The queue is topped up when a submission is
 * published (./redis-job-bus.ts) and after every item; BullMQ hands each item to one worker, renews its
 * lock while it runs and gives it to another worker once (`jobs.staleAfterMs`) when its instance died.
 * An outcome is written once (FINISH_ITEM), so an item run twice is counted and listed once.
 */
import { Queue, Worker, type Job as QueueJob } from 'bullmq';
import { Redis } from 'ioredis';
import type { Services } from '../../services.js';
import { sendJobCallback } from '../job-callback.js';
import type { JobRecord } from '../job-record.js';
import type { RunnerJobBus } from '../job-bus.js';
import type { ItemOutcome, SubmittedTarget } from '../job-shape.js';
import { throttledChanges, type JobRunner, type JobStats } from '../job-runner.js';
import { itemValues, type ItemResult, type JobTools } from '../job-tools.js';
import {
  BULL_PREFIX,
  ITEM_QUEUE,
  JOBS_PREFIX,
  jobKey,
  resultsKey,
  RUNNING,
  skippedKey,
  targetsKey,
  TURNS,
} from './redis-job-keys.js';
import { FINISH_ITEM, NEXT_ITEM, SKIP_ITEM } from './redis-job-scripts.js';
import { expireEnded, recordOf } from './redis-job-store.js';

/** How often the runner tops up the queue when nothing else prompts it (a submission whose push was lost). */
const FEED_INTERVAL_MS = 1_000;
/** jobs whose fixed fields and targets this process keeps at hand while it runs their items */
const CACHED_JOBS = 32;

interface ItemData {
  readonly id: string;
  readonly index: number;
}

interface RunnerScripts extends Redis {
  nextItem(turns: string, prefix: string, at: string): Promise<[string, number] | null>;
  finishItem(
    job: string,
    results: string,
    index: number,
    line: string,
    failed: string,
    at: string,
  ): Promise<[number, number]>;
  skipItem(job: string, skipped: string, index: number, at: string): Promise<number>;
}

function connect(url: string): RunnerScripts {
  // BullMQ's blocking commands need ioredis to retry without limit (its documented requirement)
  const client = new Redis(url, { maxRetriesPerRequest: null }) as RunnerScripts;
  client.defineCommand('nextItem', { numberOfKeys: 1, lua: NEXT_ITEM });
  client.defineCommand('finishItem', { numberOfKeys: 2, lua: FINISH_ITEM });
  client.defineCommand('skipItem', { numberOfKeys: 2, lua: SKIP_ITEM });
  return client;
}

export function startRedisRunner(options: {
  redisUrl: string;
  tools: JobTools;
  services: Services;
  bus: RunnerJobBus;
}): JobRunner {
  const { redisUrl, tools, services, bus } = options;
  const { config, logger, quota } = services;
  const now = () => new Date(services.now()).toISOString();
  const redis = connect(redisUrl);
  redis.on('error', () => undefined); // the API side's connection reports Redis being down
  const queueConnection = new Redis(redisUrl, { maxRetriesPerRequest: null });
  queueConnection.on('error', () => undefined);
  const queue = new Queue<ItemData>(ITEM_QUEUE, {
    connection: queueConnection,
    prefix: BULL_PREFIX,
    defaultJobOptions: { removeOnComplete: true, removeOnFail: true },
  });
  queue.on('error', () => undefined);
  const stopping = new AbortController();
  const cached = new Map<string, { record: JobRecord; targets: SubmittedTarget[] }>();
  let itemsFinished = 0;
  const retentionMs = Math.round(config.jobs.retentionHours * 3_600_000);
  const pushes = throttledChanges((id, ended) => bus.changed({ id, ended }));

  async function read(id: string): Promise<JobRecord | null> {
    return recordOf(await redis.hgetall(jobKey(id)));
  }

  async function fixedJob(id: string): Promise<{ record: JobRecord; targets: SubmittedTarget[] } | null> {
    const hit = cached.get(id);
    if (hit) return hit;
    const [record, targets] = await Promise.all([read(id), redis.get(targetsKey(id))]);
    if (!record || targets === null) return null;
    const entry = { record, targets: JSON.parse(targets) as SubmittedTarget[] };
    if (cached.size >= CACHED_JOBS) cached.delete(cached.keys().next().value!);
    cached.set(id, entry);
    return entry;
  }

  async function refund(record: JobRecord, items: number): Promise<void> {
    const credits = items * record.itemCost;
    if (credits === 0 || record.chargeId === null) return;
    await redis.hincrby(jobKey(record.id), 'refunded', credits);
    try {
      await quota.refund(record.keyId, record.chargeId, credits);
    } catch (e) {
      logger.error('job_refund_failed', { jobId: record.id, credits, message: (e as Error).message });
    }
  }

  /** The job has ended: keep it `jobs.retentionHours`, tell its followers, and send its callback. */
  async function ended(id: string): Promise<void> {
    cached.delete(id);
    await expireEnded(redis, id, retentionMs);
    pushes.changed(id, true);
    const record = await read(id);
    if (!record) return;
    await sendJobCallback(
      services,
      record,
      async (state) => void (await redis.hset(jobKey(id), 'callback', JSON.stringify(state))),
      stopping.signal,
    );
  }

  async function runQueued(item: QueueJob<ItemData>): Promise<void> {
    const { id, index } = item.data;
    const job = await fixedJob(id);
    if (!job) return; // expired or removed meanwhile
    const status = await redis.hget(jobKey(id), 'status');
    if (status === 'cancelled') {
      // handed to the queue before the cancellation and still waiting: it never starts
      await refund(job.record, 1);
      if ((await redis.skipItem(jobKey(id), skippedKey(id), index, now())) === 1) await ended(id);
      return;
    }
    const tool = tools.get(job.record.tool);
    const target = job.targets[index]!;
    const identity = { id: job.record.keyId, kind: job.record.keyKind };
    const result: ItemResult = tool
      ? await tool
          .run(itemValues(job.record, target, tool.mainParameter), identity, stopping.signal)
          .catch((e: unknown) => {
            logger.error('job_item_failed', { jobId: id, index, message: (e as Error).message });
            return { ok: false, status: 500, error: 'internal error', refund: false };
          })
      : { ok: false, status: 500, error: `the tool ${job.record.tool} is not offered here`, refund: true };
    const outcome: ItemOutcome = result.ok
      ? { index, target, ok: true, status: result.status, data: result.data }
      : { index, target, ok: false, status: result.status, error: result.error! };
    const [written, endedNow] = await redis.finishItem(
      jobKey(id),
      resultsKey(id),
      index,
      JSON.stringify(outcome),
      result.ok ? '0' : '1',
      now(),
    );
    // after the outcome is written once, never before: an item run again after a crash is not refunded twice
    if (result.refund && written === 1) await refund(job.record, 1);
    itemsFinished++;
    if (endedNow === 1) await ended(id);
    else pushes.changed(id, false);
  }

  const workerConnection = new Redis(redisUrl, { maxRetriesPerRequest: null });
  workerConnection.on('error', () => undefined); // the worker's own 'error' event below logs its failures
  const worker = new Worker<ItemData>(
    ITEM_QUEUE,
    async (item) => {
      try {
        await runQueued(item);
      } finally {
        void feed();
      }
    },
    {
      connection: workerConnection,
      prefix: BULL_PREFIX,
      concurrency: config.jobs.concurrency,
      lockDuration: config.jobs.staleAfterMs,
      stalledInterval: config.jobs.staleAfterMs,
      maxStalledCount: 1,
    },
  );
  worker.on('error', (e) => logger.error('job_queue_error', { message: e.message }));

  /** Tops the queue up to a few items per slot of this process, taking items in turn (NEXT_ITEM). */
  let feeding = false;
  async function feed(): Promise<void> {
    if (feeding || stopping.signal.aborted) return;
    feeding = true;
    try {
      let waiting = await queue.getWaitingCount();
      while (waiting < config.jobs.concurrency * 2) {
        const next = await redis.nextItem(TURNS, JOBS_PREFIX, now());
        if (!next) break;
        const [id, index] = next;
        await queue.add('item', { id, index: Number(index) }, { jobId: `${id}-${index}` });
        pushes.changed(id, false);
        waiting++;
      }
    } catch (e) {
      logger.error('job_feed_failed', { message: (e as Error).message });
    } finally {
      feeding = false;
    }
  }
  bus.onSubmitted(() => void feed());
  const feedTimer = setInterval(() => void feed(), FEED_INTERVAL_MS);
  feedTimer.unref();
  void feed();

  /**
   * Puts back items that were handed out but never reached the queue: an instance that died between
   * taking an item in turn and adding it to the queue. An item is lost when it has no outcome, was not
   * skipped, and the queue holds no entry for it (a running item keeps its entry until it is written).
   */
  async function sweepLostItems(): Promise<void> {
    for (const id of await redis.smembers(RUNNING)) {
      const [next, limit, finishedAt] = await redis.hmget(jobKey(id), 'next', 'limit', 'finishedAt');
      if (next === null || finishedAt) {
        await redis.srem(RUNNING, id);
        continue;
      }
      if (Number(next) < Number(limit)) continue; // still being handed out: nothing can be lost yet
      const written = new Set([...(await redis.hkeys(resultsKey(id))), ...(await redis.smembers(skippedKey(id)))]);
      for (let index = 0; index < Number(next); index++) {
        if (written.has(String(index))) continue;
        const jobId = `${id}-${index}`;
        if (await queue.getJob(jobId)) continue;
        // Looked at again: the item may have been written since the outcomes were read.
        if ((await redis.hexists(resultsKey(id), String(index))) === 1) continue;
        logger.warn('job_item_lost', { jobId: id, index });
        await queue.add('item', { id, index }, { jobId });
      }
    }
  }
  const sweepTimer = setInterval(
    () => void sweepLostItems().catch((e) => logger.error('job_sweep_failed', { message: (e as Error).message })),
    Math.max(2 * config.jobs.staleAfterMs, 5_000),
  );
  sweepTimer.unref();

  return {
    async stats(): Promise<JobStats> {
      const ids = await redis.smembers(RUNNING);
      const jobs = await Promise.all(ids.map((id) => redis.hmget(jobKey(id), 'status', 'next', 'limit')));
      const counts = await queue.getJobCounts('waiting', 'prioritized');
      // items still in their job's turn, and those handed to the queue but not started
      const notHandedOut = jobs.reduce((sum, [, next, limit]) => sum + Math.max(0, Number(limit) - Number(next)), 0);
      return {
        jobs: {
          queued: jobs.filter(([status]) => status === 'queued').length,
          running: jobs.filter(([status]) => status === 'running').length,
        },
        itemsFinished,
        queueDepth: notHandedOut + (counts.waiting ?? 0) + (counts.prioritized ?? 0),
      };
    },
    async stop() {
      clearInterval(feedTimer);
      clearInterval(sweepTimer);
      pushes.stop();
      stopping.abort(new DOMException('the service is stopping', 'AbortError'));
      await worker
        .close(true)
        .then(() => queue.close())
        .then(() => redis.quit())
        .catch(() => undefined)
        // BullMQ leaves connections it was given open; a stopped runner holds none
        .finally(() => {
          queueConnection.disconnect();
          workerConnection.disconnect();
        });
    },
  };
}
