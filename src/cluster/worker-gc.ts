/**
 * The workers' garbage-collection flags (docs/operations.md "Every core"): how many helper threads V8 gets.
 *
 * V8 hands parts of every collection (parallel scavenges, concurrent marking) to the threads of Node's
 * platform pool, four by default. When the workers already fill the cores, four helpers per worker only
 * take turns on cores the siblings need, and each thread keeps its own malloc arena: with two workers on
 * two cores, a pool of one thread per worker (the cores shared out among the workers) kept the same
 * answers per second on the loopback load mix and less RSS per worker at rest and at peak. So each
 * worker gets `--v8-pool-size` = its share of the cores (at least 1), in place of the launch flags' pool
 * (`--v8-pool-size=2`, which sizes a single process: one process on two cores answered as fast with 2
 * helpers as with 4, with less RSS).
 *
 * `--single-threaded-gc` goes further (no helpers at all): with two workers on two cores it answered a
 * little more per second, but the peak RSS per worker rose, on Node 24 by far, the collections falling
 * behind the allocation. Memory is the scarcer of the two for most deployments, so the default keeps the
 * helpers; an operator who wants it puts the flag on node's command line (NODE_OPTIONS refuses it), and the
 * workers inherit it with the rest. The figures: docs/performance.md "Measured reasons behind design choices".
 *
 * These flags are read when V8 starts, so they go on the workers' command line; the primary, which serves
 * no HTTP, keeps its own.
 */

const POOL_SIZE = '--v8-pool-size';

export interface WorkerGcOptions {
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
 * The workers' node flags: the primary's (the operator's `--single-threaded-gc` among them), with the helper
 * pool sized to the worker's share of the cores (replacing the pool of the launch flags).
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
  return flags;
}
