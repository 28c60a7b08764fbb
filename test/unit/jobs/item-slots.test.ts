/** docs/jobs.md "Prices and limits": the slot budget and the turn order (by key, then by job). */
import { describe, expect, it } from 'vitest';
import { createItemSlots, type SchedulableJob } from '../../../src/jobs/runner/item-slots.js';

function fakeJob(id: string, keyId: string, items: number, started: string[], gate: Promise<void>): SchedulableJob {
  let left = items;
  return {
    id,
    keyId,
    hasWork: () => left > 0,
    async runNext() {
      left--;
      started.push(id);
      await gate;
    },
  };
}

describe('item slots', () => {
  it('runs at most `concurrency` items at once', async () => {
    const started: string[] = [];
    let open!: () => void;
    const gate = new Promise<void>((r) => (open = r));
    const slots = createItemSlots(3, () => undefined);
    slots.add(fakeJob('a', 'k1', 10, started, gate));
    expect(slots.running).toBe(3);
    expect(started).toHaveLength(3);
    open();
    await new Promise((r) => setTimeout(r, 10));
    expect(started).toHaveLength(10);
    expect(slots.running).toBe(0);
  });

  it('gives turns by key, then by job within a key: a big job does not hold back another key', async () => {
    const order: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const fair = createItemSlots(1, () => undefined);
    const a = fakeJob('k1-a', 'k1', 4, order, gate);
    const b = fakeJob('k1-b', 'k1', 4, order, gate);
    const c = fakeJob('k2-c', 'k2', 4, order, gate);
    fair.add(a); // takes the one slot at once
    fair.add(b);
    fair.add(c);
    release();
    await new Promise((r) => setTimeout(r, 20));
    // after k1-a's first item the turn passes to k2, then back to k1's next job, and so on
    expect(order.slice(0, 7)).toEqual(['k1-a', 'k2-c', 'k1-b', 'k2-c', 'k1-a', 'k2-c', 'k1-b']);
    expect(order).toHaveLength(12);
  });

  it('starts no new item while interactive requests run (one at a time still moves on)', async () => {
    const started: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let interactive = true;
    const slots = createItemSlots(
      8,
      () => undefined,
      () => interactive,
    );
    slots.add(fakeJob('a', 'k1', 20, started, gate));
    expect(slots.running).toBe(1);
    interactive = false;
    release();
    await new Promise((r) => setTimeout(r, 300));
    expect(started).toHaveLength(20);
  });
});
