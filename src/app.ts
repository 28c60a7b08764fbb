/**
 * createApp(services) → a fetch handler. Routes: /healthz, /graphql (yoga, GraphiQL for browsers),
 * /api/* (the REST shim), /readyz and /metrics (src/server/health.ts, metrics.ts). Every request gets a
 * request id (echoed in `x-request-id`), is counted in the metrics and logged as one JSON line (request id,
 * tool, status, duration, key id).
 * Tests call `app.fetch(request, { peerAddress })` without opening a port.
 */
import { redactedPath, authenticate } from './server/auth.js';
import type { Services } from './services.js';
import type { ServerContext } from './graphql/context.js';
import { createNetdiagYoga } from './graphql/yoga.js';
import { MAX_OPERATION_BODY_BYTES } from './graphql/plugins/use-operation-limits.js';
import { createRestHandler, REST_PREFIX, toolOf } from './rest/handler.js';
import { envelopeResponse } from './rest/envelope.js';
import { livenessResponse, readinessResponse } from './server/health.js';
import { metricsResponse } from './server/metrics.js';
import { requestIdOf, withRequestId } from './server/request-id.js';
import { buildOpenApiDocument } from './rest/openapi.js';
import { restRoutes } from './rest/routes.js';
import { schema } from './graphql/schema.js';
import { KEYS_PATH } from './server/developer-page.js';
import { createDeveloperRoutes } from './server/key-issuance.js';

/** The generated OpenAPI 3.1 document of the v1 REST API (no key needed). */
export const OPENAPI_PATH = '/api/v1/openapi.json';

export interface App {
  fetch(request: Request, server?: ServerContext): Promise<Response>;
}

export function createApp(services: Services): App {
  const yoga = createNetdiagYoga(services);
  const rest = createRestHandler(yoga, services);
  const developer = createDeveloperRoutes(services);
  let openApiJson: string | undefined;

  async function route(request: Request, url: URL, server: ServerContext): Promise<{ response: Response; tool: string }> {
    if (url.pathname === '/healthz') {
      return { tool: 'healthz', response: livenessResponse() };
    }
    if (url.pathname === '/readyz') {
      return { tool: 'readyz', response: await readinessResponse(() => services.ready(), services.logger) };
    }
    if (url.pathname === '/metrics') {
      // No key: scraped from inside; the README tells operators to keep it off the public side.
      return { tool: 'metrics', response: await metricsResponse(services.metrics) };
    }
    if (url.pathname === '/graphql') {
      const declared = Number(request.headers.get('content-length') ?? 0);
      const bounded = declared > MAX_OPERATION_BODY_BYTES ? tooLarge(MAX_OPERATION_BODY_BYTES) : await boundedRequest(request, MAX_OPERATION_BODY_BYTES);
      if (bounded instanceof Response) return { tool: 'graphql', response: bounded };
      return { tool: 'graphql', response: await yoga.fetch(bounded, server) };
    }
    if (url.pathname === OPENAPI_PATH) {
      openApiJson ??= JSON.stringify(buildOpenApiDocument(restRoutes.values(), schema, services.config));
      return { tool: 'openapi', response: new Response(openApiJson, { headers: { 'content-type': 'application/json; charset=utf-8' } }) };
    }
    if (url.pathname === '/') {
      return { tool: 'developer-page', response: developer.page(request, url) };
    }
    if (url.pathname === KEYS_PATH) {
      return { tool: 'key-issuance', response: await developer.issueKey(request, url, server.peerAddress) };
    }
    if (url.pathname.startsWith(REST_PREFIX)) {
      return { tool: toolOf(url.pathname), response: await rest(request, url, server.peerAddress) };
    }
    return {
      tool: 'none',
      response: envelopeResponse(toolOf(url.pathname), 404, { error: `no such path: ${url.pathname}; the API lives under /api/v1/ and /graphql` }),
    };
  }

  return {
    async fetch(request, server = { peerAddress: null }) {
      const started = performance.now();
      const url = new URL(request.url);
      const requestId = requestIdOf(request);
      let tool = 'unknown';
      let status = 500;
      try {
        const out = await route(request, url, server);
        tool = out.tool;
        status = out.response.status;
        return withRequestId(out.response, requestId);
      } catch (e) {
        services.logger.error('request_failed', { requestId, path: redactedPath(url), message: (e as Error).message, stack: (e as Error).stack });
        return withRequestId(envelopeResponse(toolOf(url.pathname), 500, { error: 'internal error' }), requestId);
      } finally {
        const seconds = (performance.now() - started) / 1000;
        services.metrics.request(tool, status, seconds);
        let auth: ReturnType<typeof authenticate> | null = null;
        try {
          if (tool !== 'healthz' && tool !== 'readyz' && tool !== 'metrics') auth = authenticate(request, url, services.keyring);
        } catch {
          // The key check itself failed: that is the request_failed above; a throw here would lose the 500.
        }
        services.logger.info('request', {
          requestId,
          method: request.method,
          path: redactedPath(url),
          tool,
          status,
          durationMs: Math.round(seconds * 10_000) / 10,
          keyId: auth?.ok ? auth.identity.id : null,
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
async function boundedRequest(request: Request, maxBytes: number): Promise<Request | Response> {
  if (!request.body) return request;
  const chunks: Uint8Array[] = [];
  let seen = 0;
  const reader = request.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    seen += value.byteLength;
    if (seen > maxBytes) {
      await reader.cancel();
      return tooLarge(maxBytes);
    }
    chunks.push(value);
  }
  return new Request(request.url, {
    method: request.method,
    headers: request.headers,
    body: Buffer.concat(chunks),
    ...(request.signal instanceof AbortSignal ? { signal: request.signal } : {}),
  });
}

function tooLarge(maxBytes: number): Response {
  return Response.json(
    { errors: [{ message: `the request body is too large: at most ${maxBytes} bytes`, extensions: { code: 'BAD_INPUT', status: 413 } }] },
    { status: 413 },
  );
}
