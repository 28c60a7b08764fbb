/**
 * Turns thrown errors into GraphQL errors with a stable `extensions.code` (and the HTTP status the REST
 * shim uses). Anything that is not one of our errors is a bug: it is logged and masked (decisions §2:
 * the message is generic, never a stack trace).
 */
import { GraphQLError, Kind, type ASTNode } from 'graphql';
import { NetdiagError } from '../errors.js';
import { checkSpecForField } from './checks.js';
import { ProbeError } from '../probes/errors.js';
import type { Logger } from '../log.js';

export const GENERIC_ERROR_MESSAGE = 'internal error: the check failed unexpectedly';

export function createMaskError(logger: Logger) {
  return (error: unknown): Error => {
    // Duck-typed: the executor may load another copy of graphql (ESM vs CJS), so instanceof is unreliable.
    const graphqlError = isGraphQLErrorLike(error) ? error : null;
    const original = graphqlError?.originalError ?? error;
    if (original instanceof NetdiagError) {
      return new GraphQLError(original.message, {
        nodes: graphqlError?.nodes,
        path: graphqlError?.path,
        extensions: {
          code: original.code,
          status: original.status,
          ...toolOfField(graphqlError?.nodes),
          ...(original instanceof ProbeError ? { upstream: original.upstream, kind: original.kind } : {}),
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
  const tool = checkSpecForField(node.name.value)?.tool;
  return tool ? { tool } : {};
}

function isGraphQLErrorLike(e: unknown): e is GraphQLError {
  return e instanceof Error && e.name === 'GraphQLError' && 'extensions' in e;
}
