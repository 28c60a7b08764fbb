/**
 * The embedded credit ledger made durable (docs/contract/jobs.md "Behaviour", durable: the embedded credit ledger
 * moves into the store in `server.dataDir`, so a restart no longer hands every key a fresh allowance).
 * It wraps the in-memory ledger (./quota.ts) and keeps a journal beside it: one line per charge and per
 * refund, appended as they happen and flushed to disk at least once a second; at start the journal is
 * replayed — charges older than their window dropped — and rewritten with only the live ones.
 * For the process that holds the embedded ledgers: the primary with several workers, or a lone process.
 */
import { closeSync, existsSync, fsyncSync, openSync, readFileSync, renameSync, writeSync } from 'node:fs';
import { allowanceOf, createMemoryQuotaStore, type QuotaPolicy, type QuotaStore } from './quota.js';

/** How often appended lines are flushed to disk: a crash loses at most this much of the ledger. */
const SYNC_INTERVAL_MS = 1_000;

type JournalLine =
  | { c: [keyId: string, at: number, cost: number, id: string] }
  | { r: [keyId: string, id: string, amount: number] };

export function createJournaledQuotaStore(policy: QuotaPolicy, path: string, now: () => number = Date.now): QuotaStore {
  // Replayed at the times the charges were made, so that each expires when it would have.
  let clock = now;
  const memory = createMemoryQuotaStore(policy, () => clock());
  /**
   * The charge ids of earlier processes (a job keeps its charge's id across restarts to refund it) → the
   * id the in-memory ledger gave the replayed charge. Ids made here are `<start>.<memory id>`, unique
   * across starts, and read back without a table: only replayed charges are kept here, until they expire.
   */
  const ids = new Map<string, { memoryId: string; at: number }>();
  const start = now().toString(36);
  const ownPrefix = `${start}.`;
  const memoryIdOf = (chargeId: string): string | undefined =>
    chargeId.startsWith(ownPrefix) ? chargeId.slice(ownPrefix.length) : ids.get(chargeId)?.memoryId;
  const longestWindowMs =
    Math.max(policy.windowSeconds, ...(policy.byKeyPrefix ?? []).map((entry) => entry.windowSeconds)) * 1000;
  const live: string[] = [];

  const replay = async () => {
    if (!existsSync(path)) return;
    const t = now();
    for (const text of readFileSync(path, 'utf8').split('\n')) {
      let line: JournalLine;
      try {
        line = JSON.parse(text) as JournalLine;
      } catch {
        continue; // an empty line, or the last one cut by a crash
      }
      if ('c' in line) {
        const [keyId, at, cost, id] = line.c;
        if (at + allowanceOf(policy, keyId).windowSeconds * 1000 <= t) continue;
        clock = () => at;
        const outcome = await memory.charge(keyId, cost);
        if (outcome.chargeId === null) continue;
        ids.set(id, { memoryId: outcome.chargeId, at });
        live.push(text);
      } else {
        const [keyId, id, amount] = line.r;
        const charge = ids.get(id);
        if (charge === undefined) continue;
        await memory.refund(keyId, charge.memoryId, amount);
        live.push(text);
      }
    }
    clock = now;
  };

  let fd = -1;
  let dirty = false;
  const ready = replay().then(() => {
    // the live lines, written beside and renamed over: the journal starts again from them
    const fresh = `${path}.${process.pid}.tmp`;
    const handle = openSync(fresh, 'w');
    writeSync(handle, live.map((l) => `${l}\n`).join(''));
    fsyncSync(handle);
    closeSync(handle);
    renameSync(fresh, path);
    live.length = 0;
    fd = openSync(path, 'a');
  });
  const append = (line: JournalLine) => {
    writeSync(fd, `${JSON.stringify(line)}\n`);
    dirty = true;
  };
  const sync = setInterval(() => {
    if (dirty && fd >= 0) {
      dirty = false;
      fsyncSync(fd);
    }
    // replayed charges that have expired are never refunded: forget them
    const horizon = now() - longestWindowMs;
    for (const [id, charge] of ids) if (charge.at <= horizon) ids.delete(id);
  }, SYNC_INTERVAL_MS);
  sync.unref();

  return {
    async charge(keyId, cost) {
      await ready;
      const outcome = await memory.charge(keyId, cost);
      if (outcome.chargeId === null) return outcome;
      const id = `${ownPrefix}${outcome.chargeId}`;
      append({ c: [keyId, now(), cost, id] });
      return { ...outcome, chargeId: id };
    },
    async refund(keyId, chargeId, amount) {
      await ready;
      const memoryId = memoryIdOf(chargeId);
      if (memoryId === undefined) return;
      await memory.refund(keyId, memoryId, amount);
      append({ r: [keyId, chargeId, amount] });
    },
    async close() {
      clearInterval(sync);
      await ready.catch(() => undefined);
      if (fd >= 0) {
        fsyncSync(fd);
        closeSync(fd);
        fd = -1;
      }
      await memory.close();
    },
  };
}
