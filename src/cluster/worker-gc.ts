/**
 * Whether the workers collect garbage on their own thread only (`server.singleThreadedGc`, README
 * "Every core").
 *
 * V8 hands parts of every collection (parallel scavenges, concurrent marking) to helper threads. A
 * single process on a machine with idle cores gains from them; but when the workers already fill every
 * core, a worker's helpers run on a core another worker needs, and the handing over costs CPU of its
 * own. On the loopback load mix with two workers on two cores, `--single-threaded-gc` gave 6 % more
 * answers per second (and one worker alone 8 % fewer: there it is left out).
 *
 * The flag is read when V8 starts, so it goes on the workers' command line; the primary, which serves
 * no HTTP, keeps its own.
 */

export type SingleThreadedGc = 'auto' | boolean;

const FLAG = '--single-threaded-gc';

/** Whether the workers get the flag: 'auto' when they are at least as many as the cores. */
export function workersCollectAlone(setting: SingleThreadedGc, workers: number, cores: number): boolean {
  return setting === 'auto' ? workers >= cores : setting;
}

/**
 * The workers' node flags: the primary's, plus `--single-threaded-gc` when chosen and the operator's
 * command line does not already decide it (either way).
 */
export function workerExecArgv(primaryExecArgv: readonly string[], collectAlone: boolean): string[] {
  const decided = primaryExecArgv.some((a) => a === FLAG || a === '--no-single-threaded-gc');
  return collectAlone && !decided ? [...primaryExecArgv, FLAG] : [...primaryExecArgv];
}
