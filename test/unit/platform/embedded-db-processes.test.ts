/**
 * The processes of an instance and their embedded databases (src/platform/embedded-db-processes.ts): a
 * process that hears of another process's commit reads it — the job worker told "job X was submitted" by
 * the primary finds job X, however recently it last read the store (without the new snapshot taken at each
 * message, most of these reads miss: lmdb-js keeps an event-loop turn's read transaction until a timer
 * renews it) — and a process that was writing exits when it stops.
 */
import { fork, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { fileAppearsWithoutYielding } from '../../helpers/wait-without-yielding.js';
import { openEmbeddedDb } from '../../../src/platform/embedded-db.js';
import { seeLatestCommits } from '../../../src/platform/embedded-db-processes.js';

const ROUNDS = 300;
const dir = mkdtempSync(join(tmpdir(), 'nd-snap-'));
const reader = fork(join(import.meta.dirname, 'snapshot-reader.ts'), [dir], {
  execArgv: ['--import', 'tsx'],
  stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
});
afterAll(() => {
  reader.kill();
});

it('a process reads what another committed before telling it so, every time', async () => {
  const shared = openEmbeddedDb(dir).openDB<string, string>({ name: 'shared' });
  await once(reader, 'message');
  let missed = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const key = `k${round}`;
    await shared.put(key, 'committed');
    reader.send({ key });
    const [answer] = (await once(reader, 'message')) as [{ key: string; seen: boolean }];
    expect(answer.key).toBe(key);
    if (!answer.seen) missed++;
  }
  expect(missed).toBe(0);
}, 60_000);

it("a request's reads see what was committed before it, even after a read earlier in the same turn", () => {
  const shared = openEmbeddedDb(dir).openDB<string, string>({ name: 'shared' });
  const marker = join(dir, 'written');
  shared.get('before'); // this turn's snapshot, taken before the other process commits
  const writer = spawn(
    process.execPath,
    ['--import', 'tsx', join(import.meta.dirname, 'snapshot-writer.ts'), dir, marker],
    {
      stdio: 'ignore',
    },
  );
  // the whole test is one turn of the event loop: the writer's commit is waited for by its marker file
  const written = fileAppearsWithoutYielding(marker, 20_000);
  writer.kill();
  expect(written).toBe(true);
  // lmdb-js's snapshot of this turn: why the request path starts a new one
  expect(shared.get('from-writer')).toBeUndefined();
  seeLatestCommits();
  expect(shared.get('from-writer')).toBe('committed');
});

it('a process that wrote until the moment it stops exits (exitAfterWrites), never blocked in the flush', async () => {
  // through a bare process.exit, about one such process in four stayed blocked for ever (lmdb-js's exit hook)
  const runs = Array.from({ length: 12 }, () => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', join(import.meta.dirname, 'busy-writer.ts'), mkdtempSync(join(tmpdir(), 'nd-exit-'))],
      { stdio: ['ignore', 'ignore', 'inherit'] },
    );
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    return new Promise<number | null>((resolve) =>
      child.on('exit', (code) => {
        clearTimeout(timer);
        resolve(code);
      }),
    );
  });
  expect(await Promise.all(runs)).toEqual(Array(12).fill(0));
}, 60_000);
