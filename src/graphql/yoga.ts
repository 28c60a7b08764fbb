/**
 * The graphql-yoga server: the one execution pipeline behind /graphql and the REST shim, so
 * authentication, credits, error masking and loaders apply once, to both.
 */
import { createYoga, type YogaServerInstance } from 'graphql-yoga';
import { authenticate } from '../server/auth.js';
import type { Services } from '../services.js';
import { createRequestContext, type RequestContext, type ServerContext } from './context.js';
import { createMaskError } from './errors.js';
import { useCredits } from './plugins/use-credits.js';
import { useOperationLimits } from './plugins/use-operation-limits.js';
import { schema } from './schema.js';


export const GRAPHIQL_EXAMPLE = `# One operation, several checks: every field below is a check, run in parallel,
# and each costs its credits (the table on the developer page, /, lists them).
# Put your key in the Headers tab: {"x-api-key": "YOUR_KEY"}
query DomainOverview($domain: String! = "example.com") {
  myIp { ip version }
  dnsLookup(domain: $domain) { rcode records { A AAAA NS } resolver { name } }
  mxLookup(domain: $domain) { nullMx hosts { priority exchange ip provider } }
  spfChecker(domain: $domain) { found evaluation record }
  dmarcChecker(domain: $domain) { found effectivePolicy }
  ipInfo(target: $domain) { ip asn asName country }
}
`;

export type NetdiagYoga = YogaServerInstance<ServerContext, RequestContext>;

/** Response headers an execution asked for, by request (read by the HTTP layer). */
export const responseHeadersOf = new WeakMap<Request, Record<string, string>>();

let graphiqlPage: Promise<string> | undefined;

export function createNetdiagYoga(services: Services): NetdiagYoga {
  return createYoga<ServerContext, RequestContext>({
    schema,
    graphqlEndpoint: '/graphql',
    landingPage: false,
    logging: false,
    batching: false,
    // GraphiQL with its assets inlined (no CDN): a self-hosted explorer must work without internet.
    // The 9 MB bundle is imported on the first browser visit and the page rendered once.
    renderGraphiQL: (options) =>
      (graphiqlPage ??= import('@graphql-yoga/render-graphiql').then((m) => m.renderGraphiQL(options))),
    graphiql: {
      title: 'netdiag GraphQL explorer',
      defaultQuery: GRAPHIQL_EXAMPLE,
      headers: JSON.stringify({ 'x-api-key': 'YOUR_KEY' }),
    },
    maskedErrors: { maskError: createMaskError(services.logger) },
    context: ({ request, peerAddress, deadlineMs }) => {
      const url = new URL(request.url);
      const responseHeaders: Record<string, string> = {};
      responseHeadersOf.set(request, responseHeaders);
      return createRequestContext({
        services,
        request,
        url,
        peerAddress,
        auth: authenticate(request, url, services.keyring),
        // GraphQL operations are priced after the context exists: give them the composite bound.
        deadlineMs: deadlineMs ?? services.config.server.compositeTimeoutMs,
        responseHeaders,
      });
    },
    plugins: [
      useOperationLimits(),
      useCredits(),
      {
        onResponse({ request, response }) {
          const headers = responseHeadersOf.get(request);
          if (headers) for (const [k, v] of Object.entries(headers)) response.headers.set(k, v);
        },
      },
    ],
  });
}
