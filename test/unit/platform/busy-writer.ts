/**
 * A process of the instance that writes to the embedded database without pause (asynchronous and
 * synchronous transactions, as the monitors' and the jobs' stores do), then stops writing and exits through
 * `exitAfterWrites` — or, with `bare`, through `process.exit` — at a moment of the writes' flushing
 * (embedded-db-processes.test.ts).
 */
import { exitAfterWrites } from '../../../src/platform/embedded-db-processes.js';
import { openEmbeddedDb } from '../../../src/platform/embedded-db.js';

const [dir, how] = process.argv.slice(2) as [string, string];
const root = openEmbeddedDb(dir);
const shared = root.openDB<number, string>({ name: 'shared' });
let n = 0;
let writing = true;
const asynchronous = (): void => {
  if (writing) void root.transaction(() => shared.put(`a${n++}`, n)).then(asynchronous);
};
const synchronous = (): void => {
  if (!writing) return;
  root.transactionSync(() => shared.put(`s${n++}`, n));
  setImmediate(synchronous);
};
asynchronous();
asynchronous();
synchronous();
setTimeout(
  () => {
    writing = false;
    if (how === 'bare') process.exit(0);
    else exitAfterWrites(0);
  },
  50 + Math.random() * 50,
);
