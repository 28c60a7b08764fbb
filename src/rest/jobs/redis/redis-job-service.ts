/**
 * Jobs with `store.redisUrl` (docs/contract/jobs.md "Durable"): every instance takes items from one BullMQ
 * queue on the shared Redis, and any instance answers for any job. Items are handed to the queue a few at
 * a time, in turn by key and then by job (NEXT_ITEM, ./redis-job-scripts.ts), rather than all at
 * submission: BullMQ's queue is first come first served, and a turn order kept beside it is what makes
 * keys take turns. An item whose instance died is taken again by another once its lock lapses (BullMQ's
 * stalled-job check, at most once more: `maxStalledCount` 1); an outcome is written once (HSETNX), so an
 * item run twice counts once. Items run on the queue worker's own concurrency (`jobs.concurrency` per
 * process), never on interactive admission's slots.
 */
import { Queue, Worker, type Job as QueueJob } from 'bullmq';
import { Redis } from 'ioredis';
import type { KeyIdentity } from '../../../platform/keys.js';
import type { Services } from '../../../services.js';
import { costOf } from '../../../graphql/pricing.js';
import type { NetdiagYoga } from '../../../graphql-server/yoga.js';
import { restRoutes } from '../../routes.js';
import { deliverCallback } from '../callback.js';
import { isActive, type ItemOutcome, type JobRecord, type SubmittedTarget } from '../job-record.js';
import type { JobService, SubmitOutcome } from '../job-service.js';
import { jobView } from '../job-view.js';
import { newJobRecord } from '../new-job.js';
import { runItem } from '../run-item.js';
import type { Submission } from '../submission.js';
import {
  BULL_PREFIX,
  byKeyKey,
  ITEM_QUEUE,
  JOBS_PREFIX,
  jobKey,
  resultsKey,
  RUNNING,
  skippedKey,
  targetsKey,
  TURNS,
} from './redis-job-keys.js';
import { CANCEL_JOB, ENQUEUE_JOB, FINISH_ITEM, NEXT_ITEM, SKIP_ITEM } from './redis-job-scripts.js';
import { oneAtATimePerKey } from '../one-at-a-time.js';

/** How often an instance tops up the queue when nothing else prompts it. */
const FEED_INTERVAL_MS = 200;
/** results read from Redis per round trip */
const RESULTS_PAGE = 256;
/** jobs whose fixed fields and targets this process keeps at hand while it runs their items */
const CACHED_JOBS = 32;

interface ItemData {
  readonly id: string;
  readonly index: number;
}

interface JobsRedis extends Redis {
  nextItem(turns: string, prefix: string, at: string): Promise<[string, number] | null>;
  finishItem(job: string, results: string, index: number, line: string, failed: string, at: string): Promise<number>;
  skipItem(job: string, skipped: string, index: number, at: string): Promise<number>;
  cancelJob(job: string, at: string): Promise<[number, number]>;
  enqueueJob(turns: string, keyJobs: string, keyId: string, id: string): Promise<number>;
}

/**
 * A connection of the job queue's own: BullMQ's blocking commands need ioredis to retry without limit (its
 * documented requirement). ioredis reports every failed reconnect as an 'error' event, which with no
 * listener it prints as an unhandled error; the first of an outage is logged, and once it is back, again.
 */
function jobsConnection(url: string, logger: Services['logger']): Redis {
  const client = new Redis(url, { maxRetriesPerRequest: null });
  let reported = false;
  client.on('error', (e: Error) => {
    if (reported) return;
    reported = true;
    logger.warn('job_queue_redis_unreachable', { message: e.message });
  });
  client.on('ready', () => {
    reported = false;
  });
  return client;
}

function connect(url: string, logger: Services['logger']): JobsRedis {
  const client = jobsConnection(url, logger) as JobsRedis;
  client.defineCommand('nextItem', { numberOfKeys: 1, lua: NEXT_ITEM });
  client.defineCommand('finishItem', { numberOfKeys: 2, lua: FINISH_ITEM });
  client.defineCommand('skipItem', { numberOfKeys: 2, lua: SKIP_ITEM });
  client.defineCommand('cancelJob', { numberOfKeys: 1, lua: CANCEL_JOB });
  client.defineCommand('enqueueJob', { numberOfKeys: 2, lua: ENQUEUE_JOB });
  return client;
}

function recordOf(hash: Record<string, string>): JobRecord | null {
  if (!hash.rec) return null;
  const fixed = JSON.parse(hash.rec) as JobRecord;
  return {
    ...fixed,
    status: hash.status as JobRecord['status'],
    startedAt: hash.startedAt || null,
    finishedAt: hash.finishedAt || null,
    done: Number(hash.done),
    failed: Number(hash.failed),
    cancelled: Number(hash.cancelled),
    refunded: Number(hash.refunded),
    callback: hash.callback ? JSON.parse(hash.callback) : null,
  };
}

export function createRedisJobService(yoga: NetdiagYoga, services: Services, redisUrl: string): JobService {
  const { config, logger, quota } = services;
  const now = () => new Date(services.now()).toISOString();
  const redis = connect(redisUrl, logger);
  const queue = new Queue<ItemData>(ITEM_QUEUE, {
    connection: jobsConnection(redisUrl, logger),
    prefix: BULL_PREFIX,
    defaultJobOptions: { removeOnComplete: true, removeOnFail: true },
  });
  // The queue passes on its connection's errors, which that connection's own listener reports
  // (jobsConnection); without a listener here BullMQ prints them.
  queue.on('error', () => undefined);
  const stopping = new AbortController();
  const cached = new Map<string, { record: JobRecord; targets: SubmittedTarget[] }>();
  let itemsFinished = 0;
  const retentionMs = Math.round(config.jobs.retentionHours * 3_600_000);

  async function read(id: string): Promise<JobRecord | null> {
    if (!/^[a-z0-9_-]{1,64}$/i.test(id)) return null;
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

  /** The job has ended: keep it `jobs.retentionHours`, and send its callback. */
  async function ended(id: string): Promise<void> {
    cached.delete(id);
    await redis
      .multi()
      .srem(RUNNING, id)
      .pexpire(jobKey(id), retentionMs)
      .pexpire(targetsKey(id), retentionMs)
      .pexpire(resultsKey(id), retentionMs)
      .pexpire(skippedKey(id), retentionMs)
      .exec();
    const record = await read(id);
    if (!record?.callbackUrl || !record.callbackSecret || record.callback?.status !== 'pending') return;
    await deliverCallback(
      services,
      {
        url: record.callbackUrl,
        secret: record.callbackSecret,
        body: JSON.stringify(jobView(record, 0)),
        backoffMs: config.jobs.callbackBackoffMs,
        signal: stopping.signal,
      },
      async (state) => {
        await redis.hset(jobKey(id), 'callback', JSON.stringify(state));
      },
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
    const route = restRoutes.get(job.record.tool)!;
    const target = job.targets[index]!;
    const result = await runItem(yoga, services, route, {
      params: job.record.params,
      target,
      auth: { ok: true, identity: { id: job.record.keyId, kind: job.record.keyKind } },
      signal: stopping.signal,
    }).catch((e: unknown) => {
      logger.error('job_item_failed', { jobId: id, index, message: (e as Error).message });
      return { ok: false, status: 500, error: 'internal error', refund: false } as const;
    });
    if (result.refund) await refund(job.record, 1);
    const outcome: ItemOutcome = result.ok
      ? { index, target, ok: true, status: result.status, data: result.data }
      : { index, target, ok: false, status: result.status, error: result.error! };
    const line = JSON.stringify(outcome);
    const finished = await redis.finishItem(jobKey(id), resultsKey(id), index, line, result.ok ? '0' : '1', now());
    itemsFinished++;
    if (finished === 1) await ended(id);
  }

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
      connection: jobsConnection(redisUrl, logger),
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
        waiting++;
      }
    } catch (e) {
      logger.error('job_feed_failed', { message: (e as Error).message });
    } finally {
      feeding = false;
    }
  }
  const feedTimer = setInterval(() => void feed(), FEED_INTERVAL_MS);
  feedTimer.unref();

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

  async function listByKey(keyId: string): Promise<JobRecord[]> {
    const ids = await redis.zrevrange(byKeyKey(keyId), 0, -1);
    const records = await Promise.all(ids.map((id) => read(id)));
    const gone = ids.filter((_, i) => records[i] === null);
    if (gone.length > 0) await redis.zrem(byKeyKey(keyId), ...gone);
    return records.filter((r): r is JobRecord => r !== null);
  }

  /** one submission per key at a time in this process (across instances the limit may be passed by one) */
  const inTurn = oneAtATimePerKey();

  async function submitNow(identity: KeyIdentity, submission: Submission): Promise<SubmitOutcome> {
    const active = (await listByKey(identity.id)).filter((j) => isActive(j.status)).length;
    if (active >= config.jobs.maxActivePerKey) return { ok: false, reason: 'active-limit', active };
    const itemCost = costOf(config, submission.route.tool);
    const price = itemCost * submission.targets.length;
    const charge = await quota.charge(identity.id, price);
    if (!charge.allowed) return { ok: false, reason: 'credits', charge, price };
    const record = newJobRecord(identity, submission, { itemCost, chargeId: charge.chargeId }, services.now());
    const { status, startedAt, finishedAt, done, failed, cancelled, refunded, callback, ...fixed } = record;
    try {
      await redis
        .multi()
        .set(targetsKey(record.id), JSON.stringify(submission.targets))
        .hset(jobKey(record.id), {
          rec: JSON.stringify(fixed),
          status,
          startedAt: startedAt ?? '',
          finishedAt: finishedAt ?? '',
          done,
          failed,
          cancelled,
          refunded,
          callback: callback === null ? '' : JSON.stringify(callback),
          next: 0,
          limit: record.total,
          total: record.total,
        })
        .zadd(byKeyKey(identity.id), services.now(), record.id)
        .sadd(RUNNING, record.id)
        .exec();
      await redis.enqueueJob(TURNS, `${JOBS_PREFIX}turns:${identity.id}`, identity.id, record.id);
    } catch (e) {
      if (charge.chargeId) await quota.refund(identity.id, charge.chargeId, price).catch(() => undefined);
      throw e;
    }
    services.metrics.creditsCharged(record.tool, price);
    void feed();
    return { ok: true, job: record, charge };
  }

  return {
    submit: (identity, submission) => inTurn(identity.id, () => submitNow(identity, submission)),
    async get(id, keyId) {
      const record = await read(id);
      if (!record || record.keyId !== keyId) return null;
      let etaSeconds: number | null = null;
      if (record.startedAt && record.done > 0 && record.finishedAt === null) {
        const perItemMs = (services.now() - Date.parse(record.startedAt)) / record.done;
        etaSeconds = Math.ceil(((record.total - record.done - record.cancelled) * perItemMs) / 1000);
      }
      return { record, etaSeconds };
    },
    list: listByKey,
    async cancel(id, keyId) {
      const record = await read(id);
      if (!record || record.keyId !== keyId) return null;
      const [never, endedNow] = await redis.cancelJob(jobKey(id), now());
      if (never > 0) await refund(record, never);
      if (endedNow === 1) await ended(id);
      return read(id);
    },
    async *results(record, after) {
      // An ended job lists every written outcome; a running one stops at the first item not yet written,
      // so that `?after=N` never passes over an item that finishes later.
      const ended = record.finishedAt !== null;
      for (let from = after + 1; from < record.total; from += RESULTS_PAGE) {
        const indexes = Array.from({ length: Math.min(RESULTS_PAGE, record.total - from) }, (_, i) => from + i);
        const lines = await redis.hmget(resultsKey(record.id), ...indexes.map(String));
        for (const line of lines) {
          if (line !== null) yield line;
          else if (!ended) return;
        }
      }
    },
    async stats() {
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
    stop() {
      clearInterval(feedTimer);
      clearInterval(sweepTimer);
      stopping.abort(new DOMException('the service is stopping', 'AbortError'));
      void worker
        .close(true)
        .then(() => queue.close())
        .then(() => redis.quit())
        .catch(() => undefined);
    },
  };
}
