/**
 * Waits for a file to appear without giving the event loop a turn: for tests about what one turn of the
 * loop sees (a snapshot lmdb-js keeps until a timer runs), where another process's step must happen in the
 * middle of the turn. The file is that process's sign that its step is done. True when it appeared within
 * `ms`.
 */
import { existsSync } from 'node:fs';

export function fileAppearsWithoutYielding(path: string, ms: number): boolean {
  const pause = new Int32Array(new SharedArrayBuffer(4));
  const deadline = Date.now() + ms;
  while (!existsSync(path) && Date.now() < deadline) Atomics.wait(pause, 0, 0, 20);
  return existsSync(path);
}
