/**
 * The per-request GraphQL context, shared by the GraphQL endpoint and the REST shim.
 * The check context (loaders over the probes) is created lazily per request, so each distinct
 * upstream question is asked once per request (decisions §9) and nothing leaks between requests.
 */
import { setMaxListeners } from 'node:events';
import type { AuthOutcome } from '../platform/auth.js';
import type { Services } from '../services.js';
import { createCheckContext, type CheckContext } from '../loaders/context.js';

/** What the HTTP layer knows about the connection. */
export interface ServerContext {
  /** the socket's peer address (null when unknown, e.g. a test calling app.fetch without one) */
  readonly peerAddress: string | null;
}

/**
 * What the app hands the GraphQL pipeline with each request: the connection, the API key's outcome —
 * authenticated once per request, by the app, and passed down — the request's bound, and the response
 * headers an execution adds (filled by the credits plugin, copied onto the response by the caller).
 */
export interface ExecutionInput extends ServerContext {
  readonly auth: AuthOutcome;
  /** overall bound of this request (REST: per tool; GraphQL: the composite bound) */
  readonly deadlineMs?: number;
  readonly responseHeaders: Record<string, string>;
}

export interface RequestContext {
  readonly services: Services;
  readonly request: Request;
  readonly url: URL;
  readonly peerAddress: string | null;
  readonly auth: AuthOutcome;
  /** the signal and the check context, created on first use (see RequestScope) */
  readonly scope: RequestScope;
  /** headers the HTTP layer adds to the response (RateLimit fields) */
  readonly responseHeaders: Record<string, string>;
}

/**
 * The parts of a request that cost something to create — the AbortSignal (timers) and the check
 * context (loaders) — made on first use, so checks that do no I/O (my-ip) never pay for them.
 * They live behind this object rather than as getters on the context itself: envelop builds the
 * context with Object.assign, which would read (and so create) every getter of ours.
 */
export class RequestScope {
  #signal: AbortSignal | undefined;
  #checks: CheckContext | undefined;

  constructor(
    private readonly services: Services,
    private readonly request: Request,
    private readonly deadlineMs: number,
  ) {}

  /** aborts when the client goes away or the request's deadline passes */
  get signal(): AbortSignal {
    if (!this.#signal) {
      this.#signal = AbortSignal.any([this.request.signal, AbortSignal.timeout(this.deadlineMs)]);
      // A composite check hands this one signal to dozens of concurrent probes, each listening for
      // the abort: not a leak, so lift Node's default warning threshold of 10.
      setMaxListeners(256, this.#signal);
    }
    return this.#signal;
  }

  /** the probes behind per-request loaders, for the checks' run functions */
  get checks(): CheckContext {
    return (this.#checks ??= createCheckContext(this.services, this.signal));
  }
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
  return {
    services: args.services,
    request: args.request,
    url: args.url,
    peerAddress: args.peerAddress,
    auth: args.auth,
    scope: new RequestScope(args.services, args.request, args.deadlineMs),
    responseHeaders: args.responseHeaders,
  };
}
