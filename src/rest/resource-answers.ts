/**
 * Answers the REST resources beside the tools share (jobs, src/rest/jobs/; monitors, src/rest/monitors/):
 * a method a path does not take, and a stream of server-sent events.
 */
import { API_CORS_HEADERS } from '../platform/cors.js';
import { envelopeResponse } from './envelope.js';

/**
 * A 405 with `Allow` for a method not among `allowed` ("GET, POST"; HEAD is taken as GET), or null when
 * the path takes it.
 */
export function refusedMethod(tool: string, request: Request, allowed: string): Response | null {
  const method = request.method === 'HEAD' ? 'GET' : request.method;
  if (allowed.split(', ').includes(method)) return null;
  return envelopeResponse(
    tool,
    405,
    { error: `method ${request.method} is not allowed here: use ${allowed.replaceAll(', ', ' or ')}` },
    { headers: { allow: allowed } },
  );
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
