import { describe, expect, it } from 'vitest';
import { helperPoolSize, workerExecArgv } from '../../../src/cluster/worker-gc.js';

const twoOnTwo = { workers: 2, cores: 2 };

describe("the workers' GC helper pool", () => {
  it("is each worker's share of the cores, at least one thread", () => {
    expect(helperPoolSize(2, 2)).toBe(1);
    expect(helperPoolSize(1, 2)).toBe(2);
    expect(helperPoolSize(4, 16)).toBe(4);
    expect(helperPoolSize(3, 8)).toBe(2);
    expect(helperPoolSize(8, 2)).toBe(1);
  });

  it("goes after the primary's own flags", () => {
    expect(workerExecArgv(['--max-semi-space-size=8'], { singleThreadedGc: false, ...twoOnTwo })).toEqual([
      '--max-semi-space-size=8',
      '--v8-pool-size=1',
    ]);
  });

  it('replaces the pool of the launch flags (which sizes a single process)', () => {
    const opts = { singleThreadedGc: false, ...twoOnTwo };
    expect(workerExecArgv(['--max-semi-space-size=8', '--v8-pool-size=2'], opts)).toEqual([
      '--max-semi-space-size=8',
      '--v8-pool-size=1',
    ]);
    expect(workerExecArgv(['--v8-pool-size', '3', '--inspect'], opts)).toEqual(['--inspect', '--v8-pool-size=1']);
  });
});

describe('server.singleThreadedGc', () => {
  it("adds the flag after the primary's own flags when chosen", () => {
    expect(workerExecArgv(['--max-semi-space-size=8'], { singleThreadedGc: true, ...twoOnTwo })).toEqual([
      '--max-semi-space-size=8',
      '--v8-pool-size=1',
      '--single-threaded-gc',
    ]);
    expect(workerExecArgv(['--max-semi-space-size=8'], { singleThreadedGc: false, ...twoOnTwo })).not.toContain(
      '--single-threaded-gc',
    );
  });

  it("leaves the operator's own choice on the command line alone", () => {
    const opts = { ...twoOnTwo, singleThreadedGc: true };
    expect(workerExecArgv(['--no-single-threaded-gc'], opts)).not.toContain('--single-threaded-gc');
    expect(workerExecArgv(['--single-threaded-gc'], { ...opts, singleThreadedGc: false })).toContain(
      '--single-threaded-gc',
    );
  });
});
