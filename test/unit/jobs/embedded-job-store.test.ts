/**
 * The embedded job store (src/jobs/embedded/lmdb-job-store.ts) and a job run against it
 * (src/jobs/runner/active-job.ts): a key's listing read from its own index, the active-job limit held by
 * conditional writes, results in target order whatever order items finish in, refunds after the write,
 * a resumed job running from `done`, and the retention sweep.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openEmbeddedJobStore, type EmbeddedJobStore } from '../../../src/jobs/embedded/lmdb-job-store.js';
import { newJobRecord, type JobRecord } from '../../../src/jobs/job-record.js';
import type { ItemResult } from '../../../src/jobs/job-tools.js';
import { ActiveJob } from '../../../src/jobs/runner/active-job.js';

const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };
let clock = Date.parse('2026-11-27T00:00:00Z');

function record(keyId: string, total: number): JobRecord {
  const identity = { id: keyId, kind: 'static' as const };
  const job = { identity, tool: 'mx-lookup', total, params: {}, callbackUrl: null, itemCost: 3, chargeId: '1' };
  return newJobRecord(job, clock++);
}

const store = () => openEmbeddedJobStore(mkdtempSync(join(tmpdir(), 'nd-jobs-')));

async function all(lines: AsyncIterable<string>): Promise<any[]> {
  const out: any[] = [];
  for await (const line of lines) out.push(JSON.parse(line));
  return out;
}

function job(s: EmbeddedJobStore, r: JobRecord, targets: string[], run: (t: string) => Promise<ItemResult>) {
  const refunds: number[] = [];
  let ended = false;
  const active = new ActiveJob(r, targets, {
    writeResults: s.writeResults,
    save: s.save,
    finish: s.finish,
    refund: async (_record, items) => void refunds.push(items),
    logger: silent,
    now: Date.now,
    run: (_job, target) => run(target as string),
    changed: () => undefined,
    ended: () => {
      ended = true;
    },
  });
  return {
    active,
    refunds,
    async runAll() {
      const running: Promise<void>[] = [];
      while (active.hasWork()) running.push(active.runNext());
      await Promise.all(running);
      for (let i = 0; i < 500 && !ended; i++) await new Promise((r) => setTimeout(r, 10));
      expect(ended).toBe(true);
    },
  };
}

describe('embedded job store', () => {
  it('lists a key’s jobs newest first from its own index, a page at a time, whatever other keys stored', async () => {
    const s = store();
    const mine: string[] = [];
    for (let i = 0; i < 5; i++) {
      const r = record('mine', 1);
      mine.unshift(r.id);
      expect(await s.create(r, ['a.test'], 100)).toEqual({ ok: true });
      await s.create(record('other', 1), ['b.test'], 100);
    }
    const first = await s.page('mine', 2, null);
    expect(first.records.map((r) => r.id)).toEqual(mine.slice(0, 2));
    const second = await s.page('mine', 2, first.nextCursor);
    expect(second.records.map((r) => r.id)).toEqual(mine.slice(2, 4));
    const last = await s.page('mine', 2, second.nextCursor);
    expect(last.records.map((r) => r.id)).toEqual(mine.slice(4));
    expect(last.nextCursor).toBeNull();
    expect((await s.page('nobody', 10, null)).records).toEqual([]);
  });

  it('holds the active-job limit under concurrent creates, and frees a slot when a job ends', async () => {
    const s = store();
    const made = Array.from({ length: 12 }, () => record('k', 1));
    const outcomes = await Promise.all(made.map((r) => s.create(r, ['a.test'], 3)));
    expect(outcomes.filter((o) => o.ok)).toHaveLength(3);
    expect(outcomes.find((o) => !o.ok)).toEqual({ ok: false, active: 3 });
    expect(await s.activeCount('k')).toBe(3);
    const created = made.filter((_, i) => outcomes[i]!.ok);
    const first = s.readSync(created[0]!.id)!;
    first.status = 'done';
    first.done = 1;
    first.finishedAt = new Date().toISOString();
    s.finish(first);
    expect(await s.activeCount('k')).toBe(2);
    expect(s.unfinished().sort()).toEqual(
      created
        .slice(1)
        .map((r) => r.id)
        .sort(),
    );
    expect((await s.create(record('k', 1), ['a.test'], 3)).ok).toBe(true);
  });

  it('writes outcomes in target order when items finish out of order, and refunds a refused one after writing it', async () => {
    const s = store();
    const r = record('k', 4);
    const targets = ['a.test', 'b.test', 'c.test', 'd.test'];
    await s.create(r, targets, 3);
    const delays: Record<string, number> = { 'a.test': 60, 'b.test': 0, 'c.test': 30, 'd.test': 0 };
    const j = job(s, s.readSync(r.id)!, targets, async (target) => {
      await new Promise((done) => setTimeout(done, delays[target]));
      return target === 'd.test'
        ? { ok: false, status: 400, error: 'refused', refund: true }
        : { ok: true, status: 200, data: { target }, refund: false };
    });
    await j.runAll();
    const stored = s.readSync(r.id)!;
    expect(stored).toMatchObject({ status: 'done', done: 4, failed: 1, refunded: 3 });
    const lines = await all(s.results(stored, -1));
    expect(lines.map((l) => l.index)).toEqual([0, 1, 2, 3]);
    expect(lines[3]).toEqual({ index: 3, target: 'd.test', ok: false, status: 400, error: 'refused' });
    expect((await all(s.results(stored, 1))).map((l) => l.index)).toEqual([2, 3]);
    expect(j.refunds).toEqual([1]);
    expect(await s.activeCount('k')).toBe(0);
  });

  it('resumes a job at its written count: items not written run again, written ones never', async () => {
    const s = store();
    const r = record('k', 3);
    const targets = ['a.test', 'b.test', 'c.test'];
    await s.create(r, targets, 3);
    const half = s.readSync(r.id)!;
    half.status = 'running';
    s.writeResults(half, [
      { line: JSON.stringify({ index: 0, target: 'a.test', ok: true, status: 200, data: {} }), failed: false },
    ]);
    const ran: string[] = [];
    const j = job(s, s.readSync(r.id)!, targets, async (target) => {
      ran.push(target);
      return { ok: true, status: 200, data: {}, refund: false };
    });
    await j.runAll();
    expect(ran).toEqual(['b.test', 'c.test']);
    expect((await all(s.results(s.readSync(r.id)!, -1))).map((l) => l.index)).toEqual([0, 1, 2]);
  });

  it('cancels: items not started never run and are refunded, the job ends cancelled', async () => {
    const s = store();
    const r = record('k', 5);
    const targets = ['a', 'b', 'c', 'd', 'e'].map((t) => `${t}.test`);
    await s.create(r, targets, 3);
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const j = job(s, s.readSync(r.id)!, targets, async () => {
      await gate;
      return { ok: true, status: 200, data: {}, refund: false };
    });
    const running = j.active.runNext();
    await j.active.cancel();
    expect(j.active.hasWork()).toBe(false);
    release();
    await running;
    for (let i = 0; i < 100 && s.readSync(r.id)!.finishedAt === null; i++) await new Promise((d) => setTimeout(d, 10));
    expect(s.readSync(r.id)).toMatchObject({ status: 'cancelled', done: 1, cancelled: 4 });
    expect(j.refunds).toEqual([4]);
  });

  it('removes jobs past their retention, with their results, and keeps the others', async () => {
    const s = store();
    const old = record('k', 1);
    const fresh = record('k', 1);
    for (const r of [old, fresh]) {
      await s.create(r, ['a.test'], 3);
      const x = s.readSync(r.id)!;
      s.writeResults(x, [{ line: '{"index":0}', failed: false }]);
      x.status = 'done';
      x.finishedAt = new Date(r === old ? 1_000 : 10_000_000).toISOString();
      s.finish(x);
    }
    expect(s.sweep(5_000_000, 1_000_000)).toBe(1);
    expect(s.readSync(old.id)).toBeNull();
    expect(s.readSync(fresh.id)).not.toBeNull();
    expect(await all(s.results({ ...old, done: 1 }, -1))).toEqual([]);
    expect((await s.page('k', 10, null)).records.map((r) => r.id)).toEqual([fresh.id]);
  });
});
