/**
 * The Redis layout of jobs (docs/jobs.md "Durability", with `store.redisUrl`), shared by every instance:
 *   netdiag:jobs:job:<id>           hash: `rec` (the job's fixed fields, JSON), keyId, status, startedAt,
 *                                   finishedAt, done, failed, cancelled, refunded, callback (JSON), total,
 *                                   next (the next item to hand out), limit (items from here never start)
 *   netdiag:jobs:job:<id>:targets   the targets as submitted (JSON)
 *   netdiag:jobs:job:<id>:results   hash: item index → its outcome line
 *   netdiag:jobs:job:<id>:skipped   set of items found waiting after a cancellation (never run)
 *   netdiag:jobs:active:<keyId>     set of the key's queued or running jobs: `jobs.maxActivePerKey` is checked
 *                                   against it in the script that creates a job, so instances submitting
 *                                   for one key at once cannot pass it together
 *   netdiag:jobs:running            set of jobs not yet ended, for the sweep of lost items
 *   netdiag:jobs:key:<keyId>        sorted set of the key's job ids, all of score 0: ordered by id, that is by
 *                                   creation time, and read a page at a time (ZRANGE … BYLEX REV)
 *   netdiag:jobs:turns              list of keys with items to hand out, in turn order
 *   netdiag:jobs:turns:<keyId>      list of that key's jobs with items to hand out, in turn order
 *   netdiag:jobs:bus                the channel of submissions, cancellations and changes (../job-bus.ts)
 * The scripts (./redis-job-scripts.ts) name per-job keys themselves, so a Redis Cluster is not
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
export const activeKey = (keyId: string) => `${JOBS_PREFIX}active:${keyId}`;
export const byKeyKey = (keyId: string) => `${JOBS_PREFIX}key:${keyId}`;
export const keyTurnsKey = (keyId: string) => `${JOBS_PREFIX}turns:${keyId}`;
export const RUNNING = `${JOBS_PREFIX}running`;
export const TURNS = `${JOBS_PREFIX}turns`;
export const BUS_CHANNEL = `${JOBS_PREFIX}bus`;
