/**
 * `paused` and `resumed` (docs/contract/monitors.md "Events"): a run the key's allowance cannot cover does
 * not start and the monitor is paused; the schedule goes on, and the first run the allowance covers again
 * resumes it. One event per change of state, for the whole monitor (no target, no check).
 */
import type { NewMonitorEvent } from './events.js';

export function chargeOutcome(
  paused: boolean,
  covered: boolean,
  now: Date,
): { paused: boolean; events: NewMonitorEvent[] } {
  if (covered === !paused) return { paused, events: [] };
  const at = now.toISOString();
  const event: NewMonitorEvent = covered
    ? {
        at,
        target: null,
        check: null,
        kind: 'resumed',
        severity: 'info',
        summary: "The key's allowance covers a run again: the monitor runs again.",
        changes: [],
      }
    : {
        at,
        target: null,
        check: null,
        kind: 'paused',
        severity: 'warning',
        summary:
          "A run could not be charged (the key's allowance does not cover it): the monitor is paused until it does.",
        changes: [],
      };
  return { paused: !covered, events: [event] };
}
