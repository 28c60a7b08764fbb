/**
 * createApp(services) → a fetch handler. Routes: /healthz, /graphql (yoga, GraphiQL for browsers),
 * /api/* (the REST shim), /readyz and /metrics (src/web/health.ts, metrics.ts). Every request gets a
 * request id (echoed in `x-request-id`), is counted in the metrics and logged as one JSON line (request id,
 * tool, status, duration, key id).
 * Tests call `app.fetch(request, { peerAddress })` without opening a port.
 */
import { redactedPath, authenticate, type AuthOutcome } from './platform/auth.js';
import type { Services } from './services.js';
import type { ServerContext } from './graphql/context.js';
import { createNetdiagYoga } from './graphql/yoga.js';
import { precompileDocuments } from './graphql/plugins/use-precompiled-documents.js';
import { MAX_OPERATION_BODY_BYTES } from './graphql/plugins/use-operation-limits.js';
import { createRestHandler, REST_PREFIX, restRouteFor, toolOf } from './rest/handler.js';
import { isRefusal, type ShedReason } from './platform/admission.js';
import { envelopeResponse } from './rest/envelope.js';
import { livenessResponse, readinessResponse } from './web/health.js';
import { metricsResponse } from './platform/metrics.js';
import { requestIdOf, withRequestId } from './platform/request-id.js';
import { buildOpenApiDocument } from './rest/openapi.js';
import { restRoutes } from './rest/routes.js';
import { schema } from './graphql/schema.js';
import { KEYS_PATH } from './web/developer-page.js';
import { createDeveloperRoutes } from './web/key-issuance.js';
import { createUnkeyedGate } from './platform/unkeyed-budget.js';
import { createDocsRoutes } from './web/docs-page.js';
import { GRAPHIQL_ASSETS, graphiqlAssetResponse } from './graphql/graphiql-assets.js';

/**
 * How long a GraphQL body may take to arrive (it is at most MAX_OPERATION_BODY_BYTES, which any client
 * sends in one go): the read happens before admission, so a slow sender ties up only its socket.
 */
const BODY_READ_TIMEOUT_MS = 5_000;

/** The generated OpenAPI 3.1 document of the v1 REST API (no key needed). */
export const OPENAPI_PATH = '/api/v1/openapi.json';

export interface App {
  fetch(request: Request, server?: ServerContext): Promise<Response>;
}

export function createApp(services: Services): App {
  // Each REST route's document is compiled once, here (README "Design").
  const precompiled = precompileDocuments(
    schema,
    [...restRoutes.values()].map((r) => r.document),
  );
  const yoga = createNetdiagYoga(services, { precompiled });
  const rest = createRestHandler(yoga, services);
  const developer = createDeveloperRoutes(services);
  const unkeyed = createUnkeyedGate(services);
  const docs = createDocsRoutes(OPENAPI_PATH);
  let openApiJson: string | undefined;

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
              { status: outcome.status, headers },
            )
          : envelopeResponse(tool, outcome.status, { error: outcome.message }, { headers });
      return { tool, response, shed: outcome.reason };
    }
    try {
      return { tool, response: await run() };
    } finally {
      outcome.release();
    }
  }

  /** `auth`: the key's outcome, asked once per request (null for the paths that take no key) */
  async function route(
    request: Request,
    url: URL,
    server: ServerContext,
    auth: AuthOutcome | null,
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
    if (url.pathname === '/metrics') {
      // No key: scraped from inside; the README tells operators to keep it off the public side.
      return { tool: 'metrics', response: await metricsResponse(services.metrics) };
    }
    if (url.pathname === '/graphql') {
      // With a valid key the operation is priced in credits; without one (introspection, GraphiQL's
      // page) it spends the client address's unkeyed budget.
      const key = auth ?? authenticate(request, url, services.keyring);
      if (!key.ok) {
        const refused = await unkeyed(request, 'graphql', server.peerAddress);
        if (refused) return { tool: 'graphql', response: refused };
      }
      // The body is read before a check slot is taken, within its own short bound: a client that sends
      // its body slowly holds a socket, never a slot that a check could use.
      const declared = Number(request.headers.get('content-length') ?? 0);
      const bounded =
        declared > MAX_OPERATION_BODY_BYTES
          ? tooLarge(MAX_OPERATION_BODY_BYTES)
          : await boundedRequest(request, MAX_OPERATION_BODY_BYTES, BODY_READ_TIMEOUT_MS);
      if (bounded instanceof Response) return { tool: 'graphql', response: bounded };
      return admitted('graphql', key.ok ? key.identity.id : null, async () => {
        // The operation is executed and its answer serialized when yoga.fetch resolves (no streaming).
        const atEnd: (() => void)[] = [];
        try {
          return await yoga.fetch(bounded, {
            peerAddress: server.peerAddress,
            url,
            auth: key,
            responseHeaders: {},
            atEnd,
          });
        } finally {
          for (const end of atEnd) end();
        }
      });
    }
    if (url.pathname === OPENAPI_PATH) {
      const refused = await unkeyed(request, 'openapi', server.peerAddress);
      if (refused) return { tool: 'openapi', response: refused };
      openApiJson ??= JSON.stringify(buildOpenApiDocument(restRoutes.values(), schema, services.config));
      return {
        tool: 'openapi',
        response: new Response(openApiJson, { headers: { 'content-type': 'application/json; charset=utf-8' } }),
      };
    }
    if (url.pathname.startsWith(`${GRAPHIQL_ASSETS}/`)) {
      // content-hashed and cached by browsers: not counted against the unkeyed budget (the page is)
      return { tool: 'graphql', response: await graphiqlAssetResponse(request, url.pathname) };
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
    if (url.pathname.startsWith(REST_PREFIX)) {
      const tool = toolOf(url.pathname);
      // Unknown paths and wrong methods are refused by the shim at once; a check waits for admission.
      const key = auth ?? authenticate(request, url, services.keyring);
      if (!restRouteFor(url.pathname) || (request.method !== 'GET' && request.method !== 'HEAD')) {
        return { tool, response: await rest(request, url, server.peerAddress, key) };
      }
      return admitted(tool, key.ok ? key.identity.id : null, () => rest(request, url, server.peerAddress, key));
    }
    return {
      tool: 'none',
      response: envelopeResponse(toolOf(url.pathname), 404, {
        error: `no such path: ${url.pathname}; the API lives under /api/v1/ and /graphql`,
      }),
    };
  }

  return {
    async fetch(request, server = { peerAddress: null }) {
      const started = performance.now();
      const url = new URL(request.url);
      const requestId = requestIdOf(request);
      let tool = 'unknown';
      let status = 500;
      let reason: string | undefined;
      let shed: ShedReason | undefined;
      let auth: AuthOutcome | null = null;
      try {
        // The key is verified once, here, and its outcome passed down to the REST shim, the GraphQL
        // context and the log line below. Liveness, readiness and metrics never read a key.
        if (url.pathname !== '/healthz' && url.pathname !== '/readyz' && url.pathname !== '/metrics')
          auth = authenticate(request, url, services.keyring);
        const out = await route(request, url, server, auth);
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
