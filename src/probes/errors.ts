import { NetdiagError } from '../errors.js';

/**
 * Outcome classes of an upstream question that did not yield an answer.
 * A DNS NXDOMAIN or NODATA is *not* one of these: it is a result.
 */
export type ProbeErrorKind =
  | 'TIMEOUT' // no answer within the bound (decisions §8) → 504
  | 'ABORTED' // the caller's AbortSignal fired (request ended) → 504
  | 'REFUSED' // connection refused, or DNS rcode REFUSED
  | 'SERVFAIL' // DNS rcode SERVFAIL (or another non-result rcode)
  | 'MALFORMED' // the upstream answered something we cannot parse
  | 'TOO_LARGE' // the answer exceeded its byte bound
  | 'UNREACHABLE' // network/host unreachable, reset, closed early
  | 'HTTP_STATUS' // an HTTP upstream (RDAP, IP API) answered with an error status
  | 'TLS'; // TLS-level failure talking to an upstream

/** An upstream could not answer. `upstream` names it ("whois.example:43", "127.0.0.1:53"). */
export class ProbeError extends NetdiagError {
  readonly kind: ProbeErrorKind;
  readonly upstream: string;
  constructor(kind: ProbeErrorKind, upstream: string, message: string, options?: { cause?: unknown }) {
    const timeout = kind === 'TIMEOUT' || kind === 'ABORTED';
    super(timeout ? 'UPSTREAM_TIMEOUT' : 'UPSTREAM_FAILED', timeout ? 504 : 502, message, options);
    this.kind = kind;
    this.upstream = upstream;
  }
}

export function isProbeError(e: unknown): e is ProbeError {
  return e instanceof ProbeError;
}
