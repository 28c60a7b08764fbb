/**
 * The Redis layout of jobs (docs/contract/jobs.md "Durable", with `store.redisUrl`), shared by every instance:
 *   netdiag:jobs:job:<id>           hash: `rec` (the job's fixed fields, JSON), status, startedAt, finishedAt,
 *                                   done, failed, cancelled, refunded, callback (JSON), next (the next item
 *                                   to hand out), limit (items from here never start: cancelled)
 *   netdiag:jobs:job:<id>:targets   the targets as submitted (JSON)
 *   netdiag:jobs:job:<id>:results   hash: item index → its outcome line
 *   netdiag:jobs:job:<id>:skipped   set of items found waiting after a cancellation (never run)
 *   netdiag:jobs:running            set of jobs not yet ended, for the sweep of lost items
 *   netdiag:jobs:key:<keyId>        sorted set of the key's job ids by creation time
 *   netdiag:jobs:turns              list of keys with items to hand out, in turn order
 *   netdiag:jobs:turns:<keyId>      list of that key's jobs with items to hand out, in turn order
 * The scripts (./redis-job-scripts.ts) name the per-job keys themselves, so a Redis Cluster is not
 * supported for jobs (one Redis or a primary with replicas, as BullMQ itself assumes for one queue).
 */
export const JOBS_PREFIX = 'netdiag:jobs:';
/** the BullMQ queue every instance takes items from */
export const ITEM_QUEUE = 'netdiag-job-items';
export const BULL_PREFIX = 'netdiag:bull';

export const jobKey = (id: string) => `${JOBS_PREFIX}job:${id}`;
export const targetsKey = (id: string) => `${JOBS_PREFIX}job:${id}:targets`;
export const resultsKey = (id: string) => `${JOBS_PREFIX}job:${id}:results`;
export const skippedKey = (id: string) => `${JOBS_PREFIX}job:${id}:skipped`;
export const byKeyKey = (keyId: string) => `${JOBS_PREFIX}key:${keyId}`;
export const RUNNING = `${JOBS_PREFIX}running`;
export const TURNS = `${JOBS_PREFIX}turns`;
