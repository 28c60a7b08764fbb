/**
 * The budget of the surfaces that need no key — GraphQL without a key (introspection), GraphiQL, the
 * developer page and its form, the OpenAPI document, /docs — per client address (an IPv4 address or an
 * IPv6 /64): `unkeyed.requests` per rolling `unkeyed.windowSeconds`. It is kept in the credit ledger's
 * store (memory, or Redis with `store.redisUrl`), with the ledger's exact rolling window, so it holds
 * across instances. A request over it is a 429 with `Retry-After`; when the store cannot be asked the
 * surface fails closed with 503, as the ledger does. /healthz, /readyz and /metrics are never counted.
 */
import { NetdiagError } from '../errors.js';
import type { Config } from '../config.js';
import type { Metrics } from './metrics.js';
import type { QuotaStore } from './quota.js';
import { clientBucket, connectionClientAddress } from './client-address.js';

export type UnkeyedSurface = 'graphql' | 'page' | 'openapi' | 'docs';

/**
 * null: go ahead; else the refusal to send. `cost`: what the request counts for (1; a report run without a
 * key counts its credits, src/web/report/routes.ts).
 */
export type UnkeyedGate = (
  request: Request,
  surface: UnkeyedSurface,
  peerAddress: string | null,
  cost?: number,
) => Promise<Response | null>;

/** What the gate uses of the long-lived services. */
export interface UnkeyedGateDeps {
  readonly config: Config;
  readonly unkeyedLedger: QuotaStore;
  readonly metrics: Metrics;
}

export function createUnkeyedGate(services: UnkeyedGateDeps): UnkeyedGate {
  const { requests, windowSeconds } = services.config.unkeyed;
  return async (request, surface, peerAddress, cost = 1) => {
    if (requests === 0 || cost <= 0) return null;
    let bucket: string;
    try {
      bucket = clientBucket(
        connectionClientAddress(
          peerAddress,
          request.headers.get('x-forwarded-for'),
          services.config.server.trustedProxies,
        ),
      ).key;
    } catch {
      // No usable client address (a test harness, a broken proxy): one shared bucket, never unlimited.
      bucket = 'unknown';
    }
    try {
      const outcome = await services.unkeyedLedger.charge(`unkeyed:${bucket}`, cost);
      if (outcome.allowed) return null;
      services.metrics.unkeyedRefused(surface);
      const retryAfter = String(Math.max(1, outcome.retryAfterSeconds));
      const message = `too many requests without an API key from this address: at most ${requests} per ${windowSeconds} s to GraphQL without a key, GraphiQL, the developer page, the OpenAPI document and /docs; retry in ${retryAfter} s, or send an API key (x-api-key)`;
      return refusal(surface, 429, message, { 'retry-after': retryAfter });
    } catch (e) {
      if (!(e instanceof NetdiagError)) throw e;
      return refusal(surface, e.status, e.message, {});
    }
  };
}

function refusal(surface: UnkeyedSurface, status: number, message: string, headers: Record<string, string>): Response {
  const body =
    surface === 'graphql'
      ? { errors: [{ message, extensions: { code: status === 429 ? 'RATE_LIMITED' : 'UNAVAILABLE', status } }] }
      : surface === 'openapi'
        ? { ok: false, error: message, meta: { tool: 'openapi.json', version: 'v1' } }
        : null;
  return body === null
    ? new Response(`${message}\n`, { status, headers: { 'content-type': 'text/plain; charset=utf-8', ...headers } })
    : Response.json(body, { status, headers });
}
