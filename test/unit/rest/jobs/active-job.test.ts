/**
 * A running job against the embedded store: outcomes written in target order whatever order items finish
 * in, refused targets refunded, and recovery from a journal cut mid-line (docs/contract/jobs.md "Durable").
 */
import { appendFileSync, mkdtempSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ActiveJob } from '../../../../src/rest/jobs/active-job.js';
import { createFileJobStore } from '../../../../src/rest/jobs/file-job-store.js';
import type { JobRecord } from '../../../../src/rest/jobs/job-record.js';
import type { ItemResult } from '../../../../src/rest/jobs/run-item.js';
import type { QuotaStore } from '../../../../src/platform/quota.js';

const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };

function record(id: string, total: number): JobRecord {
  return {
    id,
    keyId: 'k',
    keyKind: 'static',
    tool: 'mx-lookup',
    total,
    params: {},
    itemCost: 3,
    chargeId: '1',
    createdAt: new Date(0).toISOString(),
    status: 'queued',
    startedAt: null,
    finishedAt: null,
    done: 0,
    failed: 0,
    cancelled: 0,
    refunded: 0,
    callbackUrl: null,
    callbackSecret: null,
    callback: null,
  };
}

function refunds(): QuotaStore & { given: number[] } {
  const given: number[] = [];
  return {
    given,
    charge: async () => ({ allowed: true, remaining: 0, resetSeconds: 0, retryAfterSeconds: 0, chargeId: '1' }),
    refund: async (_key, _id, amount) => {
      given.push(amount);
    },
    close: async () => undefined,
  };
}

/** Runs every item at once, then waits until the job has written its end (`ended` called). */
async function runAll(job: ActiveJob, ended: () => boolean): Promise<void> {
  const running: Promise<void>[] = [];
  while (job.hasWork()) running.push(job.runNext());
  await Promise.all(running);
  for (let i = 0; i < 500 && !ended(); i++) await new Promise((r) => setTimeout(r, 10));
}

describe('ActiveJob', () => {
  it('writes outcomes in target order when items finish out of order, and refunds refused targets', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'nd-job-'));
    const store = createFileJobStore(dir);
    const quota = refunds();
    const targets = ['a.test', 'b.test', 'c.test', 'd.test'];
    await store.create(record('j1', 4), targets);
    const delays: Record<string, number> = { 'a.test': 60, 'b.test': 0, 'c.test': 30, 'd.test': 0 };
    let ended = false;
    const job = new ActiveJob(record('j1', 4), targets, {
      store,
      quota,
      logger: silent,
      now: Date.now,
      ended: () => {
        ended = true;
      },
      run: async (_job, target): Promise<ItemResult> => {
        await new Promise((r) => setTimeout(r, delays[target as string]));
        return target === 'd.test'
          ? { ok: false, status: 400, error: 'refused', refund: true }
          : { ok: true, status: 200, data: { target }, refund: false };
      },
    });
    await runAll(job, () => ended);
    expect(ended).toBe(true);
    const lines = readFileSync(join(dir, 'jobs', 'j1', 'results.ndjson'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.map((l) => l.index)).toEqual([0, 1, 2, 3]);
    expect(lines[3]).toEqual({ index: 3, target: 'd.test', ok: false, status: 400, error: 'refused' });
    expect(job.record).toMatchObject({ status: 'done', done: 4, failed: 1, refunded: 3 });
    expect(quota.given).toEqual([3]);
    expect((await store.read('j1'))?.status).toBe('done');
    store.close();
  });

  it('recovers from a journal whose last line was cut by a crash: that item runs again', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'nd-job-'));
    const store = createFileJobStore(dir);
    await store.create(record('j2', 3), ['a.test', 'b.test', 'c.test']);
    await store.appendResults('j2', [
      JSON.stringify({ index: 0, target: 'a.test', ok: false, status: 502, error: 'x' }),
    ]);
    appendFileSync(join(dir, 'jobs', 'j2', 'results.ndjson'), '{"index":1,"target":"b.te');
    expect(await store.recoverResults('j2')).toEqual({ lines: 1, failed: 1 });
    const lines: string[] = [];
    for await (const line of store.results('j2', -1)) lines.push(line);
    expect(lines).toHaveLength(1);
    const ran: string[] = [];
    let ended = false;
    const resumed = { ...record('j2', 3), done: 1, failed: 1, status: 'running' as const };
    const job = new ActiveJob(resumed, ['a.test', 'b.test', 'c.test'], {
      store,
      quota: refunds(),
      logger: silent,
      now: Date.now,
      ended: () => {
        ended = true;
      },
      run: async (_job, target) => {
        ran.push(target as string);
        return { ok: true, status: 200, data: {}, refund: false };
      },
    });
    await runAll(job, () => ended);
    expect(ran).toEqual(['b.test', 'c.test']);
    const all: number[] = [];
    for await (const line of store.results('j2', -1)) all.push(JSON.parse(line).index);
    expect(all).toEqual([0, 1, 2]);
    store.close();
  });

  it('lets only one live process own a job, and takes over a dead owner’s', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'nd-job-'));
    const one = createFileJobStore(dir);
    const two = createFileJobStore(dir);
    await one.create(record('j3', 1), ['a.test']);
    expect(await one.claim('j3')).toBe(true);
    expect(await two.claim('j3')).toBe(false);
    expect(await two.ownedElsewhere('j3')).toBe(true);
    one.close(); // as a process that died
    expect(await two.claim('j3')).toBe(true);
    two.close();
  });

  it('takes over a job whose owner id is a live process that stopped touching the owner file (an id reused)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'nd-job-'));
    const store = createFileJobStore(dir);
    await store.create(record('j4', 1), ['a.test']);
    const owner = join(dir, 'jobs', 'j4', 'owner');
    writeFileSync(owner, `${process.ppid} another-process`);
    expect(await store.claim('j4')).toBe(false);
    const old = new Date(Date.now() - 60_000);
    utimesSync(owner, old, old);
    expect(await store.claim('j4')).toBe(true);
    store.close();
  });
});
