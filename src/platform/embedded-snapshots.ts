/**
 * Reads of the embedded database that see every write committed before them, by any process of the
 * instance.
 *
 * lmdb-js reads through one read transaction per opened database (each store opens its own), renewed by
 * a `setTimeout(0)` after the first read of an event-loop turn: every read until that timer runs sees the
 * database as it was at that first read. A write committed meanwhile by another process (an API worker
 * storing a job, the job worker storing a run) is invisible in that window — and a process learns of such a
 * write precisely then: by a message (the primary relays "a job was submitted", "a monitor has new events")
 * or by a client's request that follows an answer from another worker. A job worker that read the store an
 * instant before the "submitted" message would find no job and never run it; an API worker would answer 404
 * for the job another worker had just accepted (test/unit/platform/embedded-snapshots.test.ts,
 * test/integration/jobs/jobs-other-process.test.ts). So both a message and a request start a new snapshot:
 * the next read renews the transaction (a cheap call; nothing is read twice).
 *
 * This module does not load lmdb: the request path calls it whether or not a database is open.
 */

/** What is needed of an opened lmdb-js database: its `resetReadTxn()`. */
interface Snapshotted {
  resetReadTxn(): void;
}

const databases = new Set<Snapshotted>();

/** The next read of every database this process opened takes a new snapshot. */
export function seeLatestCommits(): void {
  for (const database of databases) database.resetReadTxn();
}

/**
 * Called for each database the process opens: from then on, every message from another process (before
 * any other listener hears it) starts a new snapshot. The listener keeps the IPC channel referenced, as the
 * buses' own listeners in the instance's processes already do.
 */
export function followOtherProcessesCommits(database: Snapshotted): void {
  if (databases.has(database)) return;
  databases.add(database);
  if (databases.size === 1 && process.send) process.prependListener('message', seeLatestCommits);
}
