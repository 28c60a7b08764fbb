/**
 * The REST shim: `GET /api/v1/<tool>` → the route's fixed document, executed through the same yoga
 * pipeline as /graphql (getEnveloped: context, credit plugin, error masking), → the envelope.
 * Order of refusals: 404 unknown path → 405 method → 401 key → 400 parameters → 429 credits (plugin).
 * A CORS preflight (OPTIONS) of a known path is answered before the method check.
 */
import { suggestionList } from 'graphql/jsutils/suggestionList.js';
import { NetdiagError } from '../errors.js';
import type { AuthOutcome } from '../platform/auth.js';
import type { Services } from '../services.js';
import type { NetdiagYoga } from '../graphql-server/yoga.js';
import { preflightResponse } from '../platform/cors.js';
import { envelopeResponse } from './envelope.js';
import { QueryReader } from './query-reader.js';
import { restRoutes, type RestRoute } from './routes.js';
import { executeRoute } from './execute-route.js';

export const REST_PREFIX = '/api/';

/** meta.tool is the last path segment (decisions §2), also for a 404. */
export function toolOf(pathname: string): string {
  // the last non-empty segment, read in place (asked on every request)
  let end = pathname.length;
  while (end > 0 && pathname.charCodeAt(end - 1) === 0x2f) end--;
  return pathname.slice(pathname.lastIndexOf('/', end - 1) + 1, end);
}

export function restRouteFor(pathname: string): RestRoute | undefined {
  const m = /^\/api\/v1\/([a-z][a-z-]*)\/?$/.exec(pathname);
  return m ? restRoutes.get(m[1]!) : undefined;
}

export function createRestHandler(yoga: NetdiagYoga, services: Services) {
  /** `auth`: the request's key outcome, authenticated once by the app */
  return async function handleRest(
    request: Request,
    url: URL,
    peerAddress: string | null,
    auth: AuthOutcome,
  ): Promise<Response> {
    const tool = toolOf(url.pathname);
    const route = restRouteFor(url.pathname);
    const head = request.method === 'HEAD';
    if (!route) {
      return envelopeResponse(
        tool,
        404,
        {
          error: /^\/api\/v1\//.test(url.pathname) ? unknownTool(tool) : unknownPath(url.pathname),
        },
        { head },
      );
    }
    // A browser asks first whether a script may send the key header (src/platform/cors.ts).
    if (request.method === 'OPTIONS') return preflightResponse('GET, HEAD');
    if (request.method !== 'GET' && !head) {
      return envelopeResponse(
        tool,
        405,
        { error: `method ${request.method} is not allowed: use GET` },
        { headers: { Allow: 'GET, HEAD' } },
      );
    }
    if (!auth.ok) return envelopeResponse(tool, 401, { error: auth.error.message }, { head });

    let variables: Record<string, unknown>;
    try {
      variables = route.variables(new QueryReader(url.searchParams, route.parameters));
    } catch (e) {
      if (e instanceof NetdiagError) return envelopeResponse(tool, e.status, { error: e.message }, { head });
      throw e;
    }

    const headers: Record<string, string> = {};
    const outcome = await executeRoute(yoga, services, route, {
      request,
      url,
      peerAddress,
      auth,
      variables,
      responseHeaders: headers,
    });
    if (outcome.kind !== 'data') {
      return envelopeResponse(tool, outcome.status, { error: outcome.message }, { headers, head });
    }
    const { data } = outcome;
    return envelopeResponse(tool, 200, { data }, { headers, head });
  };
}

/** The 404 of an unknown tool, with the nearest names (graphql-js' own suggestion rule, as GraphQL answers). */
function unknownTool(tool: string): string {
  const near = suggestionList(tool, [...restRoutes.keys()]).slice(0, 3);
  const hint = near.length > 0 ? `did you mean ${near.map((n) => `"${n}"`).join(' or ')}? ` : '';
  return `unknown tool "${tool.slice(0, 64)}": ${hint}GET /api/v1 lists every tool`;
}

function unknownPath(pathname: string): string {
  return `no such path: ${pathname.slice(0, 128)}; the API is versioned: GET /api/v1 lists every tool`;
}
