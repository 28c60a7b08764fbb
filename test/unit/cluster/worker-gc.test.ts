import { describe, expect, it } from 'vitest';
import { workerExecArgv, workersCollectAlone } from '../../../src/cluster/worker-gc.js';

describe('server.singleThreadedGc', () => {
  it("'auto' chooses it when the workers fill every core, not when cores are left for the helpers", () => {
    expect(workersCollectAlone('auto', 2, 2)).toBe(true);
    expect(workersCollectAlone('auto', 4, 2)).toBe(true);
    expect(workersCollectAlone('auto', 2, 4)).toBe(false);
  });

  it('true and false decide it whatever the cores', () => {
    expect(workersCollectAlone(true, 2, 8)).toBe(true);
    expect(workersCollectAlone(false, 8, 2)).toBe(false);
  });

  it("adds the flag after the primary's own flags", () => {
    expect(workerExecArgv(['--max-semi-space-size=8'], true)).toEqual([
      '--max-semi-space-size=8',
      '--single-threaded-gc',
    ]);
    expect(workerExecArgv(['--max-semi-space-size=8'], false)).toEqual(['--max-semi-space-size=8']);
  });

  it("leaves the operator's own choice on the command line alone", () => {
    expect(workerExecArgv(['--no-single-threaded-gc'], true)).toEqual(['--no-single-threaded-gc']);
    expect(workerExecArgv(['--single-threaded-gc'], true)).toEqual(['--single-threaded-gc']);
  });
});
