/**
 * Answers the REST resources beside the tools share (jobs, src/rest/jobs/; monitors, src/rest/monitors/):
 * the way into a known path (preflight, a method it does not take, no key), and a stream of
 * server-sent events.
 */
import type { AuthOutcome } from '../platform/auth.js';
import type { KeyIdentity } from '../platform/keys.js';
import { API_CORS_HEADERS, preflightResponse } from '../platform/cors.js';
import { envelopeResponse } from './envelope.js';

/** A request let into a resource's path: its method (HEAD as GET) and its key; or the answer that refused it. */
export type ResourceEntry =
  | { readonly answer: Response }
  | { readonly answer: null; readonly method: string; readonly identity: KeyIdentity };

/**
 * The checks before a resource's handler, for a path it knows that takes the methods `allowed` ("GET,
 * POST"): the CORS preflight, 405 for another method, 401 without a valid key.
 */
export function enterResource(tool: string, request: Request, allowed: string, auth: AuthOutcome): ResourceEntry {
  if (request.method === 'OPTIONS') return { answer: preflightResponse(allowed) };
  const method = request.method === 'HEAD' ? 'GET' : request.method;
  if (!allowed.split(', ').includes(method)) {
    const error = `method ${request.method} is not allowed here: use ${allowed.replaceAll(', ', ' or ')}`;
    return { answer: envelopeResponse(tool, 405, { error }, { headers: { allow: allowed } }) };
  }
  if (!auth.ok) return { answer: envelopeResponse(tool, 401, { error: auth.error.message }) };
  return { answer: null, method, identity: auth.identity };
}

/** An event stream (SSE): never cached, never buffered by a proxy in front (`X-Accel-Buffering`). */
export function eventStreamResponse(body: ReadableStream<Uint8Array>): Response {
  return new Response(body, {
    status: 200,
    headers: {
      ...API_CORS_HEADERS,
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      'x-accel-buffering': 'no',
    },
  });
}
