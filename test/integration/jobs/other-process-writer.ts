/**
 * Another process of the instance storing a job (jobs-other-process.test.ts): a copy of job `argv[3]` under
 * a new id, for the same key, written to the embedded store in `argv[2]`; then its id in the marker file
 * `argv[4]`.
 */
import { renameSync, writeFileSync } from 'node:fs';
import { openEmbeddedJobStore } from '../../../src/jobs/embedded/lmdb-job-store.js';
import { newJobId } from '../../../src/jobs/job-record.js';

const [dataDir, existingId, marker] = process.argv.slice(2) as [string, string, string];
const store = openEmbeddedJobStore(dataDir);
const existing = store.readSync(existingId);
if (!existing) throw new Error(`no job ${existingId} to copy`);
const record = { ...existing, id: newJobId(Date.now()) };
const created = await store.create(record, store.readTargets(existingId) ?? [], 100);
if (!created.ok) throw new Error('the copy was refused');
// written whole, then named: the test reads the marker the moment it exists
writeFileSync(`${marker}.part`, record.id);
renameSync(`${marker}.part`, marker);
