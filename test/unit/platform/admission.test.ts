import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  createAdmission,
  isRefusal,
  type AdmissionSettings,
  type LoopDelaySensor,
  type Ticket,
} from '../../../src/platform/admission.js';

const settings: AdmissionSettings = {
  maxInFlight: 2,
  maxQueued: 1,
  maxQueueWaitMs: 1_000,
  maxEventLoopDelayMs: 100,
  perKeyInFlight: 3,
};

function sensor(delay = 0): LoopDelaySensor & { delay: number } {
  return {
    delay,
    delayMs() {
      return this.delay;
    },
    close() {},
  };
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

  it('sheds a queued request that got no slot within maxQueueWaitMs, and frees its key', async () => {
    vi.useFakeTimers();
    const admission = createAdmission({ ...settings, perKeyInFlight: 3 }, sensor());
    await admission.admit('k');
    await admission.admit('k');
    const waiting = admission.admit('k');
    vi.advanceTimersByTime(999);
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

  it('sheds at once while the event loop runs late, and says so for readiness', async () => {
    const loop = sensor(250);
    const admission = createAdmission(settings, loop);
    // a check in flight: the late loop is the admitted work's (test/unit/platform/admission-loop.test.ts)
    expect(isRefusal(await admission.admit('running'))).toBe(false);
    expect(await admission.admit(null)).toMatchObject({ status: 503, reason: 'event-loop' });
    expect(admission.overload()).toMatch(/event loop runs 250 ms late/);
    loop.delay = 20;
    expect(isRefusal(await admission.admit(null))).toBe(false);
    expect(admission.overload()).toBeNull();
  });

  it('maxEventLoopDelayMs 0 turns the event-loop test off', async () => {
    const admission = createAdmission({ ...settings, maxEventLoopDelayMs: 0 }, sensor(5_000));
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
