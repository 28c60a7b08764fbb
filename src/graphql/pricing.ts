/**
 * Prices a GraphQL operation before execution (decisions §1): the sum of the costs of the check fields
 * it selects at the root, each occurrence counted (aliases and fragments included; what `@skip` or
 * `@include` leaves out is not selected). A field whose
 * arguments fail validation is left unpriced: it will answer a 400-class error and is not charged.
 */
import {
  GraphQLError,
  GraphQLIncludeDirective,
  GraphQLSkipDirective,
  Kind,
  getDirectiveValues,
  getOperationAST,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLSchema,
  type SelectionNode,
  type SelectionSetNode,
} from 'graphql';
import { getArgumentValues } from 'graphql/execution/values.js';
import type { Config } from '../config.js';
import type { RequestContext } from './context.js';
import { checkSpecForField } from './checks.js';

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
  readonly composite: boolean;
}

export function costOf(config: Config, tool: string): number {
  const costs = config.quota.costs as Record<string, number>;
  return costs[tool] ?? costs.default ?? 3;
}

export function priceOperation(
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName: string | null | undefined,
  variables: Record<string, unknown> | null | undefined,
  ctx: RequestContext,
): OperationPrice {
  const operation = getOperationAST(document, operationName);
  const queryType = schema.getQueryType();
  if (!operation || !queryType) return { fields: [], total: 0, needsKey: false, composite: false };
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments.set(d.name.value, d);

  const roots: FieldNode[] = [];
  const visited = new Set<string>();
  const vars = (variables ?? undefined) as Record<string, unknown> | undefined;
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
  let composite = false;
  const queryFields = queryType.getFields();
  for (const node of roots) {
    const name = node.name.value;
    if (name.startsWith('__')) continue;
    needsKey = true;
    const spec = checkSpecForField(name);
    const def = queryFields[name];
    if (!spec || !def) continue;
    composite ||= spec.composite ?? false;
    try {
      spec.parse(getArgumentValues(def, node, vars), ctx);
    } catch (e) {
      if (e instanceof GraphQLError || (e as { status?: number }).status === 400) continue;
      throw e;
    }
    fields.push({
      responseKey: node.alias?.value ?? name,
      tool: spec.tool,
      cost: costOf(ctx.services.config, spec.tool),
    });
  }
  return { fields, total: fields.reduce((s, f) => s + f.cost, 0), needsKey, composite };
}
