/**
 * An answer sent in parts (GraphQL incremental delivery: `@defer` answered as multipart/mixed, or as
 * server-sent events) is still being made after the handler returns its Response. What a request holds
 * until its work is done — its admission slot, its deadline timer — is released when the last part has
 * been made, not when the headers leave: the body is read from the executor as it comes (the parts are
 * queued for a slow client, a report's are small) and `end` runs once the executor's stream is over, or
 * the client has gone (which cancels the execution).
 */

/** true for an answer whose body is sent in parts as the execution goes on */
export function isIncremental(response: Response): boolean {
  const type = response.headers.get('content-type') ?? '';
  return response.body !== null && (type.startsWith('multipart/mixed') || type.startsWith('text/event-stream'));
}

/** The same answer, with `end` run once, when its body's last part has been made or the client went away. */
export function afterLastPart(response: Response, end: () => void): Response {
  const source = response.body;
  if (!source) {
    end();
    return response;
  }
  let ended = false;
  const finish = () => {
    if (ended) return;
    ended = true;
    end();
  };
  const reader = source.getReader();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      void (async () => {
        try {
          for (;;) {
            const { done, value } = await reader.read();
            if (done) break;
            controller.enqueue(value);
          }
          controller.close();
        } catch (error) {
          controller.error(error);
        } finally {
          finish();
        }
      })();
    },
    cancel(reason) {
      finish();
      return reader.cancel(reason);
    },
  });
  return new Response(body, { status: response.status, statusText: response.statusText, headers: response.headers });
}
