/**
 * The embedded database of an instance without Redis: one LMDB environment in `server.dataDir`, shared by
 * every process of the instance (the primary, the API workers, the job worker). LMDB serialises writers and
 * lets readers run beside them across processes through its lock file, and a committed write survives
 * SIGKILL of the writing process (the pages are the operating system's once committed): what a journal of
 * our own would otherwise have to do. The choice is in docs/architecture.md "Dependencies".
 *
 * Each store opens its own named database in the environment (`openDB({ name })`); keys are ordered
 * (lmdb's key encoding sorts arrays element by element), so "a key's jobs, newest first" or "a target's last
 * runs" are range reads, never scans.
 */
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { RootDatabase } from 'lmdb';
import { registerOpenedDatabase } from './embedded-db-processes.js';

/**
 * lmdb, loaded at the first open rather than with this module: the command (which opens no database) and any
 * process that never opens one do not pay for loading it and its native binary (docs/cli.md "Performance").
 * This module is its only importer, so a process has one copy of lmdb-js, as it must (LMDB's locks are the
 * process's: one environment per path and process).
 */
let lmdb: typeof import('lmdb') | undefined;
const lmdbModule = () => (lmdb ??= createRequire(import.meta.url)('lmdb') as typeof import('lmdb'));

/** The environment's directory inside `server.dataDir`. */
export const EMBEDDED_DB_DIR = 'db';

/** Named databases an environment may hold (each store opens one or two). */
const MAX_NAMED_DATABASES = 32;

export type EmbeddedDb = RootDatabase;

/**
 * Opens (creating it when missing) the environment under `dataDir`. lmdb-js keeps one environment per path
 * and process, so opening it twice in one process returns the same one. Its reads see what other processes
 * committed before the message or request that prompted them, and a process that opened it exits once its
 * writes are flushed (./embedded-db-processes.ts).
 */
export function openEmbeddedDb(dataDir: string): EmbeddedDb {
  const path = join(dataDir, EMBEDDED_DB_DIR);
  mkdirSync(path, { recursive: true });
  const db = lmdbModule().open({ path, maxDbs: MAX_NAMED_DATABASES });
  registerOpenedDatabase(db);
  return db;
}
