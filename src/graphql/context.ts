/**
 * The per-request GraphQL context, shared by the GraphQL endpoint and the REST shim.
 * The check context (loaders over the probes) is created lazily per request, so each distinct upstream question is asked once per
 * request (decisions §9) and nothing leaks between requests.
 */
import { setMaxListeners } from 'node:events';
import type { AuthOutcome } from '../server/auth.js';
import type { Services } from '../services.js';
import { createCheckContext, type CheckContext } from '../checks/context.js';

/** What the HTTP layer knows about the connection. */
export interface ServerContext {
  /** the socket's peer address (null when unknown, e.g. a test calling app.fetch without one) */
  readonly peerAddress: string | null;
  /** overall bound of this request (REST: per tool; GraphQL: the composite bound) */
  readonly deadlineMs?: number;
}

export interface RequestContext {
  readonly services: Services;
  readonly request: Request;
  readonly url: URL;
  readonly peerAddress: string | null;
  readonly auth: AuthOutcome;
  /** aborts when the client goes away or the request's deadline passes */
  readonly signal: AbortSignal;
  /** the probes behind per-request loaders, for the checks' run functions */
  readonly checks: CheckContext;
  /** headers the HTTP layer adds to the response (RateLimit fields) */
  readonly responseHeaders: Record<string, string>;
}

export function createRequestContext(args: {
  services: Services;
  request: Request;
  url: URL;
  peerAddress: string | null;
  auth: AuthOutcome;
  deadlineMs: number;
  responseHeaders: Record<string, string>;
}): RequestContext {
  // Created on first use: checks that do no I/O (my-ip) should not pay for timers.
  let signal: AbortSignal | undefined;
  const getSignal = (): AbortSignal => {
    if (!signal) {
      signal = AbortSignal.any([args.request.signal, AbortSignal.timeout(args.deadlineMs)]);
      // A composite check hands this one signal to dozens of concurrent probes, each listening for
      // the abort: not a leak, so lift Node's default warning threshold of 10.
      setMaxListeners(256, signal);
    }
    return signal;
  };
  let checks: CheckContext | undefined;
  return {
    services: args.services,
    request: args.request,
    url: args.url,
    peerAddress: args.peerAddress,
    auth: args.auth,
    get signal() {
      return getSignal();
    },
    responseHeaders: args.responseHeaders,
    get checks() {
      return (checks ??= createCheckContext(args.services, getSignal()));
    },
  };
}
