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
    expect(workerExecArgv(['--max-semi-space-size=8'], twoOnTwo)).toEqual([
      '--max-semi-space-size=8',
      '--v8-pool-size=1',
    ]);
  });

  it('replaces the pool of the launch flags (which sizes a single process)', () => {
    const opts = twoOnTwo;
    expect(workerExecArgv(['--max-semi-space-size=8', '--v8-pool-size=2'], opts)).toEqual([
      '--max-semi-space-size=8',
      '--v8-pool-size=1',
    ]);
    expect(workerExecArgv(['--v8-pool-size', '3', '--inspect'], opts)).toEqual(['--inspect', '--v8-pool-size=1']);
  });
});

describe("an operator's --single-threaded-gc", () => {
  it("reaches the workers with the primary's other flags", () => {
    expect(workerExecArgv(['--single-threaded-gc', '--max-semi-space-size=8'], twoOnTwo)).toEqual([
      '--single-threaded-gc',
      '--max-semi-space-size=8',
      '--v8-pool-size=1',
    ]);
    expect(workerExecArgv(['--max-semi-space-size=8'], twoOnTwo)).not.toContain('--single-threaded-gc');
  });
});
