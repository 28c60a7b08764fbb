/**
 * An instance for the Redis schedule's SIGKILL test (./redis-schedule.test.ts): starts a schedule on the
 * queue it is given, tells the parent each due time it takes, and holds it (a run that never ends) until
 * it is killed.
 */
import { createRedisSchedule } from '../../../src/monitors/schedule/redis-schedule.js';

const [redisUrl, queueName, lockDurationMs] = process.argv.slice(2);
const schedule = await createRedisSchedule({
  redisUrl: redisUrl!,
  queueName,
  prefix: 'test:bull',
  lockDurationMs: Number(lockDurationMs),
});
await schedule.start(async (due) => {
  process.send!(due);
  await new Promise(() => {});
}, 1);
process.send!('started');
