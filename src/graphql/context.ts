/**
 * The per-request GraphQL context, shared by the GraphQL endpoint and the REST shim.
 * The check context (loaders over the probes) is created lazily per request, so each distinct
 * upstream question is asked once per request (decisions §9) and nothing leaks between requests.
 */
import { setMaxListeners } from 'node:events';
import type { AuthOutcome } from '../platform/auth.js';
import type { Services } from '../services.js';
import { connectionBudgetFor } from '../loaders/connection-budget.js';
import { createCheckContext, type CheckContext } from '../loaders/context.js';
import type { JobsPort } from './jobs/jobs-port.js';
import type { MonitorsPort } from '../monitors/runtime/monitor-operations.js';
import { Deadline } from '../deadline.js';

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
  /**
   * A job item whose price was charged with its job (docs/jobs.md "Prices and limits"): the credits plugin
   * charges nothing more; the job gives back what its items do not use.
   */
  readonly prepaid?: boolean;
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
  /** a job item, paid for with its job: not charged again (ExecutionInput.prepaid) */
  readonly prepaid: boolean;
  /** the job operations behind the job fields (./jobs/job-fields.ts); null where the app offers none */
  readonly jobs: JobsPort | null;
  /** the monitor operations behind the monitor fields (./monitors/monitor-fields.ts); null where none */
  readonly monitors: MonitorsPort | null;
}

/**
 * The reason of every ended request's signal: one shared value, since a DOMException captures a stack
 * trace when made (a new one per request cost my-ip a noticeable share of its throughput,
 * docs/performance.md "Measured reasons behind design choices").
 */
const REQUEST_ENDED = new DOMException('the request has ended', 'AbortError');

/**
 * The parts of a request that cost something to create — the AbortSignal (timers) and the check
 * context (loaders) — made on first use, so checks that do no I/O (my-ip) never pay for them.
 * They live behind this object rather than as getters on the context itself: envelop builds the
 * context with Object.assign, which would read (and so create) every getter of ours.
 */
export class RequestScope {
  #deadline: Deadline | undefined;
  #checks: CheckContext | undefined;
  #credits: number | undefined;

  constructor(
    private readonly services: Services,
    private readonly request: Request,
    private readonly deadlineMs: number,
  ) {}

  /**
   * Aborts when the client goes away, the request's deadline passes or the request has ended. A
   * Deadline rather than AbortSignal.any over AbortSignal.timeout: those stay alive until the timer
   * fires (on Node 24 every request's signals for the full bound, docs/performance.md "Measured reasons
   * behind design choices"), where a Deadline is released by `end`.
   */
  get signal(): AbortSignal {
    if (!this.#deadline) {
      this.#deadline = new Deadline(this.deadlineMs, this.request.signal, {
        timeoutReason: () => new DOMException(`the request's ${this.deadlineMs} ms bound has passed`, 'TimeoutError'),
        // a scope nobody ends must not keep a stopping process alive for its bound
        keepsProcessAlive: false,
      });
      // A composite check hands this one signal to dozens of concurrent probes, each listening for
      // the abort: not a leak, so lift Node's default warning threshold of 10.
      setMaxListeners(256, this.#deadline.signal);
    }
    return this.#deadline.signal;
  }

  /**
   * The operation's price, told before any check runs (use-credits.ts): its checks may open
   * CONNECTIONS_PER_CREDIT connections to targets per credit (src/loaders/connection-budget.ts).
   */
  priceIs(credits: number): void {
    this.#credits = credits;
  }

  /** the probes behind per-request loaders, for the checks' run functions */
  get checks(): CheckContext {
    return (this.#checks ??= createCheckContext(
      this.services,
      this.signal,
      this.#credits === undefined ? {} : { connectionBudget: connectionBudgetFor(this.#credits) },
    ));
  }

  /**
   * The response is made: releases the timer and the listener on the client's signal, and tells work
   * still running for this request (a check past a REST 504) to stop.
   */
  end(): void {
    // Nothing was made when nothing asked: a check without I/O (my-ip) never touches the signal either.
    this.#deadline?.end(REQUEST_ENDED);
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
  prepaid?: boolean;
  jobs?: JobsPort | null;
  monitors?: MonitorsPort | null;
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
    prepaid: args.prepaid ?? false,
    jobs: args.jobs ?? null,
    monitors: args.monitors ?? null,
  };
}
