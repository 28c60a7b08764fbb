/**
 * The workers' garbage-collection flags (docs/operations.md "Every core"): how many helper threads V8 gets, and
 * whether it uses them at all (`server.singleThreadedGc`).
 *
 * V8 hands parts of every collection (parallel scavenges, concurrent marking) to the threads of Node's
 * platform pool, four by default. When the workers already fill the cores, four helpers per worker only
 * take turns on cores the siblings need, and each thread keeps its own malloc arena: with two workers on
 * two cores, a pool of one thread per worker (the cores shared out among the workers) kept the same
 * answers per second on the loopback load mix and 6–7 MB less RSS per worker at rest and at peak. So each
 * worker gets `--v8-pool-size` = its share of the cores (at least 1), in place of the launch flags' pool
 * (`--v8-pool-size=2`, which sizes a single process: one process on two cores answered as fast with 2
 * helpers as with 4, with 4–5 MB less RSS).
 *
 * `--single-threaded-gc` goes further (no helpers at all): with two workers on two cores it answered 2 %
 * (Node 20) to 6 % (Node 24) more per second, but the peak RSS per worker rose by 7 MB (Node 20) and by
 * 90 MB (Node 24), the collections falling behind the allocation. Memory is the scarcer of the two for
 * most deployments, so the default keeps the helpers and the key lets an operator choose.
 *
 * These flags are read when V8 starts, so they go on the workers' command line; the primary, which serves
 * no HTTP, keeps its own.
 */

const SINGLE_THREADED = '--single-threaded-gc';
const POOL_SIZE = '--v8-pool-size';

export interface WorkerGcOptions {
  /** `server.singleThreadedGc` */
  singleThreadedGc: boolean;
  /** how many workers the primary forks */
  workers: number;
  /** the cores the process may use (os.availableParallelism()) */
  cores: number;
}

/** Helper threads per worker: the worker's share of the cores, at least one. */
export function helperPoolSize(workers: number, cores: number): number {
  return Math.max(1, Math.floor(cores / Math.max(1, workers)));
}

/**
 * The workers' node flags: the primary's, with the helper pool sized to the worker's share of the cores
 * (replacing the pool of the launch flags), and `--single-threaded-gc` when chosen and the operator's
 * command line does not already decide it (either way).
 */
export function workerExecArgv(primaryExecArgv: readonly string[], options: WorkerGcOptions): string[] {
  const flags: string[] = [];
  for (let i = 0; i < primaryExecArgv.length; i++) {
    const flag = primaryExecArgv[i]!;
    if (flag === POOL_SIZE)
      i++; // "--v8-pool-size N": its value goes too
    else if (!flag.startsWith(`${POOL_SIZE}=`)) flags.push(flag);
  }
  flags.push(`${POOL_SIZE}=${helperPoolSize(options.workers, options.cores)}`);
  const gcDecided = primaryExecArgv.some((a) => a === SINGLE_THREADED || a === '--no-single-threaded-gc');
  if (options.singleThreadedGc && !gcDecided) flags.push(SINGLE_THREADED);
  return flags;
}
