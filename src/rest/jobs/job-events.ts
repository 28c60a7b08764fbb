/**
 * GET …/events (docs/contract/jobs.md "Endpoints"): `text/event-stream`. A `progress` snapshot at once,
 * then `progress` events ({ done, failed, total }) at most once a second while items finish, and one
 * `end` event with the job as GET answers it. Every event's `id` is the number of finished items then;
 * with `Last-Event-ID` only what is newer is sent, and an ended job's `end` comes at once.
 */
import type { JobView } from '../../graphql/jobs/jobs-port.js';

/** the contract's bound: progress at most once a second */
const PROGRESS_INTERVAL_MS = 1_000;
/** a comment line now and then keeps proxies from closing a quiet stream */
const KEEP_ALIVE_MS = 15_000;

export function eventsResponse(
  read: () => Promise<JobView | null>,
  lastEventId: number | null,
  signal: AbortSignal,
  headers: Record<string, string>,
): Response {
  const encoder = new TextEncoder();
  let timer: NodeJS.Timeout | undefined;
  let closed = false;
  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      let sent = lastEventId ?? -1;
      let sinceKeepAlive = 0;
      const close = () => {
        if (closed) return;
        closed = true;
        clearTimeout(timer);
        try {
          controller.close();
        } catch {
          // the client is gone and the stream already cancelled
        }
      };
      signal.addEventListener('abort', close, { once: true });
      const send = (event: string, id: number, data: unknown) =>
        controller.enqueue(encoder.encode(`event: ${event}\nid: ${id}\ndata: ${JSON.stringify(data)}\n\n`));
      const tick = async (first: boolean) => {
        if (closed) return;
        const job = await read();
        if (closed) return;
        if (!job) return close();
        // ended once its last running item is written: a cancelled job may still finish a few
        if (job.finishedAt !== null) {
          send('end', job.done, job);
          return close();
        }
        if (job.done > sent || (first && lastEventId === null)) {
          send('progress', job.done, { done: job.done, failed: job.failed, total: job.total });
          sent = job.done;
          sinceKeepAlive = 0;
        } else if ((sinceKeepAlive += PROGRESS_INTERVAL_MS) >= KEEP_ALIVE_MS) {
          controller.enqueue(encoder.encode(': keep-alive\n\n'));
          sinceKeepAlive = 0;
        }
        timer = setTimeout(() => void tick(false).catch(close), PROGRESS_INTERVAL_MS);
      };
      await tick(true);
    },
    cancel() {
      closed = true;
      clearTimeout(timer);
    },
  });
  return new Response(body, {
    status: 200,
    headers: {
      ...headers,
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      'x-accel-buffering': 'no',
    },
  });
}
