/**
 * Where a command's time goes (docs/cli.md "Performance"): with NETDIAG_CLI_TIMINGS=1 in the environment,
 * the command marks its steps with `performance.mark` (bin/netdiag.mjs marks its own) and prints them on
 * stderr at the end, each with the milliseconds since the process started and since the previous step,
 * after Node's own start-up milestones (`performance.nodeTiming`). Off, a mark is one comparison.
 */
import { performance } from 'node:perf_hooks';

/** read when asked, not when the module loads: a startup snapshot loads it before the command's environment exists */
const enabled = (): boolean => process.env.NETDIAG_CLI_TIMINGS === '1';

/** Marks the end of a step of the command, named for what just finished. */
export function mark(step: string): void {
  if (enabled()) performance.mark(`netdiag:${step}`);
}

/** The steps so far, one line each, for stderr; empty when timings are off. */
export function timingLines(): string[] {
  if (!enabled()) return [];
  const node = performance.nodeTiming;
  const steps: [string, number][] = [
    ['node: V8 started', node.v8Start],
    ['node: environment', node.environment],
    ['node: bootstrap complete', node.bootstrapComplete],
    ...performance
      .getEntriesByType('mark')
      .filter((m) => m.name.startsWith('netdiag:'))
      .map((m): [string, number] => [m.name.slice('netdiag:'.length), m.startTime]),
  ];
  steps.push(['now', performance.now()]);
  let previous = 0;
  return steps.map(([name, at]) => {
    const line = `${at.toFixed(1).padStart(8)} ms  +${(at - previous).toFixed(1).padStart(7)}  ${name}`;
    previous = at;
    return line;
  });
}
