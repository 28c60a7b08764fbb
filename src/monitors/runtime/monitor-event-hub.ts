/**
 * `GET /api/v1/monitors/{id}/events` with `Accept: text/event-stream` (docs/contract/monitors.md): each
 * event as `event: monitor`, `id: <event id>`, `data: <the event>`. With `Last-Event-ID`, the events after
 * that one are sent first (those still kept, oldest first); without it, the stream starts after the
 * newest event. One hub per process serves every stream by push, as the jobs' hub does
 * (src/jobs/job-event-hub.ts): the runner's announcement (./monitor-bus.ts) makes the hub read the
 * monitor's new events once for all its streams. A key holds at most `jobs.maxStreamsPerKey` streams in a
 * process (429 past it). A comment every KEEP_ALIVE_MS keeps proxies from closing a quiet stream, and the
 * streams' monitors are read again then, so an announcement lost (a job worker that restarted) still
 * reaches them.
 */
import type { MonitorEvent } from '../events.js';
import type { MonitorStore } from '../store/monitor-store.js';
import type { ApiMonitorBus } from './monitor-bus.js';

const KEEP_ALIVE_MS = 15_000;
/** events one read hands to a stream */
const READ_BATCH = 100;

const encoder = new TextEncoder();

interface Stream {
  readonly keyId: string;
  /** the id of the last event sent; null: none yet (the stream starts after the newest) */
  last: string | null;
  deliver(event: MonitorEvent): void;
  keepAlive(): void;
}

/** What a follower is handed: each event in order, and a beat now and then while none comes. */
export interface Follower {
  deliver(event: MonitorEvent): void;
  keepAlive?(): void;
}

export interface MonitorEventHub {
  /** an SSE body (GET …/events) */
  open(
    monitorId: string,
    keyId: string,
    lastEventId: string | null,
    signal: AbortSignal,
  ): Promise<ReadableStream<Uint8Array> | 'too-many'>;
  /** the events as they come, for the GraphQL subscription; ends when `signal` aborts */
  subscribe(
    monitorId: string,
    keyId: string,
    lastEventId: string | null,
    signal: AbortSignal,
  ): Promise<AsyncIterable<MonitorEvent> | 'too-many'>;
  readonly size: number;
  close(): void;
}

export function formatEvent(event: MonitorEvent): string {
  return `event: monitor\nid: ${event.id}\ndata: ${JSON.stringify(event)}\n\n`;
}

export function createMonitorEventHub(options: {
  bus: ApiMonitorBus;
  store: () => MonitorStore;
  maxStreamsPerKey: number;
  onError: (e: unknown) => void;
}): MonitorEventHub {
  const following = new Map<string, Set<Stream>>();
  const perKey = new Map<string, number>();
  /** monitors being read: an announcement meanwhile reads again after */
  const reading = new Map<string, boolean>();
  const closers = new Set<() => void>();
  let size = 0;

  async function readFor(monitorId: string): Promise<void> {
    if (reading.has(monitorId)) {
      reading.set(monitorId, true);
      return;
    }
    reading.set(monitorId, false);
    try {
      do {
        reading.set(monitorId, false);
        for (const stream of following.get(monitorId) ?? []) await catchUp(monitorId, stream);
      } while (reading.get(monitorId));
    } catch (e) {
      options.onError(e);
    } finally {
      reading.delete(monitorId);
    }
  }

  async function catchUp(monitorId: string, stream: Stream): Promise<void> {
    if (stream.last === null) {
      // the first read of a stream without Last-Event-ID: it starts after the newest event
      const newest = await options.store().events(monitorId, { limit: 1 });
      stream.last = newest.items[0]?.id ?? `${monitorId}.0`;
      return;
    }
    for (;;) {
      const page = await options.store().events(monitorId, { limit: READ_BATCH, since: stream.last });
      for (const event of page.items) stream.deliver(event);
      if (page.items.length > 0) stream.last = page.items.at(-1)!.id;
      if (page.nextCursor === null) return;
    }
  }

  const stopListening = options.bus.onEvents((monitorId) => {
    if (following.has(monitorId)) void readFor(monitorId);
  });
  const keepAlive = setInterval(() => {
    for (const set of following.values()) for (const stream of set) stream.keepAlive();
    for (const monitorId of following.keys()) void readFor(monitorId);
  }, KEEP_ALIVE_MS);
  keepAlive.unref();

  /**
   * Follows `monitorId` for `keyId` until `signal` aborts or `close` is called: the events after
   * `lastEventId` first, then each as it is committed. 'too-many' past the key's streams.
   */
  async function follow(
    monitorId: string,
    keyId: string,
    lastEventId: string | null,
    signal: AbortSignal,
    follower: Follower,
    onClose: () => void,
  ): Promise<'too-many' | (() => void)> {
    if ((perKey.get(keyId) ?? 0) >= options.maxStreamsPerKey) return 'too-many';
    perKey.set(keyId, (perKey.get(keyId) ?? 0) + 1);
    size++;
    let closed = false;
    const stream: Stream = {
      keyId,
      last: lastEventId,
      deliver: (event) => !closed && follower.deliver(event),
      keepAlive: () => !closed && follower.keepAlive?.(),
    };
    const close = () => {
      if (closed) return;
      closed = true;
      closers.delete(close);
      signal.removeEventListener('abort', close);
      following.get(monitorId)?.delete(stream);
      if (following.get(monitorId)?.size === 0) following.delete(monitorId);
      perKey.set(keyId, perKey.get(keyId)! - 1);
      if (perKey.get(keyId) === 0) perKey.delete(keyId);
      size--;
      onClose();
    };
    closers.add(close);
    signal.addEventListener('abort', close, { once: true });
    // the first read (a resume's events, or the newest id) before the stream joins the followers
    try {
      await catchUp(monitorId, stream);
    } catch (e) {
      close();
      throw e;
    }
    let set = following.get(monitorId);
    if (!set) {
      set = new Set();
      following.set(monitorId, set);
    }
    set.add(stream);
    // what was committed between the first read and joining
    void readFor(monitorId);
    return close;
  }

  return {
    async open(monitorId, keyId, lastEventId, signal) {
      let controller!: ReadableStreamDefaultController<Uint8Array>;
      let ended = false;
      const write = (text: string) => {
        if (!ended) controller.enqueue(encoder.encode(text));
      };
      let close: (() => void) | undefined;
      const body = new ReadableStream<Uint8Array>({
        start(c) {
          controller = c;
          c.enqueue(encoder.encode(': monitor events\n\n'));
        },
        cancel() {
          close?.();
        },
      });
      const followed = await follow(
        monitorId,
        keyId,
        lastEventId,
        signal,
        { deliver: (event) => write(formatEvent(event)), keepAlive: () => write(': keep-alive\n\n') },
        () => {
          if (ended) return;
          ended = true;
          try {
            controller.close();
          } catch {
            // already closed by the client
          }
        },
      );
      if (followed === 'too-many') return followed;
      close = followed;
      return body;
    },
    async subscribe(monitorId, keyId, lastEventId, signal) {
      const queue: MonitorEvent[] = [];
      let wake: (() => void) | null = null;
      let ended = false;
      const followed = await follow(
        monitorId,
        keyId,
        lastEventId,
        signal,
        {
          deliver(event) {
            queue.push(event);
            wake?.();
          },
        },
        () => {
          ended = true;
          wake?.();
        },
      );
      if (followed === 'too-many') return followed;
      const close = followed;
      return {
        async *[Symbol.asyncIterator]() {
          try {
            for (;;) {
              while (queue.length > 0) yield queue.shift()!;
              if (ended) return;
              await new Promise<void>((resolve) => {
                wake = resolve;
              });
              wake = null;
            }
          } finally {
            close();
          }
        },
      };
    },
    get size() {
      return size;
    },
    close() {
      clearInterval(keepAlive);
      stopListening();
      for (const close of [...closers]) close();
    },
  };
}
