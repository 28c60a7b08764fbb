/**
 * The calls the monitor tests make over a harness's socket (../jobs/jobs-harness.ts): JSON answers, a
 * monitor and its events, waiting for runs to settle. Waiting polls with wide margins, never a fixed sleep.
 */
import type { JobsHarness } from '../jobs/jobs-harness.js';

export function monitorCalls(harness: () => JobsHarness) {
  async function json(path: string, init: Parameters<JobsHarness['call']>[1] = {}) {
    const response = await harness().call(path, init);
    return { response, body: response.status === 204 ? null : await response.json() };
  }

  async function until<T>(what: string, read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
    for (let i = 0; i < 600; i++) {
      const value = await read();
      if (done(value)) return value;
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new Error(`timed out waiting for ${what}`);
  }

  const monitorOf = async (id: string, key?: string) =>
    (await json(`/api/v1/monitors/${id}`, key ? { key } : {})).body.data;
  const eventsOf = async (id: string, key?: string): Promise<any[]> =>
    (await json(`/api/v1/monitors/${id}/events`, key ? { key } : {})).body.data.events;
  /** every pair has run in the monitor's last run (its lastRunAt at or after the monitor's) */
  const isSettled = (m: any) => m.state.every((s: any) => s.lastRunAt !== null && s.lastRunAt >= m.lastRunAt);
  const untilRuns = (id: string, runs: number) =>
    until(
      `${runs} runs of ${id}`,
      () => monitorOf(id),
      (m) => m.runs >= runs && isSettled(m),
    );

  return { json, until, monitorOf, eventsOf, untilRuns };
}
