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
  /** the request's URL, already parsed by the app (parsed again from the request when absent) */
  readonly url?: URL;
  /** overall bound of this request (REST: per tool; GraphQL: the composite bound) */
  readonly deadlineMs?: number;
  readonly responseHeaders: Record<string, string>;
  /** run by the caller once the response is made (RequestScope.end: timer, listener, leftover work) */
  readonly atEnd: (() => void)[];
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
 * The reason of every ended request's signal: one shared value, since a DOMException captures a stack
 * trace when made (a new one per request cost my-ip 15 % of its throughput).
 */
const REQUEST_ENDED = new DOMException('the request has ended', 'AbortError');

/**
 * The parts of a request that cost something to create — the AbortSignal (timers) and the check
 * context (loaders) — made on first use, so checks that do no I/O (my-ip) never pay for them.
 * They live behind this object rather than as getters on the context itself: envelop builds the
 * context with Object.assign, which would read (and so create) every getter of ours.
 */
export class RequestScope {
  #controller: AbortController | undefined;
  #timer: NodeJS.Timeout | undefined;
  #checks: CheckContext | undefined;
  readonly #onClientGone = (): void => this.#abort(this.request.signal.reason);

  constructor(
    private readonly services: Services,
    private readonly request: Request,
    private readonly deadlineMs: number,
  ) {}

  /**
   * Aborts when the client goes away, the request's deadline passes or the request has ended. Its own
   * controller and timer rather than AbortSignal.any over AbortSignal.timeout: those stay alive until the
   * timer fires — on Node 24 every request's signals for the full 20 s bound, 30,000 of them (about 18
   * MB) under the load mix —, where these are released by `end`.
   */
  get signal(): AbortSignal {
    if (!this.#controller) {
      const controller = new AbortController();
      this.#controller = controller;
      // A composite check hands this one signal to dozens of concurrent probes, each listening for
      // the abort: not a leak, so lift Node's default warning threshold of 10.
      setMaxListeners(256, controller.signal);
      if (this.request.signal.aborted) {
        controller.abort(this.request.signal.reason);
      } else {
        this.request.signal.addEventListener('abort', this.#onClientGone, { once: true });
        this.#timer = setTimeout(
          () => this.#abort(new DOMException(`the request's ${this.deadlineMs} ms bound has passed`, 'TimeoutError')),
          this.deadlineMs,
        );
        // a scope nobody ends must not keep a stopping process alive for its bound
        this.#timer.unref();
      }
    }
    return this.#controller.signal;
  }

  /** the probes behind per-request loaders, for the checks' run functions */
  get checks(): CheckContext {
    return (this.#checks ??= createCheckContext(this.services, this.signal));
  }

  /**
   * The response is made: releases the timer and the listener on the client's signal, and tells work
   * still running for this request (a check past a REST 504) to stop.
   */
  end(): void {
    this.#abort(REQUEST_ENDED);
  }

  #abort(reason: unknown): void {
    // Nothing was made: a check without I/O (my-ip) never touches the request's signal either.
    if (!this.#controller) return;
    clearTimeout(this.#timer);
    this.#timer = undefined;
    this.request.signal.removeEventListener('abort', this.#onClientGone);
    if (!this.#controller.signal.aborted) this.#controller.abort(reason);
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
  atEnd: (() => void)[];
}): RequestContext {
  const scope = new RequestScope(args.services, args.request, args.deadlineMs);
  args.atEnd.push(() => scope.end());
  return {
    services: args.services,
    request: args.request,
    url: args.url,
    peerAddress: args.peerAddress,
    auth: args.auth,
    scope,
    responseHeaders: args.responseHeaders,
  };
}
