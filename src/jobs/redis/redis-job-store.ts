/**
 * The API side of jobs on Redis (docs/jobs.md "Durability", with `store.redisUrl`): creating, reading,
 * listing, cancelling and reading results, on a connection of the instance's kind (src/platform/redis.ts:
 * no offline queue, a deadline on every command), so that a Redis that is down makes these requests fail
 * at once (a 503) instead of waiting for it. Items are run by the runners (./redis-runner.ts).
 */
import type { Redis } from 'ioredis';
import type { Logger } from '../../log.js';
import { connectRedis, type RedisConnection } from '../../platform/redis.js';
import { isJobId, type JobRecord } from '../job-record.js';
import type { CreateOutcome, JobPageOfRecords, JobStore } from '../job-store.js';
import {
  activeKey,
  byKeyKey,
  jobKey,
  keyTurnsKey,
  resultsKey,
  RUNNING,
  skippedKey,
  targetsKey,
  TURNS,
} from './redis-job-keys.js';
import { CANCEL_JOB, CREATE_JOB } from './redis-job-scripts.js';

/** results read from Redis per round trip */
const RESULTS_PAGE = 256;

interface StoreScripts extends Redis {
  createJob(...args: (string | number)[]): Promise<[number, number]>;
  cancelJob(job: string, at: string): Promise<[number, number]>;
}

/** The record of a job hash (HGETALL), or null for a job that is not there (never was, or expired). */
export function recordOf(hash: Record<string, string>): JobRecord | null {
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

/** The hash a new job starts as. */
function hashOf(record: JobRecord): Record<string, string | number> {
  const { status, startedAt, finishedAt, done, failed, cancelled, refunded, callback, ...fixed } = record;
  return {
    rec: JSON.stringify(fixed),
    id: record.id,
    keyId: record.keyId,
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
  };
}

/** Keeps an ended job `retentionMs`, and takes it off the running set. */
export async function expireEnded(client: Redis, id: string, retentionMs: number): Promise<void> {
  await client
    .multi()
    .srem(RUNNING, id)
    .pexpire(jobKey(id), retentionMs)
    .pexpire(targetsKey(id), retentionMs)
    .pexpire(resultsKey(id), retentionMs)
    .pexpire(skippedKey(id), retentionMs)
    .exec();
}

export interface RedisStoreHooks {
  /** gives back `items` × the item price (items a cancellation kept from being handed out) */
  refund(record: JobRecord, items: number): Promise<void>;
  /** a cancellation ended the job here (nothing was running): its followers and its callback are due */
  ended(record: JobRecord, setCallback: (state: JobRecord['callback']) => Promise<void>): void;
}

export function createRedisJobStore(
  redisUrl: string,
  options: { logger: Logger; retentionMs: number; now: () => number; hooks: RedisStoreHooks },
): JobStore {
  const connecting: Promise<RedisConnection> = connectRedis(redisUrl, { logger: options.logger }).then((c) => {
    c.client.defineCommand('createJob', { numberOfKeys: 7, lua: CREATE_JOB });
    c.client.defineCommand('cancelJob', { numberOfKeys: 1, lua: CANCEL_JOB });
    return c;
  });
  /** the commands under the connection's deadline; a failure is the store's 503 */
  async function run<T>(purpose: string, commands: (client: StoreScripts) => Promise<T>): Promise<T> {
    const connection = await connecting;
    try {
      return await connection.run((client) => commands(client as StoreScripts));
    } catch (e) {
      throw connection.unavailable(purpose, e);
    }
  }
  const at = () => new Date(options.now()).toISOString();

  async function read(id: string): Promise<JobRecord | null> {
    if (!isJobId(id)) return null;
    return recordOf(await run('the job store', (c) => c.hgetall(jobKey(id))));
  }

  return {
    async create(record, targets, maxActive): Promise<CreateOutcome> {
      const fields = Object.entries(hashOf(record)).flat();
      const [created, active] = await run('the job store', (c) =>
        c.createJob(
          activeKey(record.keyId),
          jobKey(record.id),
          targetsKey(record.id),
          byKeyKey(record.keyId),
          RUNNING,
          TURNS,
          keyTurnsKey(record.keyId),
          maxActive,
          record.id,
          record.keyId,
          JSON.stringify(targets),
          ...fields,
        ),
      );
      return created === 1 ? { ok: true } : { ok: false, active };
    },
    activeCount: (keyId) => run('the job store', (c) => c.scard(activeKey(keyId))),
    read,
    async page(keyId, limit, cursor): Promise<JobPageOfRecords> {
      const records: JobRecord[] = [];
      let from = cursor === null ? '+' : `(${cursor}`;
      // ids whose job has expired are dropped from the key's set as they are met, and the page read on
      for (let round = 0; round < 4 && records.length <= limit; round++) {
        const want = limit + 1 - records.length;
        const ids = await run('the job store', (c) =>
          c.zrange(byKeyKey(keyId), from, '-', 'BYLEX', 'REV', 'LIMIT', 0, want),
        );
        if (ids.length === 0) break;
        const hashes = await run('the job store', (c) => {
          const batch = c.multi();
          for (const id of ids) batch.hgetall(jobKey(id));
          return batch.exec();
        });
        const gone: string[] = [];
        ids.forEach((id, i) => {
          const record = recordOf((hashes?.[i]?.[1] ?? {}) as Record<string, string>);
          if (record) records.push(record);
          else gone.push(id);
        });
        if (gone.length > 0) await run('the job store', (c) => c.zrem(byKeyKey(keyId), ...gone));
        from = `(${ids[ids.length - 1]}`;
        if (ids.length < want) break;
      }
      const page = records.slice(0, limit);
      return { records: page, nextCursor: records.length > limit ? page[page.length - 1]!.id : null };
    },
    async *results(record, after) {
      // An ended job lists every written outcome; a running one stops at the first item not yet written,
      // so that `?after=N` never passes over an item that finishes later.
      const ended = record.finishedAt !== null;
      for (let from = after + 1; from < record.total; from += RESULTS_PAGE) {
        const indexes = Array.from({ length: Math.min(RESULTS_PAGE, record.total - from) }, (_, i) => String(from + i));
        const lines = await run('the job store', (c) => c.hmget(resultsKey(record.id), ...indexes));
        for (const line of lines) {
          if (line !== null) yield line;
          else if (!ended) return;
        }
      }
    },
    async cancel(record) {
      const [never, endedNow] = await run('the job store', (c) => c.cancelJob(jobKey(record.id), at()));
      if (never > 0) {
        await run('the job store', (c) => c.hincrby(jobKey(record.id), 'refunded', never * record.itemCost));
        await options.hooks.refund(record, never);
      }
      const fresh = (await read(record.id)) ?? record;
      if (endedNow === 1) {
        await run('the job store', (c) => expireEnded(c, record.id, options.retentionMs));
        options.hooks.ended(fresh, async (state) => {
          await run('the job store', (c) => c.hset(jobKey(record.id), 'callback', JSON.stringify(state)));
        });
      }
      return fresh;
    },
    async close() {
      await (await connecting).close();
    },
  };
}
