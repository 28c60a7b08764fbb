/**
 * Admission control (src/platform/admission.ts): slots, the queue, and shedding what cannot be served in
 * time — the wait a request would have (the requests ahead of it over the measured rate slots free up, plus
 * the event loop's delay), or its age in the queue — with a clock the test moves.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  createAdmission,
  isRefusal,
  MAX_WAIT_MS,
  serviceRate,
  type AdmissionSettings,
  type LoopDelaySensor,
  type Refusal,
  type Ticket,
} from '../../../src/platform/admission.js';

const settings: AdmissionSettings = { maxInFlight: 2, maxQueued: 1, perKeyInFlight: 3 };

function sensor(delay = 0): LoopDelaySensor & { delay: number } {
  return {
    delay,
    delayMs() {
      return this.delay;
    },
    close() {},
  };
}

/** A clock the test moves. */
function clock() {
  let t = 1_000;
  return { now: () => t, advance: (ms: number) => (t += ms) };
}

afterEach(() => vi.useRealTimers());

describe('admission control', () => {
  it('runs maxInFlight at once, queues the next maxQueued in order, sheds the rest with 503', async () => {
    const admission = createAdmission(settings, sensor());
    const a = (await admission.admit('a')) as Ticket;
    const b = (await admission.admit('b')) as Ticket;
    expect(isRefusal(a) || isRefusal(b)).toBe(false);
    const waiting = admission.admit('c');
    await Promise.resolve();
    expect(admission.state()).toMatchObject({ inFlight: 2, queued: 1 });
    const shed = await admission.admit('d');
    expect(shed).toMatchObject({ status: 503, reason: 'queue-full', retryAfterSeconds: 2 });
    expect(isRefusal(shed) && shed.message).toMatch(/overloaded.*nothing was charged/);
    expect(admission.overload()).toMatch(/2 check requests running and 1 waiting/);

    a.release();
    a.release(); // idempotent: frees one slot only
    const c = await waiting;
    expect(isRefusal(c)).toBe(false);
    expect(admission.state()).toMatchObject({ inFlight: 2, queued: 0 });
    expect(admission.overload()).toBeNull();
    b.release();
    (c as Ticket).release();
    expect(admission.state()).toMatchObject({ inFlight: 0, queued: 0 });
  });

  it('sheds a queued request that got no slot within MAX_WAIT_MS, and frees its key', async () => {
    vi.useFakeTimers();
    const admission = createAdmission(settings, sensor());
    await admission.admit('k');
    await admission.admit('k');
    const waiting = admission.admit('k');
    vi.advanceTimersByTime(MAX_WAIT_MS - 1);
    expect(admission.state().queued).toBe(1);
    vi.advanceTimersByTime(1);
    expect(await waiting).toMatchObject({ status: 503, reason: 'queue-wait' });
    // the key holds two again, so a third may queue
    expect(admission.state()).toMatchObject({ inFlight: 2, queued: 0 });
    const again = admission.admit('k');
    expect(admission.state().queued).toBe(1);
    admission.close();
    expect(await again).toMatchObject({ status: 503 });
  });

  it('queues what the measured rate serves within MAX_WAIT_MS, and sheds at once what it would not', async () => {
    const time = clock();
    const admission = createAdmission({ maxInFlight: 4, maxQueued: 1_000, perKeyInFlight: 1_000 }, sensor(), time.now);
    const running: Promise<Ticket | Refusal>[] = [];
    for (let i = 0; i < 4; i++) running.push(admission.admit(null));
    // every slot taken: a slot frees every 100 ms (10 a second), each handing its slot to a waiter
    const queued: typeof running = [];
    for (let i = 0; i < 10; i++) queued.push(admission.admit(null));
    const slots = [...running];
    for (let i = 0; i < 10; i++) {
      time.advance(100);
      ((await slots[i]) as Ticket).release();
      slots.push(queued[i]!);
    }
    expect(admission.state().servedPerSecond).toBeCloseTo(10, -1);
    // at about 10 a second, about 20 may wait: the next would wait past MAX_WAIT_MS
    while (admission.state().expectedWaitMs <= MAX_WAIT_MS) slots.push(admission.admit(null));
    const waiting = admission.state().queued;
    expect(waiting).toBeGreaterThanOrEqual(18);
    expect(waiting).toBeLessThanOrEqual(21);
    const shed = await admission.admit(null);
    expect(shed).toMatchObject({ status: 503, reason: 'expected-wait', retryAfterSeconds: 2 });
    expect(isRefusal(shed) && shed.message).toMatch(
      new RegExp(`a request would wait about 2\\.\\d s for a slot, ${waiting} waiting`),
    );
    expect(admission.overload()).toMatch(/overloaded: a request would wait about 2\.\d s/);
    // the queue moves: one fewer ahead, and a new request is served in time again
    time.advance(100);
    ((await slots[10]) as Ticket).release();
    expect(admission.overload()).toBeNull();
    expect(admission.state().queued).toBe(waiting - 1);
    admission.close();
  });

  it('sheds nothing on the rate until slots have freed while every one was taken', async () => {
    const time = clock();
    const admission = createAdmission({ maxInFlight: 4, maxQueued: 500, perKeyInFlight: 500 }, sensor(), time.now);
    // one at a time, three slots free: what frees says what arrives, not what the process serves
    for (let i = 0; i < 20; i++) {
      const t = (await admission.admit(null)) as Ticket;
      time.advance(1_000);
      t.release();
    }
    expect(admission.state().servedPerSecond).toBeNull();
    for (let i = 0; i < 4; i++) await admission.admit(null);
    const waiting = Array.from({ length: 300 }, () => admission.admit(null));
    // none shed at once: the age in the queue bounds them until the rate is known
    expect(admission.state().queued).toBe(300);
    admission.close();
    await Promise.all(waiting);
  });

  it('counts how late the event loop runs in the wait, whether checks run or not', async () => {
    const loop = sensor(MAX_WAIT_MS + 500);
    const admission = createAdmission(settings, loop);
    expect(await admission.admit(null)).toMatchObject({ status: 503, reason: 'expected-wait' });
    expect(admission.overload()).toMatch(/a request would wait about 2\.5 s for a slot/);
    // a busy loop, as at full throughput, is no overload
    loop.delay = 250;
    expect(isRefusal(await admission.admit(null))).toBe(false);
    expect(admission.overload()).toBeNull();
  });

  it('caps one key at perKeyInFlight (running or waiting) with a 429 about concurrency; other keys pass', async () => {
    const admission = createAdmission({ ...settings, maxInFlight: 10, perKeyInFlight: 2 }, sensor());
    const first = (await admission.admit('busy')) as Ticket;
    await admission.admit('busy');
    const refused = await admission.admit('busy');
    expect(refused).toMatchObject({ status: 429, reason: 'key-concurrency' });
    expect(isRefusal(refused) && refused.message).toMatch(/concurrency limit, not the credit allowance/);
    expect(isRefusal(await admission.admit('other'))).toBe(false);
    expect(isRefusal(await admission.admit(null))).toBe(false);
    first.release();
    expect(isRefusal(await admission.admit('busy'))).toBe(false);
  });
});

describe('the service rate', () => {
  it('is the slots freed over the time every slot was taken, following the mix as it changes', () => {
    const rate = serviceRate(1_000);
    expect(rate.perMs(0)).toBeNull();
    rate.saturated(0, true);
    for (let t = 50; t <= 1_000; t += 50) rate.completed(t); // 20 a second
    expect(rate.perMs(1_000)! * 1000).toBeCloseTo(20, 0);
    // idle: no time counts, nothing freed counts; the rate is kept
    rate.saturated(1_000, false);
    rate.completed(1_500);
    expect(rate.perMs(1_500)! * 1000).toBeCloseTo(20, 0);
    // a slower mix: after a few half-lives the rate is its own
    rate.saturated(1_500, true);
    for (let t = 1_700; t <= 11_500; t += 200) rate.completed(t); // 5 a second
    expect(rate.perMs(11_500)! * 1000).toBeCloseTo(5, 0);
  });
});
