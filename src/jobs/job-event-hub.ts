/**
 * GET …/events (docs/jobs.md "Following a job"): `text/event-stream`, a `progress` snapshot at once, then
 * `progress` events ({ done, failed, total }) at most once a second while items finish, and one `end`
 * event with the job as GET answers it. Every event's `id` is the number of finished items then; with
 * `Last-Event-ID` only what is newer is sent, and an ended job's `end` comes at once.
 *
 * One hub per process serves every stream by push: the runner's changes (./job-bus.ts) make the hub read
 * the job once and write to every stream following it, so a thousand streams on one job cost one read
 * per change, not a thousand polls. A key holds at most `jobs.maxStreamsPerKey` streams in a process; one
 * more is refused (429). A comment line every KEEP_ALIVE_MS keeps proxies from closing a quiet stream,
 * and the hub then reads each followed job once, so a change whose push was lost (a job worker that
 * restarted) still reaches its streams.
 */
import type { ApiJobBus } from './job-bus.js';
import { jobView, type JobRecord } from './job-record.js';
import type { JobView } from './job-shape.js';
import { CHANGE_PUSH_INTERVAL_MS } from './job-runner.js';

/** a comment line now and then keeps proxies from closing a quiet stream */
const KEEP_ALIVE_MS = 15_000;

const encoder = new TextEncoder();

interface Stream {
  readonly keyId: string;
  /** the number of finished items last sent (the last event's id); -1 before the first */
  sent: number;
  lastSentAt: number;
  trailing: NodeJS.Timeout | undefined;
  write(text: string): void;
  close(): void;
}

export interface JobEventHub {
  /**
   * A stream following `record` for `keyId` (the caller read it and checked its key), or 'too-many' when
   * the key has its most streams open in this process.
   */
  open(record: JobRecord, lastEventId: number | null, signal: AbortSignal): ReadableStream<Uint8Array> | 'too-many';
  /** streams open now (tests, /metrics) */
  readonly size: number;
  close(): void;
}

export function createJobEventHub(options: {
  bus: ApiJobBus;
  read: (id: string) => Promise<JobRecord | null>;
  maxStreamsPerKey: number;
  onError: (e: unknown) => void;
}): JobEventHub {
  const following = new Map<string, Set<Stream>>();
  const perKey = new Map<string, number>();
  /** jobs being read for their streams: a change that comes meanwhile is read again after */
  const reading = new Map<string, boolean>();
  let size = 0;

  function deliver(stream: Stream, job: JobView): void {
    // ended once its last running item is written: a cancelled job may still finish a few
    if (job.finishedAt !== null) {
      stream.write(`event: end\nid: ${job.done}\ndata: ${JSON.stringify(job)}\n\n`);
      stream.close();
      return;
    }
    if (job.done <= stream.sent) return;
    const wait = stream.lastSentAt + CHANGE_PUSH_INTERVAL_MS - performance.now();
    if (wait > 0) {
      // at most one progress event a second: the latest state once the second is over
      stream.trailing ??= setTimeout(() => {
        stream.trailing = undefined;
        void readFor(job.id);
      }, wait);
      return;
    }
    stream.sent = job.done;
    stream.lastSentAt = performance.now();
    stream.write(`event: progress\nid: ${job.done}\ndata: ${JSON.stringify(progressOf(job))}\n\n`);
  }

  async function readFor(id: string): Promise<void> {
    if (reading.has(id)) {
      reading.set(id, true);
      return;
    }
    reading.set(id, false);
    try {
      do {
        reading.set(id, false);
        const record = await options.read(id);
        const streams = following.get(id);
        if (!streams) break;
        if (!record) {
          for (const stream of streams) stream.close();
          break;
        }
        const view = jobView(record, null);
        for (const stream of streams) deliver(stream, view);
      } while (reading.get(id) === true);
    } catch (e) {
      options.onError(e);
    } finally {
      reading.delete(id);
    }
  }

  const stopListening = options.bus.onChange((change) => {
    if (following.has(change.id)) void readFor(change.id);
  });

  const keepAlive = setInterval(() => {
    for (const [id, streams] of following) {
      for (const stream of streams) stream.write(': keep-alive\n\n');
      void readFor(id);
    }
  }, KEEP_ALIVE_MS);
  keepAlive.unref();

  return {
    open(record, lastEventId, signal) {
      const held = perKey.get(record.keyId) ?? 0;
      if (held >= options.maxStreamsPerKey) return 'too-many';
      let stream: Stream | undefined;
      return new ReadableStream<Uint8Array>({
        start(controller) {
          let closed = false;
          const s: Stream = {
            keyId: record.keyId,
            sent: lastEventId ?? -1,
            lastSentAt: Number.NEGATIVE_INFINITY,
            trailing: undefined,
            write(text) {
              if (!closed) controller.enqueue(encoder.encode(text));
            },
            close() {
              if (closed) return;
              closed = true;
              forget(record.id, s);
              try {
                controller.close();
              } catch {
                // the client is gone and the stream already cancelled
              }
            },
          };
          stream = s;
          let streams = following.get(record.id);
          if (!streams) following.set(record.id, (streams = new Set()));
          streams.add(s);
          perKey.set(record.keyId, held + 1);
          size++;
          signal.addEventListener('abort', () => s.close(), { once: true });
          const view = jobView(record, null);
          // the first event: a snapshot, unless the client has seen this state already
          if (view.finishedAt === null && lastEventId === null) {
            s.sent = view.done;
            s.lastSentAt = performance.now();
            s.write(`event: progress\nid: ${view.done}\ndata: ${JSON.stringify(progressOf(view))}\n\n`);
          } else deliver(s, view);
        },
        cancel() {
          stream?.close();
        },
      });
    },
    get size() {
      return size;
    },
    close() {
      stopListening();
      clearInterval(keepAlive);
      for (const streams of following.values()) for (const stream of [...streams]) stream.close();
    },
  };

  function forget(id: string, stream: Stream): void {
    clearTimeout(stream.trailing);
    const streams = following.get(id);
    if (!streams?.delete(stream)) return;
    if (streams.size === 0) following.delete(id);
    size--;
    const held = (perKey.get(stream.keyId) ?? 1) - 1;
    if (held <= 0) perKey.delete(stream.keyId);
    else perKey.set(stream.keyId, held);
  }
}

function progressOf(job: JobView): { done: number; failed: number; total: number } {
  return { done: job.done, failed: job.failed, total: job.total };
}
