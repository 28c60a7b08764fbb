/**
 * Which connections the primary answers itself (docs/operations.md "Health and readiness"): those whose first request is a
 * liveness probe, `GET /healthz` or `HEAD /healthz` with or without a query, its target in the origin or
 * the absolute form (`GET http://host/healthz`, RFC 9112 §3.2.2). Decided from the request line alone, in
 * the first bytes the connection sent; anything else — another path, a request line cut across two
 * reads — goes to a worker, whose app answers /healthz as well.
 */

const LIVENESS_REQUEST_LINE =
  /^(?:GET|HEAD) (?:[Hh][Tt][Tt][Pp][Ss]?:\/\/[^/?# \r\n]*)?\/healthz(?:\?[^ \r\n]*)? HTTP\/1\.[01]\r\n/;

/** A request line is short: no need to decode more of a large first read. */
const REQUEST_LINE_BYTES = 256;

export function isLivenessProbe(firstBytes: Buffer): boolean {
  return LIVENESS_REQUEST_LINE.test(firstBytes.toString('latin1', 0, Math.min(firstBytes.length, REQUEST_LINE_BYTES)));
}
