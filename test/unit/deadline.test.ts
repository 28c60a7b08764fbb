import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { Deadline, untilAborted, withDeadline } from '../../src/deadline.js';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

const never = () => new Promise<never>(() => {});

describe('withDeadline', () => {
  it("answers with the work's value in time, and leaves no timer behind", async () => {
    await expect(withDeadline(Promise.resolve(7), 1000, () => 'late')).resolves.toBe(7);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("passes the work's failure on", async () => {
    await expect(withDeadline(Promise.reject(new Error('refused')), 1000, () => 'late')).rejects.toThrow('refused');
    expect(vi.getTimerCount()).toBe(0);
  });

  it("answers with onLate's value once the time is up, not before", async () => {
    const outcome = withDeadline(never(), 1000, () => 'late');
    await vi.advanceTimersByTimeAsync(999);
    let settled = false;
    void outcome.then(() => {
      settled = true;
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await expect(outcome).resolves.toBe('late');
  });

  it('rejects with what onLate throws', async () => {
    const outcome = withDeadline(never(), 50, () => {
      throw new Error('too slow');
    });
    const checked = expect(outcome).rejects.toThrow('too slow');
    await vi.advanceTimersByTimeAsync(50);
    await checked;
  });
});

describe('untilAborted', () => {
  it('rejects with the abort error when the signal fires, and removes its listener when the work wins', async () => {
    const controller = new AbortController();
    const outcome = untilAborted(never(), controller.signal, () => new Error('request ended'));
    const checked = expect(outcome).rejects.toThrow('request ended');
    controller.abort();
    await checked;

    const quiet = new AbortController();
    const remove = vi.spyOn(quiet.signal, 'removeEventListener');
    await expect(untilAborted(Promise.resolve('done'), quiet.signal, () => new Error('x'))).resolves.toBe('done');
    expect(remove).toHaveBeenCalledTimes(1);
  });

  it('refuses at once on a signal that has already fired, dropping the work quietly', async () => {
    await expect(
      untilAborted(Promise.reject(new Error('late failure')), AbortSignal.abort(), () => new Error('ended')),
    ).rejects.toThrow('ended');
  });

  it('waits for the work alone without a signal', async () => {
    await expect(untilAborted(Promise.resolve(3), undefined, () => new Error('x'))).resolves.toBe(3);
  });
});

describe('Deadline', () => {
  it('aborts when the time is up, saying so, and leaves nothing behind', async () => {
    const caller = new AbortController();
    const remove = vi.spyOn(caller.signal, 'removeEventListener');
    const deadline = new Deadline(100, caller.signal);
    await vi.advanceTimersByTimeAsync(99);
    expect(deadline.signal.aborted).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(deadline.signal.aborted).toBe(true);
    expect(deadline.timedOut()).toBe(true);
    // the end released the listener and the timer; releasing again is harmless
    expect(remove).toHaveBeenCalledTimes(1);
    expect(vi.getTimerCount()).toBe(0);
    deadline.release();
  });

  it("aborts with the caller's signal, which is not a time-out", () => {
    const caller = new AbortController();
    const deadline = new Deadline(100, caller.signal);
    caller.abort();
    expect(deadline.signal.aborted).toBe(true);
    expect(deadline.timedOut()).toBe(false);
    deadline.release();
    expect(vi.getTimerCount()).toBe(0);
    const already = new Deadline(100, AbortSignal.abort());
    expect(already.signal.aborted).toBe(true);
    already.release();
  });

  it('races work: its value before the end, the stable error from the end on', async () => {
    const deadline = new Deadline(100);
    const ended = () => new Error(deadline.timedOut() ? 'timed out' : 'aborted');
    await expect(deadline.race(Promise.resolve(1), ended)).resolves.toBe(1);
    const late = deadline.race(never(), ended);
    const caught = expect(late).rejects.toThrow('timed out');
    await vi.advanceTimersByTimeAsync(100);
    await caught;
    await expect(deadline.race(Promise.reject(new Error('dropped')), ended)).rejects.toThrow('timed out');
    expect(deadline.explain(new Error('socket closed'), ended)).toMatchObject({ message: 'timed out' });
    expect(vi.getTimerCount()).toBe(0);
  });

  it('end() aborts with its reason and releases the timer; an error before the end is kept', () => {
    const deadline = new Deadline(100);
    expect(deadline.explain(new Error('refused'), () => new Error('x'))).toMatchObject({ message: 'refused' });
    deadline.end('finished');
    expect(deadline.signal.reason).toBe('finished');
    expect(deadline.timedOut()).toBe(false);
    expect(vi.getTimerCount()).toBe(0);
  });
});
