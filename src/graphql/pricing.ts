/**
 * Prices a GraphQL operation before execution (decisions §1) as it will run: the variables are coerced
 * first (declared defaults applied, exactly as the executor will), `@skip`/`@include` are evaluated on
 * the coerced values, and the price is the sum of the costs of the check fields selected at the root,
 * each occurrence counted (aliases and fragments included). Every selected check field is priced: one
 * whose arguments will be refused is charged too, and given back after execution only when its error
 * was decided before anything was sent upstream (src/graphql-server/plugins/use-credits.ts).
 */
import {
  type GraphQLError,
  GraphQLIncludeDirective,
  GraphQLSkipDirective,
  Kind,
  getDirectiveValues,
  getOperationAST,
  getVariableValues,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLSchema,
  type SelectionNode,
  type SelectionSetNode,
} from 'graphql';
import type { Config } from '../config.js';
import type { RequestContext } from './context.js';
import { checkOfField, checkOfTool } from './check-declaration.js';

export interface PricedField {
  /** the response key (alias or name) */
  readonly responseKey: string;
  readonly tool: string;
  readonly cost: number;
}

export interface OperationPrice {
  readonly fields: PricedField[];
  readonly total: number;
  /** true when the operation selects anything but introspection */
  readonly needsKey: boolean;
}

/** The operation's variables do not coerce: the executor would refuse it whole, so nothing runs. */
export interface RefusedVariables {
  readonly errors: readonly GraphQLError[];
}

/**
 * The credits of one call of `tool`: the operator's `quota.costs` entry for it, else the price its
 * declaration gives (src/graphql/check-declaration.ts `price`), else `quota.costs.default`.
 */
export function costOf(config: Config, tool: string): number {
  const costs = config.quota.costs as Record<string, number>;
  return costs[tool] ?? checkOfTool(tool)?.price ?? costs.default ?? 3;
}

export function priceOperation(
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName: string | null | undefined,
  variables: Record<string, unknown> | null | undefined,
  ctx: RequestContext,
): OperationPrice | RefusedVariables {
  const operation = getOperationAST(document, operationName);
  const queryType = schema.getQueryType();
  if (!operation || !queryType) return { fields: [], total: 0, needsKey: false };
  // The executor coerces the same way before it runs anything (graphql-js execute → getVariableValues).
  const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], variables ?? {});
  if (coerced.errors) return { errors: coerced.errors };
  const vars = coerced.coerced;
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);

  const roots: FieldNode[] = [];
  const visited = new Set<string>();
  // what the executor skips does not run, so it costs nothing (graphql-js collectFields' rule)
  const included = (node: SelectionNode) =>
    getDirectiveValues(GraphQLSkipDirective, node, vars)?.if !== true &&
    getDirectiveValues(GraphQLIncludeDirective, node, vars)?.if !== false;
  const collect = (set: SelectionSetNode) => {
    for (const s of set.selections) {
      if (!included(s)) continue;
      if (s.kind === Kind.FIELD) roots.push(s);
      else if (s.kind === Kind.INLINE_FRAGMENT) collect(s.selectionSet);
      else if (!visited.has(s.name.value)) {
        visited.add(s.name.value); // a fragment spread twice at the root still selects its fields once
        const f = fragments.get(s.name.value);
        if (f) collect(f.selectionSet);
      }
    }
  };
  collect(operation.selectionSet);

  const fields: PricedField[] = [];
  let needsKey = operation.operation !== 'query';
  for (const node of roots) {
    const name = node.name.value;
    if (name.startsWith('__')) continue;
    needsKey = true;
    const spec = checkOfField(name);
    if (!spec) continue;
    fields.push({
      responseKey: node.alias?.value ?? name,
      tool: spec.tool,
      cost: costOf(ctx.services.config, spec.tool),
    });
  }
  return { fields, total: fields.reduce((s, f) => s + f.cost, 0), needsKey };
}

export function isRefusedVariables(price: OperationPrice | RefusedVariables): price is RefusedVariables {
  return 'errors' in price;
}
