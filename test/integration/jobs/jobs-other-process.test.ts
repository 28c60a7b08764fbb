/**
 * A request reads what another process of the instance committed before it (src/platform/embedded-db-processes.ts):
 * with several API workers and a job worker on one embedded database, a client that was told of a job by one
 * process must find it on any other. The test's process stands in for an API worker that read the store
 * earlier in the same turn of its event loop (lmdb-js keeps that turn's snapshot until a timer renews it);
 * a child process stores a job meanwhile; the request that follows must see it.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { fileAppearsWithoutYielding } from '../../helpers/wait-without-yielding.js';
import { localJobBus } from '../../../src/jobs/job-bus.js';
import { createTestApp, TEST_KEY, type TestApp } from '../../helpers/app.js';

const dataDir = mkdtempSync(join(tmpdir(), 'nd-jobs-other-'));
let t: TestApp | undefined;
afterAll(async () => {
  await t?.close();
});

it('a request finds the job another process stored just before it, however recent the last read', async () => {
  // an API worker: the runner lives elsewhere
  t = await createTestApp({ server: { dataDir } }, {}, { jobs: { kind: 'elsewhere', bus: localJobBus() } });
  const submitted = await t.app.fetch(
    new Request('http://netdiag.test/api/v1/jobs', {
      method: 'POST',
      headers: { 'x-api-key': TEST_KEY, 'content-type': 'application/json' },
      body: JSON.stringify({ tool: 'mx-lookup', targets: ['example.com'] }),
    }),
    { peerAddress: '127.0.0.1' },
  );
  expect(submitted.status).toBe(202);
  const first = ((await submitted.json()) as { data: { id: string } }).data.id;

  const marker = join(dataDir, 'copied');
  const writer = join(import.meta.dirname, 'other-process-writer.ts');
  const read = (id: string) =>
    t!.app.fetch(new Request(`http://netdiag.test/api/v1/jobs/${id}`, { headers: { 'x-api-key': TEST_KEY } }), {
      peerAddress: '127.0.0.1',
    });
  // From here to the last request, one turn of the event loop (the app's answers need no I/O): a request
  // now reads the store, which fixes this turn's snapshot ...
  expect((await read(first)).status).toBe(200);
  // ... the other process stores its job (its commit waited for by the marker file, without yielding) ...
  const child = spawn(process.execPath, ['--import', 'tsx', writer, dataDir, first, marker], { stdio: 'inherit' });
  expect(fileAppearsWithoutYielding(marker, 20_000)).toBe(true);
  const copied = readFileSync(marker, 'utf8');
  // ... and the next request is read before any timer could renew the snapshot
  const found = await read(copied);
  expect(found.status).toBe(200);
  expect(((await found.json()) as { data: { id: string } }).data.id).toBe(copied);
  child.kill();
}, 60_000);
