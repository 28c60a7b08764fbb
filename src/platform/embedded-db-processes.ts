/**
 * What the processes of an instance must do about the embedded databases they open (./embedded-db.ts):
 * read what the others committed, and never exit while a write of their own is being flushed.
 *
 * **Reads that see every write committed before them, by any process of the instance.**
 * lmdb-js reads through one read transaction per opened database (each store opens its own), renewed by
 * a `setTimeout(0)` after the first read of an event-loop turn: every read until that timer runs sees the
 * database as it was at that first read. A write committed meanwhile by another process (an API worker
 * storing a job, the job worker storing a run) is invisible in that window — and a process learns of such a
 * write precisely then: by a message (the primary relays "a job was submitted", "a monitor has new events")
 * or by a client's request that follows an answer from another worker. A job worker that read the store an
 * instant before the "submitted" message would find no job and never run it; an API worker would answer 404
 * for the job another worker had just accepted (test/unit/platform/embedded-db-processes.test.ts,
 * test/integration/jobs/jobs-other-process.test.ts). So both a message and a request start a new snapshot:
 * the next read renews the transaction (a cheap call; nothing is read twice).
 *
 * **An exit after the writes.** lmdb-js flushes a commit to disk on a thread of its own and waits for
 * that at the process's exit; a process that exits while a commit is being flushed, or an asynchronous
 * transaction is under way, can stay blocked there for ever (a job worker stopped this way outlived its
 * primary, holding the database). So a process of the instance exits through `exitAfterWrites`, which
 * waits for the flush first (bounded).
 *
 * This module does not load lmdb: the request path calls it whether or not a database is open.
 */

/** What is needed of an opened lmdb-js database. */
interface OpenedDatabase {
  resetReadTxn(): void;
  /** resolves once every write committed so far is on disk */
  readonly flushed: Promise<unknown>;
}

const databases = new Set<OpenedDatabase>();

/** How long an exit waits for the writes to be flushed before it goes anyway. */
const FLUSH_BOUND_MS = 5_000;

/** The next read of every database this process opened takes a new snapshot. */
export function seeLatestCommits(): void {
  for (const database of databases) database.resetReadTxn();
}

/**
 * Called for each database the process opens (./embedded-db.ts): from then on, every message from another
 * process (before any other listener hears it) starts a new snapshot, and an exit waits for its writes. The
 * listener keeps the IPC channel referenced, as the buses' own listeners in the instance's processes do.
 */
export function registerOpenedDatabase(database: OpenedDatabase): void {
  if (databases.has(database)) return;
  databases.add(database);
  if (databases.size === 1 && process.send) process.prependListener('message', seeLatestCommits);
}

/**
 * Ends the process with `code` once the writes of its databases are on disk (at most FLUSH_BOUND_MS), after
 * `last` (the log's flush). The process must have stopped writing.
 */
export function exitAfterWrites(code: number, last: () => void = () => undefined): void {
  const flushed = Promise.all([...databases].map((database) => database.flushed));
  // not unref'd: the process ends here, with `code`, never by its event loop running dry meanwhile
  const bound = new Promise((resolve) => setTimeout(resolve, FLUSH_BOUND_MS));
  void Promise.race([flushed, bound])
    .catch(() => undefined)
    .finally(() => {
      last();
      process.exit(code);
    });
}
