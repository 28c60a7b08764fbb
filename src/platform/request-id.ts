/**
 * The request id: one per request, in the request's log line and echoed in the `x-request-id`
 * response header of every response, so a caller's report can be matched to the log.
 *
 * An id set by the caller or a front-end proxy is kept when it is sane — at most 128 characters of
 * letters, digits and `._:+=/@-` (UUIDs, ULIDs, hex trace ids, base64 all fit) — so one id follows
 * the request through the proxy's log and ours. Anything else (too long, spaces, quotes, control
 * characters) could forge or break log lines and is replaced by a fresh UUID.
 */
import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';

export const REQUEST_ID_HEADER = 'x-request-id';
export const MAX_REQUEST_ID_LENGTH = 128;

const SANE_REQUEST_ID = /^[A-Za-z0-9._:+=/@-]{1,128}$/;

/** The incoming id when it is sane, else a new random UUID. */
export function requestIdOf(request: Request): string {
  const incoming = request.headers.get(REQUEST_ID_HEADER);
  return incoming !== null && SANE_REQUEST_ID.test(incoming) ? incoming : randomUUID();
}

/**
 * The response with the header set: in place, or on a copy when its headers are immutable
 * (Response.redirect). A response made without a status text (`Response.json(…, { status })`) is given
 * the standard reason phrase on a copy: the HTTP adapter writes the status text as it is, and an empty
 * reason phrase is what a client would otherwise read (RFC 9112 §4 allows it; people and tools stumble).
 */
export function withRequestId(response: Response, requestId: string): Response {
  if (response.statusText === '' && STATUS_CODES[response.status] !== undefined) {
    const headers = new Headers(response.headers);
    headers.set(REQUEST_ID_HEADER, requestId);
    return new Response(response.body, {
      status: response.status,
      statusText: STATUS_CODES[response.status],
      headers,
    });
  }
  try {
    response.headers.set(REQUEST_ID_HEADER, requestId);
    return response;
  } catch {
    const headers = new Headers(response.headers);
    headers.set(REQUEST_ID_HEADER, requestId);
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
  }
}
