/**
 * The embedded database (src/platform/embedded-db.ts): ordered composite keys for range reads, one
 * environment shared by two processes, and a committed write that survives SIGKILL of its writer.
 */
import { fork } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { once } from 'node:events';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { openEmbeddedDb } from '../../../src/platform/embedded-db.js';

const dataDir = () => mkdtempSync(join(tmpdir(), 'nd-db-'));

/** A child that commits one value, says so, then waits to be killed. */
const WRITER = `
const [lmdbUrl, path, value] = process.argv.slice(2);
const { open } = await import(lmdbUrl);
const db = open({ path, maxDbs: 32 }).openDB({ name: 'shared' });
await db.put('from-child', value);
process.send('committed');
setInterval(() => {}, 1000);
`;

describe('embedded database', () => {
  it('reads a range of composite keys in order, newest first', async () => {
    const runs = openEmbeddedDb(dataDir()).openDB<number, (string | number)[]>({ name: 'runs' });
    for (const at of [5, 100, 7, 30]) await runs.put(['m1', 'example.com', at], at);
    await runs.put(['m1', 'example.net', 50], 50);
    const newest = [
      ...runs.getRange({
        start: ['m1', 'example.com', Number.MAX_SAFE_INTEGER],
        end: ['m1', 'example.com'],
        reverse: true,
      }),
    ].map((e) => e.value);
    expect(newest).toEqual([100, 30, 7, 5]);
  });

  it('is shared with another process, and its committed write survives SIGKILL', async () => {
    const dir = dataDir();
    const db = openEmbeddedDb(dir).openDB<string, string>({ name: 'shared' });
    const script = join(dir, 'writer.mjs');
    writeFileSync(script, WRITER);
    // the script lives outside the project: it is handed the project's lmdb by address
    const lmdbUrl = pathToFileURL(createRequire(import.meta.url).resolve('lmdb')).href;
    const child = fork(script, [lmdbUrl, join(dir, 'db'), 'kept'], {
      stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
      execArgv: [],
    });
    const message = await Promise.race([
      once(child, 'message').then(([m]) => m),
      once(child, 'exit').then(([code]) => `exited with ${code}`),
    ]);
    expect(message).toBe('committed');
    child.kill('SIGKILL');
    await once(child, 'exit');
    // the parent's environment sees the other process's committed write
    expect(db.get('from-child')).toBe('kept');
  });
});
