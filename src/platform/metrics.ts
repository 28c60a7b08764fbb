/**
 * Prometheus metrics (prom-client), served at /metrics in the text exposition format: by the primary
 * process on its own listener, every process's counts summed (src/cluster/metrics-ipc.ts), and on the
 * API port only when `metrics.token` is set (docs/operations.md "Metrics").
 *
 * One registry per Services instance, never prom-client's global one: several apps in one process
 * (the tests, a benchmark) keep their own counts and never collide on metric names.
 *
 * Every label value comes from a small closed set — the tools of the route table, the probe
 * families, the error kinds and codes, the cache names — so nothing a caller sends can add series
 * (an unknown path is counted as tool "other", not under its own name).
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { NetdiagError } from '../errors.js';
import { isProbeError } from '../probes/errors.js';

/** Each family is one kind of upstream question, instrumented in one place (the per-request loaders). */
export type UpstreamFamily = 'dns' | 'whois' | 'rdap' | 'tls' | 'tcp' | 'http' | 'ping' | 'ipdata' | 'smtp';

/** The cross-request caches (decisions §9). */
export type CacheName = 'dns' | 'ip_facts' | 'registry';

/**
 * Runs one upstream question and counts it: by outcome when it answers (`outcomeOf`, e.g. a DNS
 * rcode or a port state; "ok" by default), by failure kind when it throws. The answer or the
 * error is passed on unchanged.
 */
export type ObserveUpstream = <T>(
  family: UpstreamFamily,
  ask: () => Promise<T>,
  outcomeOf?: (answer: T) => string,
) => Promise<T>;

/** Observes nothing (unit tests of a loader on its own). */
export const unobserved: ObserveUpstream = (_family, ask) => ask();

export interface Metrics {
  readonly registry: Registry;
  /**
   * one HTTP request answered: its tool (route), status and duration; a request shed by admission control
   * counts under its reason, any other 429 as a quota refusal
   */
  request(tool: string, status: number, seconds: number, shedReason?: string): void;
  readonly upstream: ObserveUpstream;
  /** one lookup in a cross-request cache */
  cacheLookup(cache: CacheName, hit: boolean): void;
  /** credits taken for a check (at charge time) */
  creditsCharged(tool: string, credits: number): void;
  /** credits given back for a check that ended in an input error or a refused target */
  creditsRefunded(tool: string, credits: number): void;
  /** a request without a key refused because its client address spent the unkeyed budget */
  unkeyedRefused(surface: string): void;
  /** reports in-flight and waiting check requests on each scrape */
  watchAdmission(state: () => { inFlight: number; queued: number; expectedWaitMs: number }): void;
  /**
   * reports the jobs on each scrape (docs/jobs.md): jobs by status, items finished, items waiting.
   * `shared`: the figures are the deployment's (Redis), the same in every worker, so the primary's sum
   * takes one worker's value; else each worker's own, summed.
   */
  watchJobs(stats: () => Promise<JobFigures>, shared: boolean): void;
  /** the text /metrics answers: this registry's, unless `exposeFrom` named another source */
  exposition(): Promise<string>;
  /**
   * Where `exposition` reads from: in a worker, the primary's sum over every process (main.ts), so a
   * scrape does not show whichever worker the connection landed on.
   */
  exposeFrom(source: () => Promise<string>): void;
}

/** What the jobs report to /metrics (src/rest/jobs/job-service.ts JobStats). */
export interface JobFigures {
  readonly jobs: { readonly queued: number; readonly running: number };
  readonly itemsFinished: number;
  readonly queueDepth: number;
}

/** Tools that are not in the REST route table but have routes of their own (src/app.ts). */
const APP_TOOLS = [
  'graphql',
  'healthz',
  'readyz',
  'metrics',
  'openapi',
  'docs',
  'developer-page',
  'key-issuance',
] as const;

/** Label value for a path that is no known tool (404s and the like). */
export const OTHER_TOOL = 'other';

/**
 * From a millisecond loopback answer to the 30 s bound of a composite check (decisions §8).
 * Seconds, as Prometheus names them.
 */
const REQUEST_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20, 30];
const UPSTREAM_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10];

/** `tools`: the REST tool names (the route table's keys); anything else is counted as "other". */
export function createMetrics(options: { tools: Iterable<string> }): Metrics {
  const known = new Set<string>([...options.tools, ...APP_TOOLS]);
  const toolLabel = (tool: string) => (known.has(tool) ? tool : OTHER_TOOL);
  const registry = new Registry();
  const registers = [registry];

  const counter = <Label extends string>(name: string, help: string, labelNames: readonly Label[]) =>
    new Counter<Label>({ name, help, labelNames, registers });
  const histogram = <Label extends string>(
    name: string,
    help: string,
    labelNames: readonly Label[],
    buckets: number[],
  ) => new Histogram<Label>({ name, help, labelNames, buckets, registers });
  /** A gauge read at each scrape. */
  const gauge = (name: string, help: string, read: () => number) =>
    new Gauge({
      name,
      help,
      registers,
      collect() {
        this.set(read());
      },
    });

  const requests = counter(
    'netdiag_requests_total',
    'HTTP requests answered, by tool (a REST tool name, or graphql, healthz, readyz, metrics, openapi, developer-page, key-issuance, other) and status code.',
    ['tool', 'status'],
  );
  const requestSeconds = histogram(
    'netdiag_request_duration_seconds',
    'Time from receiving a request to having its response, by tool.',
    ['tool'],
    REQUEST_BUCKETS,
  );
  const quotaExceeded = counter(
    'netdiag_quota_exceeded_total',
    'Requests refused with 429 because the key had too few credits left, by tool.',
    ['tool'],
  );
  const upstreamQuestions = counter(
    'netdiag_upstream_questions_total',
    'Questions sent upstream (each distinct question once per request; cache hits are not questions), by family and outcome: how it was answered (DNS rcode, port state, ping status, IP data source, ok) or failed.',
    ['family', 'outcome'],
  );
  const upstreamFailures = counter(
    'netdiag_upstream_failures_total',
    'Upstream questions that gave no answer, by family and kind (TIMEOUT, SERVFAIL, REFUSED, MALFORMED, ... or an error code).',
    ['family', 'kind'],
  );
  const upstreamSeconds = histogram(
    'netdiag_upstream_duration_seconds',
    'Time an upstream question took, answered or failed, by family.',
    ['family'],
    UPSTREAM_BUCKETS,
  );
  const cacheLookups = counter(
    'netdiag_cache_lookups_total',
    'Lookups in the cross-request caches, by cache and result (hit, miss).',
    ['cache', 'result'],
  );
  const charged = counter(
    'netdiag_credits_charged_total',
    'Credits charged, by check tool (a GraphQL operation counts under the tools of the checks it selects).',
    ['tool'],
  );
  const refunded = counter(
    'netdiag_credits_refunded_total',
    'Credits given back for checks that ended in an input error or a refused target, by check tool.',
    ['tool'],
  );
  const unkeyedRefusals = counter(
    'netdiag_unkeyed_refused_total',
    'Requests without a key refused (429) because their client address spent the unkeyed budget, by surface.',
    ['surface'],
  );
  const shedRequests = counter(
    'netdiag_shed_total',
    'Check requests refused by admission control before any work or charge, by reason (expected-wait, queue-full, queue-wait: 503; key-concurrency: 429).',
    ['reason'],
  );
  let admissionState: (() => { inFlight: number; queued: number; expectedWaitMs: number }) | null = null;
  gauge(
    'netdiag_checks_in_flight',
    'Check requests running now (admission control).',
    () => admissionState?.().inFlight ?? 0,
  );
  gauge(
    'netdiag_checks_queued',
    'Check requests waiting for a slot now (admission control).',
    () => admissionState?.().queued ?? 0,
  );
  new Gauge({
    name: 'netdiag_admission_wait_seconds',
    help: 'The wait a check request arriving now would have (admission control; the longest of the workers): the requests queued over the rate slots free up, plus the event loop delay; past 2 s it is shed.',
    registers,
    // one worker's wait: the instance's is its longest, not their sum
    aggregator: 'max',
    collect() {
      this.set((admissionState?.().expectedWaitMs ?? 0) / 1000);
    },
  });

  /**
   * The job figures, made when the jobs are watched: with `shared` (Redis) every worker reports the
   * deployment's figures, so the primary's aggregation takes the largest; else each worker's own, summed
   * (prom-client's `aggregator`).
   */
  const watchJobs = (read: () => Promise<JobFigures>, shared: boolean) => {
    const aggregator = shared ? 'max' : 'sum';
    new Gauge({
      name: 'netdiag_jobs',
      help: 'Jobs queued and running, by status (docs/jobs.md).',
      labelNames: ['status'],
      registers,
      aggregator,
      async collect() {
        const figures = await read();
        this.set({ status: 'queued' }, figures.jobs.queued);
        this.set({ status: 'running' }, figures.jobs.running);
      },
    });
    new Gauge({
      name: 'netdiag_job_queue_depth',
      help: 'Job items waiting to start.',
      registers,
      aggregator,
      async collect() {
        this.set((await read()).queueDepth);
      },
    });
    new Counter({
      name: 'netdiag_job_items_finished_total',
      help: 'Job items finished (its rate is items per second).',
      registers,
      async collect() {
        const { itemsFinished } = await read();
        this.reset();
        this.inc(itemsFinished);
      },
    });
  };

  const upstream: ObserveUpstream = async (family, ask, outcomeOf) => {
    const started = performance.now();
    try {
      const answer = await ask();
      upstreamQuestions.inc({ family, outcome: outcomeOf ? outcomeOf(answer) : 'ok' });
      return answer;
    } catch (e) {
      upstreamQuestions.inc({ family, outcome: 'failed' });
      upstreamFailures.inc({ family, kind: failureKind(e) });
      throw e;
    } finally {
      upstreamSeconds.observe({ family }, (performance.now() - started) / 1000);
    }
  };

  let exposition = (): Promise<string> => registry.metrics();

  return {
    registry,
    request(tool, status, seconds, shedReason) {
      const label = toolLabel(tool);
      requests.inc({ tool: label, status: String(status) });
      requestSeconds.observe({ tool: label }, seconds);
      if (shedReason !== undefined) shedRequests.inc({ reason: shedReason });
      else if (status === 429) quotaExceeded.inc({ tool: label });
    },
    upstream,
    cacheLookup(cache, hit) {
      cacheLookups.inc({ cache, result: hit ? 'hit' : 'miss' });
    },
    creditsCharged(tool, credits) {
      if (credits > 0) charged.inc({ tool: toolLabel(tool) }, credits);
    },
    creditsRefunded(tool, credits) {
      if (credits > 0) refunded.inc({ tool: toolLabel(tool) }, credits);
    },
    unkeyedRefused(surface) {
      unkeyedRefusals.inc({ surface });
    },
    watchAdmission(state) {
      admissionState = state;
    },
    watchJobs,
    exposition: () => exposition(),
    exposeFrom(source) {
      exposition = source;
    },
  };
}

/** The ProbeError kind, else the NetdiagError code (e.g. TARGET_REFUSED from the guard's re-check), else OTHER. */
export function failureKind(e: unknown): string {
  if (isProbeError(e)) return e.kind;
  if (e instanceof NetdiagError) return e.code;
  return 'OTHER';
}

/**
 * Node process metrics (CPU, memory, event-loop delay, GC) in the same registry. Only the server
 * process turns them on (main.ts): they start a GC observer and an event-loop monitor that in-process
 * tests have no use for.
 */
export function enableProcessMetrics(metrics: Metrics): void {
  // Unprefixed (process_*, nodejs_*), the names ready-made Node dashboards expect.
  collectDefaultMetrics({ register: metrics.registry });
}

/** GET /metrics: the text exposition format. */
export async function metricsResponse(metrics: Metrics): Promise<Response> {
  const body = await metrics.exposition();
  return new Response(body, {
    status: 200,
    headers: { 'content-type': METRICS_CONTENT_TYPE, 'cache-control': 'no-store' },
  });
}

/** The Prometheus text format, version 0.0.4 (prom-client's default). */
export const METRICS_CONTENT_TYPE = Registry.PROMETHEUS_CONTENT_TYPE;

/**
 * Who may read /metrics: `hidden` where no token is configured (the path does not exist for callers),
 * else `granted` for `Authorization: Bearer <token>` and `refused` for anything else.
 */
export function metricsAccess(authorization: string | null | undefined, token: string | null): MetricsAccess {
  if (token === null) return 'hidden';
  return bearerTokenMatches(authorization, token) ? 'granted' : 'refused';
}

export type MetricsAccess = 'hidden' | 'refused' | 'granted';

/**
 * Compares the presented token with the configured one in constant time: both are hashed first, so
 * neither the position of the first differing byte nor the token's length shows in the time taken.
 */
export function bearerTokenMatches(authorization: string | null | undefined, token: string): boolean {
  const presented = /^Bearer[ ]+(\S+)[ ]*$/i.exec(authorization ?? '')?.[1] ?? '';
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(presented), digest(token)) && presented.length > 0;
}
