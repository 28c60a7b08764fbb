/**
 * createApp(services) → a fetch handler. Routes: /healthz, /graphql (yoga, GraphiQL for browsers),
 * /api/* (the REST shim), /readyz and /metrics (src/web/health.ts, metrics.ts). Every request gets a
 * request id (echoed in `x-request-id`), is counted in the metrics and logged as one JSON line (request id,
 * tool, status, duration, key id).
 * Tests call `app.fetch(request, { peerAddress })` without opening a port.
 */
import { redactedPath, authenticate, AuthError, type AuthOutcome } from './platform/auth.js';
import type { Services } from './services.js';
import type { ServerContext } from './graphql/context.js';
import { createNetdiagYoga } from './graphql-server/yoga.js';
import {
  type PrecompiledDocuments,
  compileDocumentsOnFirstUse,
} from './graphql-server/plugins/use-precompiled-documents.js';
import { MAX_OPERATION_BODY_BYTES } from './graphql-server/plugins/use-operation-limits.js';
import { createRestHandler, REST_PREFIX, restRouteFor, toolOf } from './rest/handler.js';
import { createJobsHandler, isJobsPath } from './rest/jobs/jobs-handler.js';
import { createRestJobTools } from './rest/jobs/rest-job-tools.js';
import { createJobsApi, type RunnerPlace } from './jobs/jobs-module.js';
import type { JobStats } from './jobs/job-runner.js';
import { createMonitorsApi, type MonitorsPlace } from './monitors/runtime/monitors-module.js';
import { watchSpecs } from './graphql-server/watch-specs.js';
import { badgePathOf, createMonitorsHandler, isMonitorsPath } from './rest/monitors/monitors-handler.js';
import { isRefusal, type ShedReason } from './platform/admission.js';
import { envelopeResponse } from './rest/envelope.js';
import { livenessResponse, readinessResponse } from './web/health.js';
import { metricsAccess, metricsResponse } from './platform/metrics.js';
import { requestIdOf, withRequestId } from './platform/request-id.js';
import { buildOpenApiDocument } from './rest/openapi.js';
import { restRoutes } from './rest/routes.js';
import { schema } from './graphql-server/schema.js';
import { KEYS_PATH } from './web/developer-page.js';
import { createDeveloperRoutes } from './web/key-issuance.js';
import { createUnkeyedGate } from './platform/unkeyed-budget.js';
import { createDocsRoutes, DOCS_PATH } from './web/docs-page.js';
import { apiIndex, type ApiIndex } from './rest/api-index.js';
import { createWebAssets, FAVICON_PATH } from './web/assets.js';
import { graphiqlPage } from './web/graphiql-page.js';
import { createReportRoutes } from './web/report/routes.js';
import { costOf } from './graphql/pricing.js';
import { afterLastPart, isIncremental } from './platform/incremental-response.js';
import { seeLatestCommits } from './platform/embedded-db-processes.js';
import { assetResponse, loadAsset, type StaticAsset } from './platform/static-assets.js';
import { API_CORS_HEADERS, preflightResponse } from './platform/cors.js';

/**
 * How long a GraphQL body may take to arrive (it is at most MAX_OPERATION_BODY_BYTES, which any client
 * sends in one go): the read happens before admission, so a slow sender ties up only its socket.
 */
const BODY_READ_TIMEOUT_MS = 5_000;

/**
 * What route() is given on the paths whose key is never read (liveness, readiness, metrics): a refusal,
 * so that a branch wrongly reading it there would refuse rather than admit.
 */
const KEY_NOT_READ: AuthOutcome = {
  ok: false,
  error: new AuthError('this path takes no API key; the key was not read'),
};

/** The root of the v1 REST API: an index of the tools (no key needed). */
const API_ROOT = '/api/v1';

/** The generated OpenAPI 3.1 document of the v1 REST API (no key needed). */
export const OPENAPI_PATH = '/api/v1/openapi.json';

export interface App {
  fetch(request: Request, server?: ServerContext): Promise<Response>;
  /**
   * Stops the background work: job items stop being taken (an item cut short runs again at the next
   * start, docs/jobs.md "Durability"), event streams end, and the job store's connections close.
   */
  stopBackground(): Promise<void>;
  /** jobs by status, items finished, items waiting, of a runner in this process: for /metrics (src/jobs/job-runner.ts) */
  jobStats(): Promise<JobStats>;
  /**
   * Builds what the first visitor of the documents would otherwise wait for (the OpenAPI document,
   * compressed; the API index): a worker does it before it is ready (src/warm-up/warm-up.ts).
   */
  prepare(): Promise<void>;
}

/**
 * The REST routes' documents compiled once per process (the schema is one), each on its first use, shared
 * by every app made in it: the warm-up's app runs the same compiled code the worker's serves with
 * (src/warm-up/warm-up.ts).
 */
let precompiledRoutes: PrecompiledDocuments | undefined;

export interface AppOptions {
  /** where job items run: in this process (the default), or in the job worker (docs/jobs.md "Where items run") */
  readonly jobs?: RunnerPlace;
  /** where monitors run: where job items run unless said (docs/monitors.md "Where monitors run") */
  readonly monitors?: MonitorsPlace;
}

export function createApp(services: Services, options: AppOptions = {}): App {
  // Each REST route's document is compiled once, when first used (docs/architecture.md "The REST shim").
  precompiledRoutes ??= compileDocumentsOnFirstUse(
    schema,
    [...restRoutes.values()].map((r) => r.document),
  );
  const precompiled = precompiledRoutes;
  // the pages' scripts, style sheets and icons, prepared by the build (src/web/assets.ts)
  const assets = createWebAssets();
  // Jobs run their items through this same pipeline (src/rest/jobs/rest-job-tools.ts), in the job worker or
  // here; the GraphQL job fields reach them through the context.
  const yoga = createNetdiagYoga(services, {
    precompiled,
    jobs: () => jobs.port,
    monitors: () => monitors.port,
    renderGraphiQL: graphiqlPage(assets),
  });
  const rest = createRestHandler(yoga, services);
  /** requests to the job endpoints in flight: admitted like the others, but not interactive work items yield to */
  let jobRequests = 0;
  const jobs = createJobsApi({
    services,
    tools: createRestJobTools(yoga, services),
    place: options.jobs ?? {
      kind: 'here',
      interactiveBusy: () => services.admission.state().inFlight > jobRequests,
    },
  });
  const jobsHandler = createJobsHandler(jobs.port);
  /** requests to the monitor endpoints in flight: not interactive work that runs' items yield to */
  let monitorRequests = 0;
  const monitors = createMonitorsApi({
    services,
    tools: createRestJobTools(yoga, services),
    place:
      options.monitors ??
      (options.jobs?.kind === 'elsewhere'
        ? { kind: 'elsewhere' }
        : { kind: 'here', interactiveBusy: () => services.admission.state().inFlight > jobRequests + monitorRequests }),
    // each check's watched fields (docs/monitors.md "What each check watches")
    specs: watchSpecs(),
  });
  const monitorsHandler = createMonitorsHandler(monitors.port);
  const developer = createDeveloperRoutes(services);
  const unkeyed = createUnkeyedGate(services);
  const docs = createDocsRoutes(OPENAPI_PATH);
  const report = createReportRoutes({
    config: services.config,
    assets,
    routes: restRoutes,
    costOf: (tool) => costOf(services.config, tool),
  });
  let openApi: Promise<StaticAsset> | undefined;
  let index: ApiIndex | undefined;
  // Built and compressed once (on libuv's thread pool), then sent in the encoding the client accepts;
  // a client that has this version gets a 304 (the ETag is the content's hash).
  const openApiAsset = () =>
    (openApi ??= loadAsset(
      '/api/v1',
      'openapi.json',
      'application/json; charset=utf-8',
      JSON.stringify(buildOpenApiDocument(restRoutes.values(), schema, services.config)),
    ));
  const apiIndexOnce = () =>
    (index ??= apiIndex(restRoutes.values(), services.config, {
      openapi: OPENAPI_PATH,
      docs: DOCS_PATH,
      graphql: '/graphql',
    }));

  /**
   * Runs a check request once admission control lets it (src/platform/admission.ts); a refusal is
   * answered at once, before any work or charge, in the surface's own error shape.
   */
  async function admitted(
    tool: string,
    keyId: string | null,
    run: () => Promise<Response>,
  ): Promise<{ response: Response; tool: string; shed?: ShedReason }> {
    const outcome = await services.admission.admit(keyId);
    if (isRefusal(outcome)) {
      const headers = { 'retry-after': String(outcome.retryAfterSeconds) };
      const response =
        tool === 'graphql'
          ? Response.json(
              {
                errors: [
                  {
                    message: outcome.message,
                    extensions: {
                      code: outcome.status === 429 ? 'KEY_CONCURRENCY' : 'OVERLOADED',
                      status: outcome.status,
                    },
                  },
                ],
              },
              { status: outcome.status, headers: { ...API_CORS_HEADERS, ...headers } },
            )
          : envelopeResponse(tool, outcome.status, { error: outcome.message }, { headers });
      return { tool, response, shed: outcome.reason };
    }
    let handedOver = false;
    try {
      const response = await run();
      if (!isIncremental(response)) return { tool, response };
      // an answer sent in parts (@defer) holds its slot until its last part is made
      handedOver = true;
      return { tool, response: afterLastPart(response, outcome.release) };
    } finally {
      if (!handedOver) outcome.release();
    }
  }

  /** `auth`: the key's outcome, asked once per request (KEY_NOT_READ on the paths that take no key) */
  async function route(
    request: Request,
    url: URL,
    server: ServerContext,
    auth: AuthOutcome,
  ): Promise<{ response: Response; tool: string; shed?: ShedReason }> {
    if (url.pathname === '/healthz') {
      return { tool: 'healthz', response: livenessResponse() };
    }
    if (url.pathname === '/readyz') {
      // An overloaded instance is alive but should get no new traffic until it catches up.
      const ready = async () => {
        const overload = services.admission.overload();
        return overload ? { ok: false, reason: overload } : services.ready();
      };
      return { tool: 'readyz', response: await readinessResponse(ready, services.logger) };
    }
    // /metrics lives on the primary's own listener (docs/operations.md "Metrics"); on this port it exists only
    // when `metrics.token` is set, and then answers the bearer of that token alone. Without a token it is
    // the 404 of any unknown path (below), so a caller cannot even tell it is there.
    const metricsToken = services.config.metrics.token;
    if (url.pathname === '/metrics' && metricsToken !== null) {
      if (metricsAccess(request.headers.get('authorization'), metricsToken) !== 'granted') {
        const refusal = { error: 'this path needs the metrics token: Authorization: Bearer <metrics.token>' };
        const headers = { 'www-authenticate': 'Bearer realm="metrics"' };
        return { tool: 'metrics', response: envelopeResponse('metrics', 401, refusal, { headers }) };
      }
      return { tool: 'metrics', response: await metricsResponse(services.metrics) };
    }
    if (url.pathname === '/graphql') {
      // A browser's preflight costs nothing and waits for nothing (src/platform/cors.ts).
      if (request.method === 'OPTIONS') return { tool: 'graphql', response: preflightResponse('GET, POST') };
      // With a valid key the operation is priced in credits; without one (introspection, GraphiQL's
      // page) it spends the client address's unkeyed budget.
      if (!auth.ok) {
        const refused = await unkeyed(request, 'graphql', server.peerAddress);
        if (refused) return { tool: 'graphql', response: withApiCors(refused) };
      }
      const refusedType = request.method === 'POST' ? unsupportedMediaType(request.headers.get('content-type')) : null;
      if (refusedType) return { tool: 'graphql', response: withApiCors(refusedType) };
      // The body is read before a check slot is taken, within its own short bound: a client that sends
      // its body slowly holds a socket, never a slot that a check could use.
      const declared = Number(request.headers.get('content-length') ?? 0);
      const bounded =
        declared > MAX_OPERATION_BODY_BYTES
          ? tooLarge(MAX_OPERATION_BODY_BYTES)
          : await boundedRequest(request, MAX_OPERATION_BODY_BYTES, BODY_READ_TIMEOUT_MS);
      if (bounded instanceof Response) return { tool: 'graphql', response: withApiCors(bounded) };
      const misread = await jsonSentAsForm(bounded);
      if (misread) return { tool: 'graphql', response: withApiCors(misread) };
      // A report's operation runs without a key where `web.publicReports` allows it, counted at its price
      // in the address's budget for requests without a key (the request itself was counted above).
      let paidWithoutKey = false;
      if (!auth.ok && bounded.method === 'POST') {
        const price = report.publicReportPrice(
          await bounded
            .clone()
            .json()
            .catch(() => null),
        );
        if (price !== null) {
          const refused = await unkeyed(request, 'graphql', server.peerAddress, price - 1);
          if (refused) return { tool: 'graphql', response: withApiCors(refused) };
          paidWithoutKey = true;
        }
      }
      return admitted('graphql', auth.ok ? auth.identity.id : null, async () => {
        // The operation is executed and its answer serialized when yoga.fetch resolves, except for an
        // answer in parts (@defer), which is made as it is sent: its request ends after the last part.
        const atEnd: (() => void)[] = [];
        const end = () => {
          for (const f of atEnd) f();
        };
        let handedOver = false;
        try {
          const response = await yoga.fetch(bounded, {
            peerAddress: server.peerAddress,
            url,
            auth,
            responseHeaders: {},
            atEnd,
            ...(paidWithoutKey ? { prepaid: true } : {}),
          });
          if (!isIncremental(response)) return response;
          handedOver = true;
          return afterLastPart(response, end);
        } finally {
          if (!handedOver) end();
        }
      });
    }
    if (url.pathname === OPENAPI_PATH) {
      const refused = await unkeyed(request, 'openapi', server.peerAddress);
      if (refused) return { tool: 'openapi', response: refused };
      return { tool: 'openapi', response: assetResponse(request, await openApiAsset(), 'no-cache') };
    }
    if (assets.handles(url.pathname) || url.pathname === FAVICON_PATH) {
      // content-hashed (the icon aside) and cached by browsers: not counted against the unkeyed budget (pages are)
      return { tool: 'assets', response: await assets.respond(request, url.pathname) };
    }
    if (report.matches(url.pathname)) {
      const refused = await unkeyed(request, 'page', server.peerAddress);
      return { tool: 'report', response: refused ?? report.page(request, url) };
    }
    if (docs.matches(url.pathname)) {
      const refused = docs.isPage(url.pathname) ? await unkeyed(request, 'docs', server.peerAddress) : null;
      return { tool: 'docs', response: refused ?? (await docs.respond(request, url.pathname)) };
    }
    if (url.pathname === '/') {
      const refused = await unkeyed(request, 'page', server.peerAddress);
      return { tool: 'developer-page', response: refused ?? developer.page(request, url) };
    }
    if (url.pathname === KEYS_PATH) {
      const refused = await unkeyed(request, 'page', server.peerAddress);
      if (refused) return { tool: 'key-issuance', response: refused };
      return { tool: 'key-issuance', response: await developer.issueKey(request, url, server.peerAddress) };
    }
    if (url.pathname === API_ROOT || url.pathname === `${API_ROOT}/`) {
      const refused = await unkeyed(request, 'openapi', server.peerAddress);
      if (refused) return { tool: 'v1', response: refused };
      return { tool: 'v1', response: envelopeResponse('v1', 200, { data: apiIndexOnce() }) };
    }
    if (isJobsPath(url.pathname)) {
      // Admitted as every request that does work (docs/jobs.md "Prices and limits"); the items themselves take
      // the runner's own slots. An event stream holds its slot only until its answer starts.
      if (request.method === 'OPTIONS') return { tool: 'jobs', response: await jobsHandler(request, url, auth) };
      return admitted('jobs', auth.ok ? auth.identity.id : null, async () => {
        jobRequests++;
        try {
          return await jobsHandler(request, url, auth);
        } finally {
          jobRequests--;
        }
      });
    }
    if (isMonitorsPath(url.pathname)) {
      // admitted as the job endpoints are; a run's items take the runner's own slots
      if (request.method === 'OPTIONS')
        return { tool: 'monitors', response: await monitorsHandler.handle(request, url, auth) };
      return admitted('monitors', auth.ok ? auth.identity.id : null, async () => {
        monitorRequests++;
        try {
          return await monitorsHandler.handle(request, url, auth);
        } finally {
          monitorRequests--;
        }
      });
    }
    if (badgePathOf(url.pathname)) {
      // no key and no credits (docs/contract/monitors.md): the address's budget for pages without a key
      const refused = await unkeyed(request, 'page', server.peerAddress);
      return { tool: 'badge', response: refused ?? (await monitorsHandler.badge(request, url)) };
    }
    if (url.pathname.startsWith(REST_PREFIX)) {
      const tool = toolOf(url.pathname);
      // Unknown paths and wrong methods are refused by the shim at once; a check waits for admission.
      if (!restRouteFor(url.pathname) || (request.method !== 'GET' && request.method !== 'HEAD')) {
        return { tool, response: await rest(request, url, server.peerAddress, auth) };
      }
      return admitted(tool, auth.ok ? auth.identity.id : null, () => rest(request, url, server.peerAddress, auth));
    }
    return {
      tool: 'none',
      response: envelopeResponse(toolOf(url.pathname), 404, {
        error: `no such path: ${url.pathname}; the API lives under /api/v1/ and /graphql`,
      }),
    };
  }

  return {
    stopBackground: async () => {
      await monitors.stop();
      await jobs.stop();
    },
    async prepare() {
      apiIndexOnce();
      await openApiAsset();
    },
    jobStats: () => jobs.stats(),
    async fetch(request, server = { peerAddress: null }) {
      const started = performance.now();
      const url = new URL(request.url);
      const requestId = requestIdOf(request);
      let tool = 'unknown';
      let status = 500;
      let reason: string | undefined;
      let shed: ShedReason | undefined;
      let auth: AuthOutcome | null = null;
      // what another worker or the job worker committed before this request is seen by it
      seeLatestCommits();
      try {
        // The key is verified once, here, and its outcome passed down to the REST shim, the GraphQL
        // context and the log line below. Liveness, readiness and metrics never read a key.
        if (url.pathname !== '/healthz' && url.pathname !== '/readyz' && url.pathname !== '/metrics')
          auth = authenticate(request, url, services.keyring);
        const out = await route(request, url, server, auth ?? KEY_NOT_READ);
        tool = out.tool;
        status = out.response.status;
        shed = out.shed;
        if (status >= 500) reason = await reasonOf(out.response);
        return withRequestId(out.response, requestId);
      } catch (e) {
        reason = (e as Error).message;
        services.logger.error('request_failed', {
          requestId,
          path: redactedPath(url),
          message: reason,
          stack: (e as Error).stack,
        });
        return withRequestId(envelopeResponse(toolOf(url.pathname), 500, { error: 'internal error' }), requestId);
      } finally {
        const seconds = (performance.now() - started) / 1000;
        services.metrics.request(tool, status, seconds, shed);
        // A 5xx is something an operator should see, with the reason the client was given.
        (status >= 500 ? services.logger.warn : services.logger.info)('request', {
          requestId,
          method: request.method,
          path: redactedPath(url),
          tool,
          status,
          durationMs: Math.round(seconds * 10_000) / 10,
          keyId: auth?.ok ? auth.identity.id : null,
          ...(reason !== undefined ? { reason } : {}),
        });
      }
    },
  };
}

/**
 * The request with its body read into memory up to `maxBytes` (a chunked body declares no length):
 * a larger body is refused with 413 before the GraphQL server sees it. The copy is a plain Fetch
 * Request whatever Request class the HTTP adapter used.
 */
async function boundedRequest(request: Request, maxBytes: number, timeoutMs: number): Promise<Request | Response> {
  if (!request.body) return request;
  const chunks: Uint8Array[] = [];
  let seen = 0;
  const reader = request.body.getReader();
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), timeoutMs);
  });
  try {
    for (;;) {
      const read = await Promise.race([reader.read(), late]);
      // Not cancelled (that destroys the socket before the answer is written); `Connection: close` lets
      // Node send the answer and then close instead of reading the rest of the body.
      if (read === 'late') return bodyTooSlow(timeoutMs);
      const { done, value } = read;
      if (done) break;
      seen += value.byteLength;
      if (seen > maxBytes) return tooLarge(maxBytes);
      chunks.push(value);
    }
  } finally {
    clearTimeout(timer);
  }
  return new Request(request.url, {
    method: request.method,
    headers: request.headers,
    body: Buffer.concat(chunks),
    ...(request.signal instanceof AbortSignal ? { signal: request.signal } : {}),
  });
}

/**
 * The API's CORS headers on an answer the app builds itself for /graphql (a refusal before yoga runs), so
 * that a browser script can read why it was refused, as it can for yoga's own answers.
 */
function withApiCors(response: Response): Response {
  for (const [name, value] of Object.entries(API_CORS_HEADERS)) response.headers.set(name, value);
  return response;
}

/**
 * The message a 5xx answer gave its client: the envelope's `error`, or the first GraphQL error's
 * message. Read from a copy, only for 5xx answers (all of ours are small JSON documents).
 */
async function reasonOf(response: Response): Promise<string> {
  try {
    const body = (await response.clone().json()) as { error?: unknown; errors?: Array<{ message?: unknown }> };
    const message = body.error ?? body.errors?.[0]?.message;
    return typeof message === 'string' ? message : `HTTP ${response.status}`;
  } catch {
    return `HTTP ${response.status} (no JSON body)`;
  }
}

/** The media types graphql-yoga reads an operation from (GraphQL over HTTP, and its form encodings). */
const OPERATION_MEDIA_TYPES = new Set([
  'application/json',
  'application/graphql',
  'application/x-www-form-urlencoded',
  'multipart/form-data',
]);

/**
 * A JSON operation sent as a form (`curl -d '{"query": …}'` without `-H 'content-type: application/json'`
 * sends application/x-www-form-urlencoded): read as a form it has no `query` field, and GraphQL's own
 * answer, "Must provide query string.", says nothing of why. A 415 that names the header to set; else null.
 */
async function jsonSentAsForm(request: Request): Promise<Response | null> {
  const type = (request.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/x-www-form-urlencoded' || !request.body) return null;
  const text = (await request.clone().text()).trimStart();
  if (!text.startsWith('{')) return null;
  return Response.json(
    {
      errors: [
        {
          message:
            'this body is JSON but was sent as application/x-www-form-urlencoded (what curl -d sends unless told otherwise); send it with Content-Type: application/json (curl: -H "content-type: application/json")',
          extensions: { code: 'UNSUPPORTED_MEDIA_TYPE', status: 415 },
        },
      ],
    },
    { status: 415 },
  );
}

/** A 415 that says what to send, in GraphQL's error shape, for a POST body of another type; else null. */
function unsupportedMediaType(contentType: string | null): Response | null {
  const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase();
  if (OPERATION_MEDIA_TYPES.has(type)) return null;
  const sent = type === '' ? 'no Content-Type' : `Content-Type ${type.slice(0, 64)}`;
  return Response.json(
    {
      errors: [
        {
          message: `a GraphQL POST needs a body of type application/json ({"query": "…", "variables": {…}}); this request has ${sent}`,
          extensions: { code: 'UNSUPPORTED_MEDIA_TYPE', status: 415 },
        },
      ],
    },
    { status: 415 },
  );
}

function bodyTooSlow(timeoutMs: number): Response {
  return Response.json(
    {
      errors: [
        {
          message: `the request body did not arrive within ${timeoutMs / 1000} s; send the whole operation at once`,
          extensions: { code: 'BAD_INPUT', status: 408 },
        },
      ],
    },
    { status: 408, headers: { connection: 'close' } },
  );
}

function tooLarge(maxBytes: number): Response {
  return Response.json(
    {
      errors: [
        {
          message: `the request body is too large: at most ${maxBytes} bytes`,
          extensions: { code: 'BAD_INPUT', status: 413 },
        },
      ],
    },
    { status: 413, headers: { connection: 'close' } },
  );
}
