/**
 * Bounds on what an operation may cost us before it is priced or run. Introspection needs no key, so
 * an amplifying document (150 aliased `__schema` selections answer megabytes after half a second of
 * CPU) must be refused cheaply, before execution:
 * - the parser stops at `maxTokens` (graphql-js `parse` option: "Document contains more that N tokens",
 *   sic), and the request body is read only up to MAX_OPERATION_BODY_BYTES (app.ts);
 * - aliases, depth and directives are counted by the graphql-armor validation rules (maintained,
 *   fragment-aware), with the limit and the count in the message;
 * - at most one introspection root (`__schema` / `__type`) per operation (our own rule: armor has none);
 * - an operation the schema cannot run (a subscription, a mutation other than the job ones) fails validation
 *   too (graphql-js would only refuse it at execution, as a 200).
 * Every validation failure is a client error: HTTP 400 (GraphQL over HTTP answers 200 to
 * `application/json` clients by default), never charged (credits are taken at execution).
 */
import { maxAliasesRule } from '@escape.tech/graphql-armor-max-aliases';
import { maxDepthRule } from '@escape.tech/graphql-armor-max-depth';
import { maxDirectivesRule } from '@escape.tech/graphql-armor-max-directives';
import {
  GraphQLError,
  Kind,
  OperationTypeNode,
  parse,
  type ASTVisitor,
  type SelectionSetNode,
  type ValidationContext,
} from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { JOB_MUTATIONS, SUBSCRIPTIONS } from '../../graphql/jobs/jobs-port.js';

export const MAX_OPERATION_BODY_BYTES = 64 * 1024;

export interface OperationLimits {
  /** tokens of the document (graphql-js parser option) */
  readonly maxTokens: number;
  /** aliases in an operation, fragments included (graphql-armor max-aliases) */
  readonly maxAliases: number;
  /** field depth, fragments flattened, introspection counted (graphql-armor max-depth) */
  readonly maxDepth: number;
}

/**
 * Directives in one operation (graphql-armor max-directives): the schema's only directives are
 * `@skip`/`@include`, a handful of which any real operation needs; the bound is for documents repeating
 * them to cost CPU, so it is no operator's choice.
 */
export const MAX_DIRECTIVES = 10;

/** `extensions.code` of an operation refused before execution */
export const INVALID_OPERATION = 'INVALID_OPERATION';

export function useOperationLimits(limits: OperationLimits): Plugin {
  // armor throws its error out of validation when it propagates; report it instead, as every other rule
  // does, so that it is answered like any validation error (and so as a 400, below)
  const armor = {
    exposeLimits: true,
    propagateOnRejection: false,
    onReject: [(context: ValidationContext | null, error: GraphQLError) => context?.reportError(error)],
  };
  const rules = [
    maxAliasesRule({ ...armor, n: limits.maxAliases, allowList: [] }),
    maxDepthRule({ ...armor, n: limits.maxDepth, ignoreIntrospection: false, flattenFragments: true }),
    maxDirectivesRule({ ...armor, n: MAX_DIRECTIVES }),
    oneIntrospectionRoot,
    queriesOnly,
  ];
  return {
    onParse({ setParseFn }) {
      setParseFn((source, options) => {
        try {
          return parse(source, { ...options, maxTokens: limits.maxTokens });
        } catch (e) {
          throw asParseFailure(e);
        }
      });
    },
    // yoga marks these as "spec" errors, which it answers with 200 to application/json clients (GraphQL
    // over HTTP's legacy rule); a result-level status overrides that: ours is 400 for every client.
    onResultProcess({ result, setResult }) {
      if (Array.isArray(result) || !('errors' in result) || 'data' in result) return;
      if (!result.errors?.some((e) => CLIENT_ERROR_CODES.has(e.extensions?.code as string))) return;
      setResult({ ...result, extensions: { ...result.extensions, http: { status: 400 } } });
    },
    onValidate({ addValidationRule }) {
      for (const rule of rules) addValidationRule(rule);
      return ({ valid, result, setResult }) => {
        if (!valid) setResult(result.map(asClientError));
      };
    },
  };
}

/** The code of a document that does not parse (the name graphql-yoga and Apollo give it). */
export const GRAPHQL_PARSE_FAILED = 'GRAPHQL_PARSE_FAILED';

/**
 * The codes of requests the client got wrong before anything ran: a document that does not parse, and
 * yoga's BAD_REQUEST (no `query` in the body, a body that is not JSON…). Both are a 400 for every client.
 */
const CLIENT_ERROR_CODES = new Set([GRAPHQL_PARSE_FAILED, 'BAD_REQUEST']);

/**
 * A syntax error is the client's, like a validation error: 400 for every client, where yoga would answer
 * 200 to application/json clients (GraphQL over HTTP's legacy rule), so that both read the same status.
 */
function asParseFailure(error: unknown): unknown {
  if (!(error instanceof GraphQLError)) return error;
  return new GraphQLError(error.message, {
    source: error.source,
    positions: error.positions,
    extensions: { code: GRAPHQL_PARSE_FAILED, status: 400, http: { status: 400, spec: false } },
  });
}

function asClientError(error: Error): GraphQLError {
  const graphqlError = error instanceof GraphQLError ? error : null;
  return new GraphQLError(error.message.replace(/^Syntax Error: /, ''), {
    nodes: graphqlError?.nodes,
    source: graphqlError?.source,
    positions: graphqlError?.positions,
    // spec: false — yoga marks validation errors as "spec" errors, which it answers with 200 to
    // application/json clients (GraphQL over HTTP's legacy rule); ours are a 400 for every client
    extensions: {
      ...graphqlError?.extensions,
      code: INVALID_OPERATION,
      status: 400,
      http: { status: 400, spec: false },
    },
  });
}

/**
 * Every check is a query: a subscription other than the monitors' `monitorEvents` is refused before
 * execution, and so is a mutation that selects anything but the job and monitor mutations (docs/jobs.md
 * "GraphQL", docs/monitors.md "GraphQL").
 */
function queriesOnly(context: ValidationContext): ASTVisitor {
  return {
    OperationDefinition(operation) {
      if (operation.operation === OperationTypeNode.MUTATION && onlyJobMutations(operation.selectionSet, context))
        return;
      if (
        operation.operation === OperationTypeNode.SUBSCRIPTION &&
        onlyJobMutations(operation.selectionSet, context, new Set(), SUBSCRIPTIONS)
      )
        return;
      if (operation.operation !== OperationTypeNode.QUERY) {
        context.reportError(
          new GraphQLError(
            operation.operation === OperationTypeNode.MUTATION
              ? `Only query operations are supported, and the job and monitor mutations (${[...JOB_MUTATIONS].join(', ')}) alone in a mutation operation.`
              : `Only query operations are supported, and ${[...SUBSCRIPTIONS].join(', ')} alone in a subscription operation.`,
            { nodes: [operation] },
          ),
        );
      }
    },
  };
}

/** true when every root field of a mutation, through fragments, is a job mutation (or __typename) */
function onlyJobMutations(
  selectionSet: SelectionSetNode,
  context: ValidationContext,
  seen = new Set<string>(),
  allowed: ReadonlySet<string> = JOB_MUTATIONS,
): boolean {
  return selectionSet.selections.every((selection) => {
    if (selection.kind === Kind.FIELD)
      return allowed.has(selection.name.value) || selection.name.value === '__typename';
    if (selection.kind === Kind.INLINE_FRAGMENT)
      return onlyJobMutations(selection.selectionSet, context, seen, allowed);
    if (seen.has(selection.name.value)) return true;
    seen.add(selection.name.value);
    const fragment = context.getFragment(selection.name.value);
    return fragment ? onlyJobMutations(fragment.selectionSet, context, seen, allowed) : true;
  });
}

const INTROSPECTION_ROOTS = new Set(['__schema', '__type']);

/** At most one `__schema` / `__type` selection at the root of an operation (fragments followed). */
function oneIntrospectionRoot(context: ValidationContext): ASTVisitor {
  return {
    OperationDefinition(operation) {
      const seen = new Set<string>();
      const count = (selectionSet: SelectionSetNode): number => {
        let n = 0;
        for (const selection of selectionSet.selections) {
          if (selection.kind === Kind.FIELD) {
            if (INTROSPECTION_ROOTS.has(selection.name.value)) n++;
          } else if (selection.kind === Kind.INLINE_FRAGMENT) {
            n += count(selection.selectionSet);
          } else if (!seen.has(selection.name.value)) {
            seen.add(selection.name.value);
            const fragment = context.getFragment(selection.name.value);
            if (fragment) n += count(fragment.selectionSet);
          }
        }
        return n;
      };
      const found = count(operation.selectionSet);
      if (found > 1) {
        context.reportError(
          new GraphQLError(
            `Introspection limit of 1 root field (__schema or __type) per operation exceeded, found ${found}.`,
            {
              nodes: [operation],
            },
          ),
        );
      }
    },
  };
}
