/**
 * The event loop's delay as admission control reads it (src/platform/admission.ts: part of the wait a
 * request would have): a delay that persists over several sampling periods, never one late turn (a
 * start-up's module loading, a first burst's compilations, a pause of the whole machine).
 */
import { describe, expect, it } from 'vitest';
import { eventLoopDelaySensor, persistingDelay } from '../../../src/platform/admission.js';

/** A delay well past the sampling periods' scale: what a loop that keeps turning late shows. */
const LATE_MS = 100;

/** Blocks this process's event loop for `ms` (the late turn under test). */
function blockFor(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end);
}

const turns = (n: number, periodMs: number) => new Promise((r) => setTimeout(r, n * periodMs));

describe("admission control's event-loop sensor", () => {
  it('takes the delay every one of the last periods showed, none before there are enough', () => {
    expect(persistingDelay([], 3)).toBe(0);
    expect(persistingDelay([900, 900], 3)).toBe(0);
    expect(persistingDelay([0, 900, 0], 3)).toBe(0); // one late turn
    expect(persistingDelay([150, 900, 120], 3)).toBe(120);
    expect(persistingDelay([0, 150, 900, 120], 3)).toBe(120); // only the last three count
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
      expect(Math.max(...readings)).toBeLessThan(LATE_MS);
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
      expect(peak).toBeGreaterThan(LATE_MS);
    } finally {
      sensor.close();
    }
  });
});
