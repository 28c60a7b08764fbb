/**
 * The embedded job store: a directory per job under `<server.dataDir>/jobs/`, written by us rather than
 * taken from an embedded database (docs/architecture.md "Written here"): every write is one of three
 * simple forms, so crash safety is plain to see.
 *   job.json        the job's fields, replaced whole (written beside, then renamed over: never half a file)
 *   targets.json    the targets as submitted, written once before the 202
 *   results.ndjson  the results journal: append-only, one outcome per line in target order, fsync'd per
 *                   batch; a line cut by a crash is cut off at recovery, and its item runs again
 *   owner           `<pid> <instance>` of the process running the job (created exclusively, touched every
 *                   few seconds while it runs)
 *   cancel          present once a DELETE reached a process that does not run the job
 * Several worker processes share the directory: the owner file decides which one runs a job, and a
 * dead owner's job is taken over (docs/contract/jobs.md "Durable": items that were running run again).
 */
import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import {
  mkdir,
  open,
  readdir,
  readFile,
  rename,
  rm,
  stat,
  truncate,
  unlink,
  utimes,
  writeFile,
} from 'node:fs/promises';
import { join } from 'node:path';
import type { JobRecord, SubmittedTarget } from './job-record.js';
import type { JobStore } from './job-store.js';

/** How often a running job's owner file is touched, and how old a touch may be before its owner counts as dead. */
const OWNER_TOUCH_MS = 5_000;
const OWNER_STALE_MS = 20_000;

/** this process's stores, so that an owner file of a store closed in this same process counts as stale */
const liveInstances = new Set<string>();

export function createFileJobStore(dataDir: string): JobStore & { close(): void } {
  const root = join(dataDir, 'jobs');
  const instance = randomUUID();
  liveInstances.add(instance);
  /** the jobs this store runs: their owner files are touched every OWNER_TOUCH_MS */
  const owned = new Set<string>();
  const touch = setInterval(() => {
    const now = new Date();
    for (const id of owned) void utimes(fileOf(id, 'owner'), now, now).catch(() => undefined);
  }, OWNER_TOUCH_MS);
  touch.unref();
  const dirOf = (id: string) => join(root, id);
  const fileOf = (id: string, name: string) => join(root, id, name);

  let writes = 0;
  /** each job's writes of job.json in turn, so that an older state never lands over a newer one */
  const saving = new Map<string, Promise<void>>();

  async function writeWhole(path: string, text: string, durable: boolean): Promise<void> {
    const temporary = `${path}.${instance}.${++writes}.tmp`;
    const handle = await open(temporary, 'w');
    try {
      await handle.writeFile(text);
      if (durable) await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temporary, path);
  }

  async function ownerOf(id: string): Promise<{ pid: number; instance: string; touchedAt: number } | null> {
    try {
      const [pid, owner] = (await readFile(fileOf(id, 'owner'), 'utf8')).trim().split(' ');
      const { mtimeMs } = await stat(fileOf(id, 'owner'));
      return { pid: Number(pid), instance: owner ?? '', touchedAt: mtimeMs };
    } catch {
      return null;
    }
  }

  /**
   * A live owner is this process's own store, or a running process that has touched the owner file
   * lately: a container started again reuses process ids, so a live id alone proves nothing.
   */
  function isAlive(owner: { pid: number; instance: string; touchedAt: number }): boolean {
    if (owner.pid === process.pid) return liveInstances.has(owner.instance);
    if (Date.now() - owner.touchedAt > OWNER_STALE_MS) return false;
    try {
      process.kill(owner.pid, 0);
      return true;
    } catch (e) {
      return (e as NodeJS.ErrnoException).code === 'EPERM';
    }
  }

  return {
    async create(job, targets) {
      await mkdir(dirOf(job.id), { recursive: true });
      await writeWhole(fileOf(job.id, 'targets.json'), JSON.stringify(targets), true);
      await writeFile(fileOf(job.id, 'results.ndjson'), '');
      // job.json last: a directory without it is a submission that never got its 202 (ignored, then cleaned)
      await writeWhole(fileOf(job.id, 'job.json'), JSON.stringify(job), true);
    },
    async read(id) {
      if (!/^[a-z0-9_-]{1,64}$/i.test(id)) return null;
      try {
        return JSON.parse(await readFile(fileOf(id, 'job.json'), 'utf8')) as JobRecord;
      } catch {
        return null;
      }
    },
    async save(job, durable) {
      // the record is read when its turn comes: a save queued behind another writes the newest state
      const turn = (saving.get(job.id) ?? Promise.resolve())
        .catch(() => undefined)
        .then(() => writeWhole(fileOf(job.id, 'job.json'), JSON.stringify(job), durable));
      saving.set(job.id, turn);
      try {
        await turn;
      } finally {
        if (saving.get(job.id) === turn) saving.delete(job.id);
      }
    },
    async readTargets(id) {
      return JSON.parse(await readFile(fileOf(id, 'targets.json'), 'utf8')) as SubmittedTarget[];
    },
    async appendResults(id, lines) {
      if (lines.length === 0) return;
      const handle = await open(fileOf(id, 'results.ndjson'), 'a');
      try {
        await handle.writeFile(`${lines.join('\n')}\n`);
        await handle.sync();
      } finally {
        await handle.close();
      }
    },
    async recoverResults(id) {
      const path = fileOf(id, 'results.ndjson');
      let text: string;
      try {
        text = await readFile(path, 'utf8');
      } catch {
        return { lines: 0, failed: 0 };
      }
      const complete = text.lastIndexOf('\n') + 1;
      if (complete < text.length) await truncate(path, Buffer.byteLength(text.slice(0, complete)));
      let lines = 0;
      let failed = 0;
      for (const line of text.slice(0, complete).split('\n')) {
        if (line === '') continue;
        lines++;
        if ((JSON.parse(line) as { ok: boolean }).ok === false) failed++;
      }
      return { lines, failed };
    },
    async *results(id, after) {
      let skip = after + 1;
      let pending = '';
      const stream = createReadStream(fileOf(id, 'results.ndjson'), { encoding: 'utf8', highWaterMark: 64 * 1024 });
      for await (const chunk of stream as AsyncIterable<string>) {
        pending += chunk;
        let newline = pending.indexOf('\n');
        let start = 0;
        while (newline >= 0) {
          const line = pending.slice(start, newline);
          if (skip > 0) skip--;
          else yield line;
          start = newline + 1;
          newline = pending.indexOf('\n', start);
        }
        // what follows the last newline is a line still being written: it waits for the next chunk
        pending = pending.slice(start);
      }
    },
    async listByKey(keyId) {
      const jobs: JobRecord[] = [];
      for (const id of await this.allIds()) {
        const job = await this.read(id);
        if (job && job.keyId === keyId) jobs.push(job);
      }
      return jobs.sort((a, b) => (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
    },
    async allIds() {
      try {
        return (await readdir(root)).filter((name) => !name.startsWith('.'));
      } catch {
        return [];
      }
    },
    async claim(id) {
      for (let attempt = 0; attempt < 2; attempt++) {
        try {
          const handle = await open(fileOf(id, 'owner'), 'wx');
          await handle.writeFile(`${process.pid} ${instance}`);
          await handle.close();
          owned.add(id);
          return true;
        } catch (e) {
          if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
        }
        const owner = await ownerOf(id);
        if (owner && isAlive(owner)) return owner.instance === instance;
        // the owner died (a crash, a restart): its file goes, and the next attempt takes the job
        await unlink(fileOf(id, 'owner')).catch(() => undefined);
      }
      return false;
    },
    async release(id) {
      owned.delete(id);
      const owner = await ownerOf(id);
      if (owner?.instance === instance) await unlink(fileOf(id, 'owner')).catch(() => undefined);
    },
    async ownedElsewhere(id) {
      const owner = await ownerOf(id);
      return owner !== null && owner.instance !== instance && isAlive(owner);
    },
    async requestCancel(id) {
      await writeFile(fileOf(id, 'cancel'), '');
    },
    async cancelRequested(id) {
      try {
        await stat(fileOf(id, 'cancel'));
        return true;
      } catch {
        return false;
      }
    },
    async remove(id) {
      await rm(dirOf(id), { recursive: true, force: true });
    },
    close() {
      clearInterval(touch);
      owned.clear();
      liveInstances.delete(instance);
    },
  };
}
