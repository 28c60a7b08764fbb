/** The bounds of one tls-rating (docs/contract/grades.md "The grade (the contract)", its Bounds): handshakes, concurrency, deadline. */
import { describe, expect, it } from 'vitest';
import { createRatingBudget, SKIPPED } from './rating-budget.js';

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('rating budget', () => {
  it('runs at most `concurrency` probes at once', async () => {
    const budget = createRatingBudget({ handshakes: 100, concurrency: 3, deadlineMs: 5000 });
    let active = 0;
    let peak = 0;
    const probe = async () => {
      active++;
      peak = Math.max(peak, active);
      await wait(5);
      active--;
      return 'done';
    };
    const outcomes = await Promise.all(Array.from({ length: 10 }, () => budget.run(probe)));
    budget.close();
    expect(peak).toBe(3);
    expect(outcomes.every((o) => o !== SKIPPED && o.status === 'fulfilled')).toBe(true);
    expect(budget).toMatchObject({ used: 10, exhausted: false });
  });

  it('skips what exceeds the handshake budget and says so', async () => {
    const budget = createRatingBudget({ handshakes: 2, concurrency: 8, deadlineMs: 5000 });
    const outcomes = await Promise.all([1, 2, 3].map(() => budget.run(async () => 1)));
    budget.close();
    expect(outcomes.filter((o) => o === SKIPPED)).toHaveLength(1);
    expect(budget).toMatchObject({ used: 2, exhausted: true });
  });

  it('keeps failures as rejected outcomes', async () => {
    const budget = createRatingBudget({ handshakes: 2, concurrency: 1, deadlineMs: 5000 });
    const outcome = await budget.run(async () => {
      throw new Error('refused');
    });
    budget.close();
    expect(outcome).toMatchObject({ status: 'rejected', reason: new Error('refused') });
  });

  it('stops waiting at the deadline: a probe in flight and those queued are skipped', async () => {
    const budget = createRatingBudget({ handshakes: 10, concurrency: 1, deadlineMs: 50 });
    const started = performance.now();
    const outcomes = await Promise.all([budget.run(() => wait(1000)), budget.run(() => wait(1000))]);
    budget.close();
    expect(outcomes).toEqual([SKIPPED, SKIPPED]);
    expect(performance.now() - started).toBeLessThan(500);
    expect(budget.exhausted).toBe(true);
  });
});
