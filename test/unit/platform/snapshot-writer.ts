/** Commits one value to the embedded database, then writes a marker file (embedded-db-processes.test.ts). */
import { writeFileSync } from 'node:fs';
import { openEmbeddedDb } from '../../../src/platform/embedded-db.js';

const [dir, marker] = process.argv.slice(2) as [string, string];
await openEmbeddedDb(dir).openDB<string, string>({ name: 'shared' }).put('from-writer', 'committed');
writeFileSync(marker, '');
