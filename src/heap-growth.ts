/**
 * How far V8 lets the heap grow past what survived the last full collection before it collects again
 * (`server.heapGrowthPercent`, README "Under load").
 *
 * Left to its own heuristics, V8 grows the old generation by up to 4× what survived when a process
 * allocates fast: on the loopback load mix a worker that keeps 40–45 MB reached 350 MB of RSS, all of
 * it garbage not yet collected. A fixed growth factor keeps the peak near what is live without the hard
 * ceiling of `--max-old-space-size` (which ends the process with "heap out of memory" when a burst of
 * large answers needs more): the heap may still grow as far as it must, collecting more often on the
 * way. V8 reads this flag at every full collection, so setting it at start-up takes effect.
 */
import { setFlagsFromString } from 'node:v8';

/** The V8 flag for a growth of `percent` % (0 leaves V8's own heuristics). */
export function heapGrowthFlag(percent: number): string | null {
  if (!Number.isInteger(percent) || percent < 0) throw new RangeError(`not a growth percentage: ${percent}`);
  return percent === 0 ? null : `--heap-growing-percent=${percent}`;
}

export function applyHeapGrowth(percent: number): void {
  const flag = heapGrowthFlag(percent);
  if (flag) setFlagsFromString(flag);
}
