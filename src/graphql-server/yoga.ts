/**
 * The graphql-yoga server: the one execution pipeline behind /graphql and the REST shim, so
 * authentication, credits, error masking and loaders apply once, to both.
 */
import { createYoga, type GraphiQLOptions, type YogaServerInstance } from 'graphql-yoga';
import { useDeferStream } from '@graphql-yoga/plugin-defer-stream';
import { API_CORS_HEADERS, preflightResponse } from '../platform/cors.js';
import { KEY_PLACEHOLDER } from '../platform/auth.js';
import type { Services } from '../services.js';
import { createRequestContext, type ExecutionInput, type RequestContext } from '../graphql/context.js';
import { createMaskError } from '../graphql/errors.js';
import type { JobsPort } from '../graphql/jobs/jobs-port.js';
import type { MonitorsPort } from '../monitors/runtime/monitor-operations.js';
import { formatUpstream } from '../probes/dns/client.js';
import { useCredits } from './plugins/use-credits.js';
import { useIntrospectionCache } from './plugins/use-introspection-cache.js';
import { useIncrementalErrors } from './plugins/use-incremental-errors.js';
import { useOperationLimits } from './plugins/use-operation-limits.js';
import { usePrecompiledDocuments, type PrecompiledDocuments } from './plugins/use-precompiled-documents.js';
import { schema } from './schema.js';

export const GRAPHIQL_EXAMPLE = `# One operation, several checks: every field below is a check, run in parallel,
# and each costs its credits (the table on the developer page, /, lists them).
# Put your key in the Headers tab: {"x-api-key": "YOUR_KEY"}
#
# A check that fails answers null with its error (and extensions.tool) in "errors";
# the other checks keep their data. Without internet access dnsLookup fails that way,
# while ipInfo and asnLookup answer from the bundled IP database.
query Overview($domain: String! = "example.com") {
  ipInfo(target: "8.8.8.8") { ip asn asName asDomain country continent source }
  asnLookup(target: "2606:4700:4700::1111") { asn asName country }
  dnsLookup(domain: $domain) { rcode records { A AAAA MX { exchange priority } NS } }
}
`;

export type NetdiagYoga = YogaServerInstance<ExecutionInput, RequestContext>;

/**
 * `precompiled`: the fixed documents (the REST routes') run by compiled code (./plugins/use-precompiled-documents.ts);
 * `jobs`: the job operations for the job fields (made after yoga, since items run through it: asked per request);
 * `renderGraphiQL`: GraphiQL's page for browsers (src/web/graphiql-page.ts); without it /graphql has none
 */
export function createNetdiagYoga(
  services: Services,
  options: {
    precompiled?: PrecompiledDocuments;
    jobs?: () => JobsPort;
    monitors?: () => MonitorsPort;
    renderGraphiQL?: (options: GraphiQLOptions) => string | Promise<string>;
  } = {},
): NetdiagYoga {
  const maskError = createMaskError(services.logger, new Set(services.systemResolvers.map(formatUpstream)));
  return createYoga<ExecutionInput, RequestContext>({
    schema,
    graphqlEndpoint: '/graphql',
    landingPage: false,
    logging: false,
    batching: false,
    // The API's own CORS (src/platform/cors.ts, the plugin below) in place of yoga's, which echoes any
    // Origin with `Access-Control-Allow-Credentials: true`.
    cors: false,
    // GraphiQL served by the service itself (no CDN: a self-hosted explorer must work without internet),
    // a small page over the assets the build prepared (src/web/graphiql-page.ts).
    ...(options.renderGraphiQL
      ? {
          renderGraphiQL: options.renderGraphiQL,
          graphiql: {
            title: 'netdiag GraphQL explorer',
            defaultQuery: GRAPHIQL_EXAMPLE,
            headers: JSON.stringify({ 'x-api-key': KEY_PLACEHOLDER }),
          },
        }
      : { graphiql: false }),
    maskedErrors: { maskError },
    context: ({ request, url, peerAddress, auth, deadlineMs, responseHeaders, atEnd, prepaid }) => {
      return createRequestContext({
        services,
        request,
        url: url ?? new URL(request.url),
        peerAddress,
        auth,
        // GraphQL operations are priced after the context exists: give them the composite bound.
        deadlineMs: deadlineMs ?? services.config.server.compositeTimeoutMs,
        responseHeaders,
        atEnd,
        prepaid,
        jobs: options.jobs?.() ?? null,
        monitors: options.monitors?.() ?? null,
      });
    },
    plugins: [
      {
        onRequest({ request, endResponse }) {
          if (request.method === 'OPTIONS') endResponse(preflightResponse('GET, POST'));
        },
        onResponse({ response }) {
          for (const [name, value] of Object.entries(API_CORS_HEADERS)) response.headers.set(name, value);
        },
      },
      // @defer and @stream, answered as multipart/mixed (incremental delivery): the report page's one
      // operation shows each section when its checks are done (docs/report.md "One operation")
      useDeferStream(),
      useOperationLimits(services.config.graphql),
      useIntrospectionCache(),
      useCredits(),
      ...(options.precompiled ? [usePrecompiledDocuments(options.precompiled)] : []),
      // after the credits plugin, which reads the deferred parts' errors as thrown
      useIncrementalErrors(maskError),
      {
        onResponse({ response, serverContext }) {
          const headers = (serverContext as Partial<ExecutionInput> | undefined)?.responseHeaders ?? {};
          for (const [k, v] of Object.entries(headers)) response.headers.set(k, v);
        },
      },
    ],
  });
}
