/**
 * What every monitors' store promises (src/monitors/store/monitor-store.ts), as one suite run against each
 * implementation (./embedded-monitor-store.test.ts, ./redis-monitor-store.test.ts): limits per key,
 * ownership listing, the run lifecycle (no overlap, resume after a crash, charged once), outcomes committed
 * with their state and events (once, even when committed again), history newest first and kept to
 * `keepRuns`, events by id, webhook progress, pruning and deletion; and a writer SIGKILLed mid-way loses
 * nothing and, replayed, sends no event twice.
 */
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { MonitorStore } from '../../../src/monitors/store/monitor-store.js';
import { eventSeqOf } from '../../../src/monitors/store/records.js';
import { example } from './examples.js';
import { commitRun, HOUR, monitorRecord, RUNS, ratingOf, T0 } from './store-fixture.js';

export const LIMITS = { maxPerKey: 20, maxPairsPerKey: 5000 };

export interface StoreUnderTest {
  readonly store: MonitorStore;
  /** another store object on the same data: a process of the instance after a restart, or another instance */
  reopen(): Promise<MonitorStore>;
  /** what ./store-writer.ts is given to open the same data in a child process */
  readonly writerArgs: readonly string[];
}

/** A store on data of its own (nothing another test wrote), with these settings. */
export type OpenStore = (options?: { keepRuns?: number; keepEventsDays?: number }) => Promise<StoreUnderTest>;

const at = (hours: number) => new Date(T0.getTime() + hours * HOUR);

/** `runs` runs of the first target's tls-rating, `hoursApart` apart, alternating A+ and B: each after the first is a change. */
async function rate(store: MonitorStore, id: string, runs: number, hoursApart = 1): Promise<void> {
  for (let i = 0; i < runs; i++)
    await store.recordOutcome(id, {
      runId: `r${i}`,
      targetIndex: 0,
      check: 'tls-rating',
      at: at(i * hoursApart),
      outcome: ratingOf(i),
    });
}

export function describeMonitorStoreContract(open: OpenStore): void {
  describe('monitors and keys', () => {
    it('creates, reads, changes and deletes a monitor', async () => {
      const { store } = await open();
      expect(await store.create(monitorRecord(), LIMITS)).toEqual({ ok: true });
      expect(await store.get('mon_test')).toMatchObject({ name: 'sites', checks: ['tls-rating', 'whois'] });
      expect(await store.update('mon_test', { name: 'renamed', warnDays: 30 }, at(1))).toMatchObject({
        name: 'renamed',
        warnDays: 30,
        updatedAt: at(1).toISOString(),
      });
      expect(await store.update('mon_unknown', { name: 'x' }, at(1))).toBeNull();
      expect(await store.delete('mon_test')).toBe(true);
      expect(await store.delete('mon_test')).toBe(false);
      expect(await store.get('mon_test')).toBeNull();
      expect(await store.beginRun('mon_test', { runId: 'r', at: at(2), nextRunAt: at(3) })).toEqual({
        outcome: 'gone',
      });
    });

    it("refuses a monitor past the key's monitors or pairs, counting only that key's", async () => {
      const { store } = await open();
      const limits = { maxPerKey: 2, maxPairsPerKey: 6 };
      expect(await store.create(monitorRecord({ id: 'm1' }), limits)).toEqual({ ok: true });
      // 2 targets × 2 checks = 4 pairs so far; 4 more would make 8
      expect(await store.create(monitorRecord({ id: 'm2' }), limits)).toEqual({ ok: false, limit: 'pairs' });
      expect(await store.create(monitorRecord({ id: 'm2', targets: ['c.example'] }), limits)).toEqual({ ok: true });
      expect(
        await store.create(monitorRecord({ id: 'm3', targets: ['d.example'], checks: ['whois'] }), limits),
      ).toEqual({
        ok: false,
        limit: 'monitors',
      });
      expect(await store.create(monitorRecord({ id: 'm4', keyId: 'key-b' }), limits)).toEqual({ ok: true });
      expect(await store.usage('key-a')).toEqual({ monitors: 2, pairs: 6 });
      await store.delete('m1');
      expect(await store.usage('key-a')).toEqual({ monitors: 1, pairs: 2 });
    });

    it("lists a key's monitors newest first, by pages, and never another key's", async () => {
      const { store } = await open();
      for (let i = 0; i < 5; i++)
        await store.create(monitorRecord({ id: `m${i}`, createdAt: at(i).toISOString() }), LIMITS);
      await store.create(monitorRecord({ id: 'other', keyId: 'key-ab', createdAt: at(9).toISOString() }), LIMITS);
      const first = await store.listByKey('key-a', { limit: 3 });
      expect(first.items.map((m) => m.id)).toEqual(['m4', 'm3', 'm2']);
      const second = await store.listByKey('key-a', { limit: 3, before: first.nextCursor });
      expect(second).toMatchObject({ nextCursor: null });
      expect(second.items.map((m) => m.id)).toEqual(['m1', 'm0']);
      expect((await store.listByKey('key-b', { limit: 3 })).items).toEqual([]);
      // a cursor of another key's list reads nothing of this one
      expect((await store.listByKey('key-ab', { limit: 3, before: first.nextCursor })).items).toEqual([]);
    });
  });

  describe('runs', () => {
    it('never overlap: a run due while one runs is skipped and counted', async () => {
      const { store } = await open();
      await store.create(monitorRecord(), LIMITS);
      expect(await store.beginRun('mon_test', { runId: 'r1', at: at(0), nextRunAt: at(1) })).toEqual({
        outcome: 'start',
      });
      expect(await store.beginRun('mon_test', { runId: 'r2', at: at(1), nextRunAt: at(2) })).toEqual({
        outcome: 'busy',
      });
      expect(await store.progress('mon_test')).toMatchObject({ skipped: 1, nextRunAt: at(2).toISOString() });
      await store.finishRun('mon_test', 'r1', at(1));
      expect(await store.beginRun('mon_test', { runId: 'r3', at: at(2), nextRunAt: at(3) })).toEqual({
        outcome: 'start',
      });
    });

    it('a run begun and not finished (a crash) resumes, charged once, with only its items not committed', async () => {
      const { store, reopen } = await open();
      await store.create(monitorRecord(), LIMITS);
      await store.beginRun('mon_test', { runId: 'r1', at: at(0), nextRunAt: at(1) });
      await store.recordCharge('mon_test', 'r1', true, at(0));
      await store.recordOutcome('mon_test', {
        runId: 'r1',
        targetIndex: 1,
        check: 'whois',
        at: at(0),
        outcome: { ok: true, status: 200, data: example('whois') },
      });
      // another process of the instance after a restart
      const again = await reopen();
      expect(await again.beginRun('mon_test', { runId: 'r1', at: at(0.5), nextRunAt: at(1) })).toEqual({
        outcome: 'resume',
        charged: true,
      });
      expect(await again.pendingItems('mon_test', 'r1')).toEqual([
        { targetIndex: 0, check: 'tls-rating' },
        { targetIndex: 0, check: 'whois' },
        { targetIndex: 1, check: 'tls-rating' },
      ]);
      expect(await again.progress('mon_test')).toMatchObject({ runs: 1 });
    });

    it('a paused monitor (PATCH) starts no run', async () => {
      const { store } = await open();
      await store.create(monitorRecord({ paused: true }), LIMITS);
      expect(await store.beginRun('mon_test', { runId: 'r1', at: at(0), nextRunAt: at(1) })).toEqual({
        outcome: 'paused',
      });
    });

    it('a run the allowance does not cover does not start and pauses the monitor; a covered one resumes it', async () => {
      const { store } = await open();
      await store.create(monitorRecord(), LIMITS);
      await store.beginRun('mon_test', { runId: 'r1', at: at(0), nextRunAt: at(1) });
      const paused = await store.recordCharge('mon_test', 'r1', false, at(0));
      expect(paused).toMatchObject([
        { id: 'mon_test.1', monitorId: 'mon_test', kind: 'paused', target: null, check: null },
      ]);
      expect(await store.progress('mon_test')).toMatchObject({ currentRun: null, allowancePaused: true, runs: 0 });
      await store.beginRun('mon_test', { runId: 'r2', at: at(1), nextRunAt: at(2) });
      expect(await store.recordCharge('mon_test', 'r2', false, at(1))).toEqual([]);
      await store.beginRun('mon_test', { runId: 'r3', at: at(2), nextRunAt: at(3) });
      expect(await store.recordCharge('mon_test', 'r3', true, at(2))).toMatchObject([
        { id: 'mon_test.2', kind: 'resumed' },
      ]);
      expect(await store.progress('mon_test')).toMatchObject({
        allowancePaused: false,
        runs: 1,
        lastRunAt: at(2).toISOString(),
      });
    });
  });

  describe('outcomes, history and events', () => {
    it('commits the run, the state and the events together, and a second commit of the same run adds nothing', async () => {
      const { store } = await open();
      await store.create(monitorRecord(), LIMITS);
      const first = await store.recordOutcome('mon_test', {
        runId: 'r0',
        targetIndex: 0,
        check: 'tls-rating',
        at: at(0),
        outcome: ratingOf(0),
      });
      expect(first).toEqual({ events: [], duplicate: false });
      const input = { runId: 'r1', targetIndex: 0, check: 'tls-rating', at: at(1), outcome: ratingOf(1) };
      const second = await store.recordOutcome('mon_test', input);
      expect(second.events).toMatchObject([
        {
          id: 'mon_test.1',
          monitorId: 'mon_test',
          target: 'a.example',
          check: 'tls-rating',
          kind: 'changed',
          severity: 'warning',
        },
      ]);
      expect(await store.recordOutcome('mon_test', input)).toEqual({ events: [], duplicate: true });
      expect(await store.recordOutcome('mon_test', { ...input, runId: 'r0' })).toEqual({ events: [], duplicate: true });
      expect(await store.state('mon_test', 0, 'tls-rating')).toMatchObject({
        grade: 'B',
        status: 'warning',
        lastRunId: 'r1',
      });
      expect(
        (await store.history('mon_test', { targetIndex: 0, check: 'tls-rating', limit: 10 })).items.map((r) => r.runId),
      ).toEqual(['r1', 'r0']);
    });

    it('an outcome for a check or target the monitor does not have is ignored', async () => {
      const { store } = await open();
      await store.create(monitorRecord(), LIMITS);
      const outcome = ratingOf(0);
      expect(
        await store.recordOutcome('mon_test', { runId: 'r', targetIndex: 5, check: 'tls-rating', at: at(0), outcome }),
      ).toEqual({ events: [], duplicate: false });
      expect(
        await store.recordOutcome('mon_test', { runId: 'r', targetIndex: 0, check: 'ping', at: at(0), outcome }),
      ).toEqual({ events: [], duplicate: false });
      expect(await store.states('mon_test')).toEqual([]);
    });

    it('keeps the last keepRuns runs of each pair, newest first, with the single call data and errors', async () => {
      const { store } = await open({ keepRuns: 3 });
      await store.create(monitorRecord(), LIMITS);
      for (let i = 0; i < 5; i++) {
        await store.recordOutcome('mon_test', {
          runId: `r${i}`,
          targetIndex: 0,
          check: 'tls-rating',
          at: at(i),
          outcome: ratingOf(i),
        });
        await store.recordOutcome('mon_test', {
          runId: `r${i}`,
          targetIndex: 1,
          check: 'whois',
          at: at(i),
          outcome: { ok: false, status: 504, error: { code: 'UPSTREAM_TIMEOUT', message: 'no answer' } },
        });
      }
      const pair = await store.history('mon_test', { targetIndex: 0, check: 'tls-rating', limit: 10 });
      expect(pair.items.map((r) => r.runId)).toEqual(['r4', 'r3', 'r2']);
      expect(pair.items[0]).toEqual({
        runId: 'r4',
        at: at(4).toISOString(),
        target: 'a.example',
        check: 'tls-rating',
        ok: true,
        status: 200,
        data: (ratingOf(4) as { data: unknown }).data,
      });
      const all = await store.history('mon_test', { limit: 4 });
      expect(all.items.map((r) => `${r.runId} ${r.check}`)).toEqual([
        'r4 whois',
        'r4 tls-rating',
        'r3 whois',
        'r3 tls-rating',
      ]);
      expect(all.items[0]).toMatchObject({
        ok: false,
        status: 504,
        error: { code: 'UPSTREAM_TIMEOUT' },
        target: 'b.example',
      });
      const rest = await store.history('mon_test', { limit: 4, before: all.nextCursor });
      expect(rest.items.map((r) => `${r.runId} ${r.check}`)).toEqual(['r2 whois', 'r2 tls-rating']);
      expect(rest.nextCursor).toBeNull();
      expect((await store.history('mon_test', { check: 'whois', limit: 10 })).items).toHaveLength(3);
    });

    it('reads events newest first by pages, and what is newer than an id oldest first', async () => {
      const { store } = await open();
      await store.create(monitorRecord(), LIMITS);
      await rate(store, 'mon_test', 6);
      const newest = await store.events('mon_test', { limit: 3 });
      expect(newest.items.map((e) => e.id)).toEqual(['mon_test.5', 'mon_test.4', 'mon_test.3']);
      const older = await store.events('mon_test', { limit: 3, before: newest.nextCursor });
      expect(older).toMatchObject({ nextCursor: null });
      expect(older.items.map((e) => e.id)).toEqual(['mon_test.2', 'mon_test.1']);
      const since = await store.events('mon_test', { limit: 2, since: 'mon_test.2' });
      expect(since.items.map((e) => e.id)).toEqual(['mon_test.3', 'mon_test.4']);
      expect(since.nextCursor).toBe('mon_test.4');
      expect((await store.events('mon_test', { limit: 10, since: 'other.2' })).items).toHaveLength(5);
      expect(eventSeqOf('mon_test', 'mon_test.01')).toBeNull();
    });

    it("hands events to the webhook in order, and keeps the delivery's outcome", async () => {
      const { store } = await open();
      await store.create(monitorRecord({ notify: { webhook: 'https://hooks.example/x' } }), LIMITS);
      await rate(store, 'mon_test', 4);
      expect((await store.pendingDeliveries('mon_test', 10)).map((e) => e.id)).toEqual([
        'mon_test.1',
        'mon_test.2',
        'mon_test.3',
      ]);
      await store.markDelivered('mon_test', 'mon_test.1', null);
      await store.markDelivered('mon_test', 'mon_test.2', 'HTTP 500 after 3 tries');
      expect((await store.pendingDeliveries('mon_test', 10)).map((e) => e.id)).toEqual(['mon_test.3']);
      expect((await store.progress('mon_test'))!.delivery).toEqual({
        deliveredSeq: 2,
        status: 'failing',
        lastError: 'HTTP 500 after 3 tries',
        failedEvents: 1,
      });
      // a webhook set later starts after the events already made
      await store.create(monitorRecord({ id: 'm2' }), LIMITS);
      await rate(store, 'm2', 3);
      await store.update('m2', { notify: { webhook: 'https://hooks.example/y' } }, at(3));
      expect(await store.pendingDeliveries('m2', 10)).toEqual([]);
    });

    it('prunes events past keepEventsDays, and purges what a deleted monitor left', async () => {
      const { store } = await open({ keepEventsDays: 1 });
      await store.create(monitorRecord(), LIMITS);
      await rate(store, 'mon_test', 4, 12);
      // events at 12, 24 and 36 h; a day after 36 h, the one at 12 h is past a day old
      expect(await store.prune(at(37))).toEqual({ events: 1, purged: 0 });
      expect((await store.events('mon_test', { limit: 10 })).items.map((e) => e.at)).toEqual(
        [at(36), at(24)].map((d) => d.toISOString()),
      );
      await store.delete('mon_test');
      await store.close();
      expect(await store.states('mon_test')).toEqual([]);
      expect((await store.events('mon_test', { limit: 10 })).items).toEqual([]);
      expect((await store.prune(at(40))).purged).toBe(0);
    });
  });

  describe('a crash', () => {
    it('a writer SIGKILLed mid-way leaves whole runs, and the runs replayed send no event twice and charge once', async () => {
      const { store, writerArgs } = await open();
      await store.create(monitorRecord({ checks: ['tls-rating'], targets: ['a.example'] }), LIMITS);
      const child = fork(join(import.meta.dirname, 'store-writer.ts'), [...writerArgs, 'mon_test'], {
        execArgv: ['--import', 'tsx'],
        stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
      });
      // killed once it has committed a third of the runs: somewhere inside a run
      await new Promise<void>((resolve, reject) => {
        child.on('message', (m) => {
          if (m === Math.floor(RUNS / 3)) resolve();
        });
        child.on('exit', (code) => reject(new Error(`the writer exited with ${code}`)));
      });
      child.kill('SIGKILL');
      await once(child, 'exit');
      // every event stands with its run
      const { items: events } = await store.events('mon_test', { limit: 1000 });
      const history = await store.history('mon_test', { targetIndex: 0, check: 'tls-rating', limit: 1000 });
      const runsAt = new Set(history.items.map((r) => r.at));
      expect(events.length).toBeGreaterThan(0);
      for (const event of events) expect(runsAt.has(event.at)).toBe(true);
      // the restarted process runs everything again: what was committed is recognised
      for (let i = 0; i < RUNS; i++) await commitRun(store, 'mon_test', i);
      const after = await store.events('mon_test', { limit: 1000 });
      expect(after.items.map((e) => e.id)).toEqual(
        Array.from({ length: RUNS - 1 }, (_, i) => `mon_test.${RUNS - 1 - i}`),
      );
      expect(new Set(after.items.map((e) => e.at)).size).toBe(RUNS - 1);
      expect(await store.progress('mon_test')).toMatchObject({ runs: RUNS, currentRun: null });
      expect((await store.history('mon_test', { limit: 1000 })).items).toHaveLength(RUNS);
    }, 60_000);
  });
}
