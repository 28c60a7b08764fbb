import { describe, expect, it } from 'vitest';
import { workerExecArgv } from '../../../src/cluster/worker-gc.js';

describe('server.singleThreadedGc', () => {
  it("adds the flag after the primary's own flags when chosen", () => {
    expect(workerExecArgv(['--max-semi-space-size=8'], true)).toEqual([
      '--max-semi-space-size=8',
      '--single-threaded-gc',
    ]);
    expect(workerExecArgv(['--max-semi-space-size=8'], false)).toEqual(['--max-semi-space-size=8']);
  });

  it("leaves the operator's own choice on the command line alone", () => {
    expect(workerExecArgv(['--no-single-threaded-gc'], true)).toEqual(['--no-single-threaded-gc']);
    expect(workerExecArgv(['--single-threaded-gc'], false)).toEqual(['--single-threaded-gc']);
  });
});
