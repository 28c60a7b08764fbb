/**
 * createApp(services) → a fetch handler. Routes: /healthz, /graphql (yoga, GraphiQL for browsers),
 * /api/* (the REST shim). Every request is logged as one JSON line (tool, status, duration, key id).
 * Tests call `app.fetch(request, { peerAddress })` without opening a port.
 */
import { redactedPath, authenticate } from './server/auth.js';
import type { Services } from './services.js';
import type { ServerContext } from './graphql/context.js';
import { createNetdiagYoga } from './graphql/yoga.js';
import { createRestHandler, REST_PREFIX, toolOf } from './rest/handler.js';
import { envelopeResponse } from './rest/envelope.js';

export interface App {
  fetch(request: Request, server?: ServerContext): Promise<Response>;
}

export function createApp(services: Services): App {
  const yoga = createNetdiagYoga(services);
  const rest = createRestHandler(yoga, services);

  async function route(request: Request, url: URL, server: ServerContext): Promise<{ response: Response; tool: string }> {
    if (url.pathname === '/healthz') {
      return { tool: 'healthz', response: Response.json({ ok: true }, { headers: { 'cache-control': 'no-store' } }) };
    }
    if (url.pathname === '/graphql') {
      return { tool: 'graphql', response: await yoga.fetch(request, server) };
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
      let tool = 'unknown';
      let status = 500;
      try {
        const out = await route(request, url, server);
        tool = out.tool;
        status = out.response.status;
        return out.response;
      } catch (e) {
        services.logger.error('request_failed', { path: redactedPath(url), message: (e as Error).message, stack: (e as Error).stack });
        return envelopeResponse(toolOf(url.pathname), 500, { error: 'internal error' });
      } finally {
        const auth = tool === 'healthz' ? null : authenticate(request, url, services.keyring);
        services.logger.info('request', {
          method: request.method,
          path: redactedPath(url),
          tool,
          status,
          durationMs: Math.round((performance.now() - started) * 10) / 10,
          keyId: auth?.ok ? auth.identity.id : null,
        });
      }
    },
  };
}
