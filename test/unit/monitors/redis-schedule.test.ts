/**
 * The monitors' schedule on Redis (src/monitors/schedule/redis-schedule.ts) against a real redis-server on
 * loopback: a monitor is run at its due times, one after another; two schedule objects on one Redis (two
 * instances) never hand one due time to both; `remove` stops a monitor's runs; `stop` waits for the runs
 * handed out; a run that throws is handed out again with the same due time. Each test has a queue of its
 * own; the waits are for runs, with margins of several intervals where a test shows that nothing happens.
 */
import { fork } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { DueRun } from '../../../src/monitors/schedule/monitor-schedule.js';
import {
  createRedisSchedule,
  dueRunOf,
  type RedisMonitorSchedule,
} from '../../../src/monitors/schedule/redis-schedule.js';
import { REDIS_MISSING_MESSAGE, redisServerPath, startRedisLab, type RedisLab } from '../../lab/redis.js';

if (!redisServerPath) console.warn(REDIS_MISSING_MESSAGE);

describe('the due time of a scheduler job', () => {
  it('is the time in its id, for the monitor of its data only', () => {
    expect(dueRunOf({ id: 'repeat:mon_a-b_C:1764979200000', data: { monitorId: 'mon_a-b_C' } })).toEqual({
      monitorId: 'mon_a-b_C',
      dueAt: 1764979200000,
    });
    expect(dueRunOf({ id: 'repeat:mon_x:1764979200000', data: { monitorId: 'mon_y' } })).toBeNull();
    expect(dueRunOf({ id: '42', data: { monitorId: 'mon_x' } })).toBeNull();
  });
});

/** The runs a schedule hands out, and a wait for the n-th one that matches. */
function recorder() {
  const runs: (DueRun & { calledAt: number; instance: number })[] = [];
  const waiters: { test: () => boolean; resolve: () => void }[] = [];
  return {
    runs,
    record(due: DueRun, instance: number) {
      runs.push({ ...due, calledAt: Date.now(), instance });
      for (const waiter of [...waiters])
        if (waiter.test()) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve();
        }
    },
    until(test: () => boolean): Promise<void> {
      if (test()) return Promise.resolve();
      return new Promise((resolve) => waiters.push({ test, resolve }));
    },
  };
}

const dueTimesOf = (runs: DueRun[], monitorId: string) =>
  [...new Set(runs.filter((r) => r.monitorId === monitorId).map((r) => r.dueAt))].sort((a, b) => a - b);

describe.skipIf(!redisServerPath)('the Redis schedule', () => {
  let lab: RedisLab;
  const schedules: RedisMonitorSchedule[] = [];

  beforeAll(async () => {
    lab = await startRedisLab();
  });
  afterEach(async () => {
    await Promise.all(schedules.splice(0).map((s) => s.close()));
  });
  afterAll(async () => {
    await lab?.close();
  });

  /** one instance's schedule on the test's queue */
  async function schedule(queueName: string, options: { retryDelayMs?: number } = {}) {
    const made = await createRedisSchedule({ redisUrl: lab.url, queueName, prefix: 'test:bull', ...options });
    schedules.push(made);
    return made;
  }

  it('runs a monitor every second at its due times, one after another', async () => {
    const queue = randomUUID();
    const instance = await schedule(queue);
    const seen = recorder();
    await instance.start(async (due) => seen.record(due, 0), 2);
    const firstDueAt = Date.now() + 500;
    await instance.upsert('mon_every', 1_000, firstDueAt);
    await seen.until(() => seen.runs.length >= 3);
    const dueAts = seen.runs.map((r) => r.dueAt);
    expect(dueAts[0]).toBe(firstDueAt);
    // one after another, every second from the first (a due time missed while the machine was too busy to
    // hand it out in time is not made up: the next one is on the same grid)
    for (let i = 1; i < dueAts.length; i++) {
      expect(dueAts[i]!).toBeGreaterThan(dueAts[i - 1]!);
      expect((dueAts[i]! - firstDueAt) % 1_000).toBe(0);
    }
    // handed out once its time came (the same machine's clock)
    for (const run of seen.runs) expect(run.calledAt).toBeGreaterThanOrEqual(run.dueAt);
  });

  it('upserted with an earlier first due time (a run asked for now), hands that out, then goes on from it', async () => {
    const queue = randomUUID();
    const instance = await schedule(queue);
    const seen = recorder();
    await instance.start(async (due) => seen.record(due, 0), 2);
    const created = Date.now();
    await instance.upsert('mon_now', 3_600_000, created);
    await seen.until(() => seen.runs.length >= 1);
    const now = Date.now();
    await instance.upsert('mon_now', 3_600_000, now);
    await seen.until(() => seen.runs.length >= 2);
    // BullMQ's first due time is the later of the one given and its own now
    const [first, second] = seen.runs.map((r) => r.dueAt);
    expect(first).toBeGreaterThanOrEqual(created);
    expect(second).toBeGreaterThanOrEqual(now);
    expect(second).toBeLessThan(created + 3_600_000);
    // the same time upserted again (two API processes at once) is not handed out twice
    await instance.upsert('mon_now', 3_600_000, now + 3_600_000);
    await sleep(500);
    expect(seen.runs).toHaveLength(2);
  });

  it('two instances on one Redis never hand one due time to both', async () => {
    const queue = randomUUID();
    const instances = [await schedule(queue), await schedule(queue)];
    const seen = recorder();
    await Promise.all(
      instances.map((s, i) =>
        s.start(async (due) => {
          seen.record(due, i);
          // a run takes a while, so that both instances hold runs at once
          await sleep(100);
        }, 2),
      ),
    );
    const monitors = ['mon_a', 'mon_b', 'mon_c'];
    const start = Date.now() + 300;
    // each instance schedules (an API process of each may upsert the same monitor)
    for (const id of monitors) for (const s of instances) await s.upsert(id, 500, start);
    await seen.until(() => monitors.every((id) => dueTimesOf(seen.runs, id).length >= 6));
    await Promise.all(instances.map((s) => s.stop()));
    const counts = new Map<string, number>();
    for (const run of seen.runs)
      counts.set(`${run.monitorId} ${run.dueAt}`, (counts.get(`${run.monitorId} ${run.dueAt}`) ?? 0) + 1);
    expect([...counts.values()].every((n) => n === 1)).toBe(true);
    expect(seen.runs.length).toBeGreaterThanOrEqual(18);
    // both took runs: three monitors due at once are more than one instance's two at a time
    expect(new Set(seen.runs.map((r) => r.instance)).size).toBe(2);
    // the due times of a monitor are every 500 ms from its first
    for (const id of monitors) {
      const times = dueTimesOf(seen.runs, id);
      for (let i = 1; i < times.length; i++) expect((times[i]! - times[0]!) % 500).toBe(0);
    }
  });

  it('remove stops a monitor: no run of it is handed out after', async () => {
    const queue = randomUUID();
    const instance = await schedule(queue);
    const seen = recorder();
    await instance.start(async (due) => seen.record(due, 0), 2);
    await instance.upsert('mon_gone', 300, Date.now());
    await instance.upsert('mon_stays', 300, Date.now());
    await seen.until(() => dueTimesOf(seen.runs, 'mon_gone').length >= 2);
    await instance.remove('mon_gone');
    const removedAt = Date.now();
    // the other monitor goes on for several intervals: had the removed one gone on, it would have run too
    await seen.until(() => seen.runs.some((r) => r.monitorId === 'mon_stays' && r.calledAt > removedAt + 1_500));
    expect(seen.runs.filter((r) => r.monitorId === 'mon_gone' && r.calledAt > removedAt)).toEqual([]);
  });

  it('stop waits for the runs handed out, and hands out no more', async () => {
    const queue = randomUUID();
    const instance = await schedule(queue);
    const seen = recorder();
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let finished = 0;
    await instance.start(async (due) => {
      seen.record(due, 0);
      await released;
      finished += 1;
    }, 1);
    await instance.upsert('mon_slow', 200, Date.now());
    await seen.until(() => seen.runs.length >= 1);
    let stopped = false;
    const stopping = instance.stop().then(() => (stopped = true));
    // the run holds: stop has not resolved after several intervals
    await sleep(1_000);
    expect(stopped).toBe(false);
    release();
    await stopping;
    expect(finished).toBe(1);
    const handedOut = seen.runs.length;
    await sleep(1_000);
    expect(seen.runs).toHaveLength(handedOut);
  });

  it('a run that throws is handed out again with the same due time', async () => {
    const queue = randomUUID();
    const instance = await schedule(queue, { retryDelayMs: 100 });
    const seen = recorder();
    const failed = new Set<number>();
    await instance.start(async (due) => {
      seen.record(due, 0);
      if (!failed.has(due.dueAt)) {
        failed.add(due.dueAt);
        throw new Error('the store was away');
      }
    }, 1);
    const firstDueAt = Date.now() + 200;
    await instance.upsert('mon_retry', 60_000, firstDueAt);
    await seen.until(() => seen.runs.length >= 2);
    expect(seen.runs.map((r) => r.dueAt)).toEqual([firstDueAt, firstDueAt]);
  });

  it('a run whose instance was SIGKILLed is handed to another instance with the same due time', async () => {
    const queue = randomUUID();
    const lockDurationMs = 1_000;
    const child = fork(join(import.meta.dirname, 'redis-schedule-child.ts'), [lab.url, queue, String(lockDurationMs)], {
      execArgv: ['--import', 'tsx'],
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    });
    try {
      await new Promise<void>((resolve, reject) => {
        child.once('message', (m) => (m === 'started' ? resolve() : reject(new Error(String(m)))));
        child.once('exit', (code) => reject(new Error(`the child exited with ${code}`)));
      });
      const instance = await createRedisSchedule({
        redisUrl: lab.url,
        queueName: queue,
        prefix: 'test:bull',
        lockDurationMs,
      });
      schedules.push(instance);
      const firstDueAt = Date.now() + 200;
      await instance.upsert('mon_killed', 60_000, firstDueAt);
      // the child takes the due time and holds it
      const [taken] = (await once(child, 'message')) as [DueRun];
      expect(taken).toEqual({ monitorId: 'mon_killed', dueAt: firstDueAt });
      child.kill('SIGKILL');
      await once(child, 'exit');
      const seen = recorder();
      await instance.start(async (due) => seen.record(due, 1), 1);
      // once the dead instance's lock has run out, this one takes the same due time
      await seen.until(() => seen.runs.length >= 1);
      expect(seen.runs.map(({ monitorId, dueAt }) => ({ monitorId, dueAt }))).toEqual([taken]);
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
  });
});
