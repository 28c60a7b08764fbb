/**
 * CORS of the API (/graphql and /api/v1/*): any origin may call it, and no credentials are ever allowed.
 *
 * A key travels in the `x-api-key` header or the `api_key` parameter, never in a cookie, so a page on
 * another site can only use a key its own script was given: `Access-Control-Allow-Origin: *` lets every
 * browser client work, and browsers refuse `*` for credentialed requests, so no site can make a visitor's
 * browser send cookies or HTTP authentication here and read the answer. Echoing the request's Origin
 * with `Access-Control-Allow-Credentials: true` (graphql-yoga's default) would allow exactly that.
 * CORS is not access control either way — any client outside a browser ignores it — hence no list of
 * allowed origins to configure.
 *
 * The developer page, its form and the health and metrics endpoints send no CORS headers: they are
 * not for other sites' scripts.
 */

/** Headers of every API answer, preflight or not. */
export const API_CORS_HEADERS: Readonly<Record<string, string>> = {
  'access-control-allow-origin': '*',
  // What a browser script may read beyond the CORS-safelisted headers: what is left of its allowance,
  // when to retry, and the id to quote in a report.
  'access-control-expose-headers':
    'RateLimit, RateLimit-Policy, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, Retry-After, X-Request-Id',
};

/** The request headers a browser client sends beyond the safelisted ones: the key, a JSON body, its own request id. */
const ALLOWED_REQUEST_HEADERS = 'x-api-key, content-type, x-request-id';

/**
 * How long a browser may reuse a preflight's answer; browsers cap it themselves (Chromium at two
 * hours), and the answer never changes while the service runs.
 */
const PREFLIGHT_MAX_AGE_SECONDS = 7200;

/** The answer to a preflight (`OPTIONS`) for a resource that takes `methods`, e.g. "GET, HEAD". */
export function preflightResponse(methods: string): Response {
  return new Response(null, {
    status: 204,
    headers: {
      ...API_CORS_HEADERS,
      'access-control-allow-methods': methods,
      'access-control-allow-headers': ALLOWED_REQUEST_HEADERS,
      'access-control-max-age': String(PREFLIGHT_MAX_AGE_SECONDS),
      // Some browsers wait for a body on a 204 without it.
      'content-length': '0',
    },
  });
}
