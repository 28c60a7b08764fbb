/**
 * The event-loop test of admission control (src/platform/admission.ts): it sheds only while checks are
 * in flight and the delay persists over several sampling periods, never on one late turn (a start-up's
 * module loading, a first burst's compilations, a pause of the whole machine).
 */
import { describe, expect, it } from 'vitest';
import {
  createAdmission,
  eventLoopDelaySensor,
  isRefusal,
  persistingDelay,
  type AdmissionSettings,
  type LoopDelaySensor,
  type Ticket,
} from '../../../src/platform/admission.js';

const settings: AdmissionSettings = {
  maxInFlight: 10,
  maxQueued: 10,
  maxQueueWaitMs: 1_000,
  maxEventLoopDelayMs: 100,
  perKeyInFlight: 10,
};

const late = (delay: number): LoopDelaySensor => ({ delayMs: () => delay, close() {} });

/** Blocks this process's event loop for `ms` (the late turn under test). */
function blockFor(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end);
}

const turns = (n: number, periodMs: number) => new Promise((r) => setTimeout(r, n * periodMs));

describe('the event-loop test of admission control', () => {
  it('takes the delay every one of the last periods showed, none before there are enough', () => {
    expect(persistingDelay([], 3)).toBe(0);
    expect(persistingDelay([900, 900], 3)).toBe(0);
    expect(persistingDelay([0, 900, 0], 3)).toBe(0); // one late turn
    expect(persistingDelay([150, 900, 120], 3)).toBe(120);
    expect(persistingDelay([0, 150, 900, 120], 3)).toBe(120); // only the last three count
  });

  it('admits while nothing is in flight, however late the loop, and sheds once a check runs', async () => {
    const admission = createAdmission(settings, late(500));
    expect(admission.overload()).toBeNull();
    const first = await admission.admit('a');
    expect(isRefusal(first)).toBe(false);
    expect(await admission.admit('b')).toMatchObject({ status: 503, reason: 'event-loop' });
    expect(admission.overload()).toMatch(/event loop runs 500 ms late/);
    (first as Ticket).release();
    expect(isRefusal(await admission.admit('c'))).toBe(false);
  });

  it('does not count one long turn of the real loop as a late loop', async () => {
    const periodMs = 50;
    const sensor = eventLoopDelaySensor(periodMs, 3);
    try {
      await turns(4, periodMs);
      blockFor(400);
      const readings: number[] = [];
      for (let i = 0; i < 6; i++) {
        await turns(1, periodMs);
        readings.push(sensor.delayMs());
      }
      expect(Math.max(...readings)).toBeLessThan(settings.maxEventLoopDelayMs);
    } finally {
      sensor.close();
    }
  });

  it('reports a delay that lasts over every period of the real loop', async () => {
    const periodMs = 50;
    const sensor = eventLoopDelaySensor(periodMs, 3);
    try {
      // a loop that turns late again and again: each turn blocks longer than a period
      let peak = 0;
      for (let turn = 0; turn < 8; turn++) {
        await new Promise((r) => setImmediate(r));
        blockFor(4 * periodMs);
        peak = Math.max(peak, sensor.delayMs());
      }
      expect(peak).toBeGreaterThan(settings.maxEventLoopDelayMs);
    } finally {
      sensor.close();
    }
  });
});
