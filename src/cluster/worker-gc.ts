/**
 * Whether the workers collect garbage on their own thread only (`server.singleThreadedGc`, README
 * "Every core").
 *
 * V8 hands parts of every collection (parallel scavenges, concurrent marking) to helper threads. When the
 * workers already fill every core, a worker's helpers run on a core a sibling needs: with two workers on
 * two cores, `--single-threaded-gc` answered 2 % (Node 20) to 6 % (Node 24) more per second on the
 * loopback load mix, but the peak RSS per worker rose by 7 MB (Node 20) and by 90 MB (Node 24), the
 * collections falling behind the allocation. Memory is the scarcer of the two for most deployments, so
 * the default keeps the helpers and the key lets an operator choose.
 *
 * The flag is read when V8 starts, so it goes on the workers' command line; the primary, which serves
 * no HTTP, keeps its own.
 */

const FLAG = '--single-threaded-gc';

/**
 * The workers' node flags: the primary's, plus `--single-threaded-gc` when chosen and the operator's
 * command line does not already decide it (either way).
 */
export function workerExecArgv(primaryExecArgv: readonly string[], singleThreadedGc: boolean): string[] {
  const decided = primaryExecArgv.some((a) => a === FLAG || a === '--no-single-threaded-gc');
  return singleThreadedGc && !decided ? [...primaryExecArgv, FLAG] : [...primaryExecArgv];
}
