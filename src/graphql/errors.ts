/**
 * Turns thrown errors into GraphQL errors with a stable `extensions.code` (and the HTTP status the REST
 * shim uses). Anything that is not one of our errors is a bug: it is logged and masked (decisions §2:
 * the message is generic, never a stack trace).
 */
import { GraphQLError, Kind, type ASTNode } from 'graphql';
import { NetdiagError } from '../errors.js';
import { checkOfField } from './check-declaration.js';
import { ProbeError } from '../probes/errors.js';
import { OWN_RESOLVER_LABEL } from '../probes/dns/client.js';
import type { Logger } from '../log.js';

export const GENERIC_ERROR_MESSAGE = 'internal error: the check failed unexpectedly';

/**
 * `ownUpstreams`: the addresses of upstreams that are the deployment's own (the system resolvers, as
 * errors write them): a client reads that the service's resolver failed, never where it is — that address
 * is inside the operator's network. The log keeps the address (an `own_resolver_failed` line).
 */
export function createMaskError(logger: Logger, ownUpstreams: ReadonlySet<string> = new Set()) {
  return (error: unknown): Error => {
    // Duck-typed: the executor may load another copy of graphql (ESM vs CJS), so instanceof is unreliable.
    const graphqlError = isGraphQLErrorLike(error) ? error : null;
    const original = graphqlError?.originalError ?? error;
    if (original instanceof NetdiagError) {
      const own = original instanceof ProbeError && ownUpstreams.has(original.upstream);
      // the operator reads where it is: the client's message names it only as the service's resolver
      if (own) logger.warn('own_resolver_failed', { upstream: original.upstream, message: original.message });
      return new GraphQLError(own ? withoutOwnAddress(original as ProbeError) : original.message, {
        nodes: graphqlError?.nodes,
        path: graphqlError?.path,
        extensions: {
          code: original.code,
          status: original.status,
          ...toolOfField(graphqlError?.nodes),
          ...(original instanceof ProbeError
            ? { upstream: own ? OWN_RESOLVER_LABEL : original.upstream, kind: original.kind }
            : {}),
        },
      });
    }
    if (graphqlError && !graphqlError.originalError) return graphqlError; // parse/validation errors: safe to show
    if (isGraphQLErrorLike(graphqlError?.originalError)) return graphqlError.originalError as GraphQLError;
    logger.error('unexpected_error', {
      message: original instanceof Error ? original.message : String(original),
      stack: original instanceof Error ? original.stack : undefined,
      path: graphqlError?.path,
    });
    return new GraphQLError(GENERIC_ERROR_MESSAGE, {
      nodes: graphqlError?.nodes,
      path: graphqlError?.path,
      extensions: { code: 'INTERNAL', status: 500 },
    });
  };
}

/**
 * The REST tool name of the check field an error belongs to, so that a GraphQL client composing several
 * checks can tell which one failed in the terms of the REST API and the price table.
 */
function toolOfField(nodes: readonly ASTNode[] | undefined): { tool?: string } {
  const node = nodes?.[0];
  if (node?.kind !== Kind.FIELD) return {};
  const tool = checkOfField(node.name.value)?.tool;
  return tool ? { tool } : {};
}

/**
 * The DNS client already names a labelled server so (src/probes/dns/failures.ts); this also covers an
 * error of an own upstream written elsewhere: "DNS server 10.0.0.2:53 …" → "the service's resolver …".
 */
function withoutOwnAddress(error: ProbeError): string {
  return error.message
    .replaceAll(`DNS server ${error.upstream}`, OWN_RESOLVER_LABEL)
    .replaceAll(error.upstream, OWN_RESOLVER_LABEL);
}

function isGraphQLErrorLike(e: unknown): e is GraphQLError {
  return e instanceof Error && e.name === 'GraphQLError' && 'extensions' in e;
}
