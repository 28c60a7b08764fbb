/** The v1 JSON envelope (api-v1.md): `{ ok, data | error, meta: { tool, version } }`. */
// The server adapter's own Response: node:http is handed its string body as is, where the global
// Response's body goes through a web stream first (bench/my-ip.ts; the gain: docs/performance.md
// "Measured reasons behind design choices").
import { Response as AdapterResponse } from '@whatwg-node/server';
import { API_CORS_HEADERS } from '../platform/cors.js';
export const API_VERSION = 'v1';

export type Envelope =
  | { ok: true; data: unknown; meta: { tool: string; version: string } }
  | { ok: false; error: string; meta: { tool: string; version: string } };

export function envelopeResponse(
  tool: string,
  status: number,
  body: { data: unknown } | { error: string },
  options: { headers?: Record<string, string>; head?: boolean } = {},
): Response {
  const envelope: Envelope =
    'error' in body
      ? { ok: false, error: body.error, meta: { tool, version: API_VERSION } }
      : { ok: true, data: body.data, meta: { tool, version: API_VERSION } };
  const json = JSON.stringify(envelope);
  // A plain record, names in lower case (HTTP field names are case-insensitive, RFC 9110 §5.1): the
  // adapter writes it as it is, where a Headers object is copied and sorted on the way out.
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(options.headers ?? {})) headers[name.toLowerCase()] = value;
  headers['content-type'] = 'application/json; charset=utf-8';
  headers['content-length'] = String(Buffer.byteLength(json));
  headers['cache-control'] = 'no-store';
  // Every envelope, refusals included: a browser client reads why it was refused and when to retry.
  Object.assign(headers, API_CORS_HEADERS);
  return new AdapterResponse(options.head ? null : json, { status, headers }) as unknown as Response;
}
