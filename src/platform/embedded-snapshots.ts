/**
 * Reads of the embedded database that see every write committed before them, by any process of the
 * instance.
 *
 * lmdb-js reads through one read transaction per environment and process, renewed by a `setTimeout(0)`
 * after the first read of an event-loop turn: every read until that timer runs sees the database as it was
 * at that first read. A write committed meanwhile by another process (an API worker storing a job, the job
 * worker storing a run) is invisible in that window — and a process learns of such a write precisely then:
 * by a message (the primary relays "a job was submitted", "a monitor has new events") or by a client's
 * request that follows an answer from another worker. A job worker that read the store an instant before
 * the "submitted" message would find no job and never run it (test/unit/platform/embedded-snapshots.test.ts
 * shows the window). So both a message and a request start a new snapshot: the next read renews the
 * transaction (a cheap call; nothing is read twice).
 *
 * This module does not load lmdb: the request path calls it whether or not an environment is open.
 */

/** What is needed of an lmdb-js environment: its `resetReadTxn()`. */
interface Snapshotted {
  resetReadTxn(): void;
}

const environments = new Set<Snapshotted>();

/** The next read of every open environment of this process takes a new snapshot. */
export function seeLatestCommits(): void {
  for (const environment of environments) environment.resetReadTxn();
}

/**
 * Called for each environment the process opens: from then on, every message from another process (before
 * any other listener hears it) starts a new snapshot. The listener keeps the IPC channel referenced, as the
 * buses' own listeners in the instance's processes already do.
 */
export function followOtherProcessesCommits(environment: Snapshotted): void {
  if (environments.has(environment)) return;
  environments.add(environment);
  if (environments.size === 1 && process.send) process.prependListener('message', seeLatestCommits);
}
