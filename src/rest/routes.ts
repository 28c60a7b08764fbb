/**
 * The REST route table, derived from the check definitions (src/graphql/check-declaration.ts): each
 * `GET /api/v1/<tool>` runs the fixed GraphQL document schema/rest/<tool>.graphql (typed by the code
 * generator) with the query parameters the definition names. A definition without its document, or a
 * document without its definition or selecting another field, stops the service at start. A tool that
 * is not in this table is a 404: there are no stubs.
 */
import { Kind, type DocumentNode, type FieldNode } from 'graphql';
import { allChecks, type CheckDeclaration, type RestParameterKind } from '../graphql/check-declaration.js';
import { schema } from '../graphql-server/schema.js';
import { isPartialSelection } from '../graphql-server/declaration-selection.js';
import { readFlattenMarks, type FlattenPath } from './flatten.js';
import * as ops from './generated/operations.js';
import type { QueryReader } from './query-reader.js';

export interface RestRoute {
  readonly tool: string;
  /** the route's document as GraphQL runs it: without the REST-only `@flatten` marks */
  readonly document: DocumentNode;
  /** the root field whose value is the envelope's data */
  readonly field: string;
  /** the fields the document marks `@flatten` (./flatten.ts), applied to the field's value before the envelope */
  readonly flatten: readonly FlattenPath[];
  readonly check: CheckDeclaration;
  /** the REST query parameters the route reads */
  readonly parameters: readonly string[];
  readonly variables: (query: QueryReader) => Record<string, unknown>;
}

const readers: Record<RestParameterKind, (q: QueryReader, name: string) => unknown> = {
  required: (q, name) => q.required(name),
  optional: (q, name) => q.optional(name),
  port: (q, name) => q.port(name),
  optionalPort: (q, name) => q.optionalPort(name),
};

/** `dns-lookup` → `DnsLookupDocument`: the code generator's name for schema/rest/dns-lookup.graphql */
function documentExportOf(tool: string): string {
  return `${tool.replace(/(^|-)([a-z])/g, (_m, _dash, c: string) => c.toUpperCase())}Document`;
}

function rootFieldOf(document: DocumentNode, where: string): FieldNode {
  const operation = document.definitions.find((d) => d.kind === Kind.OPERATION_DEFINITION);
  const first = operation?.kind === Kind.OPERATION_DEFINITION ? operation.selectionSet.selections[0] : undefined;
  if (!first || first.kind !== Kind.FIELD) throw new Error(`${where}: the document must select one root field`);
  return first;
}

function routeOf(check: CheckDeclaration): RestRoute {
  const where = `check ${check.tool} (schema/rest/${check.tool}.graphql)`;
  const written = (ops as Record<string, unknown>)[documentExportOf(check.tool)] as DocumentNode | undefined;
  if (!written) throw new Error(`${where}: no REST document; write it and run npm run codegen`);
  const root = rootFieldOf(written, where);
  const field = root.name.value;
  if (field !== check.field) throw new Error(`${where}: the document selects ${field}, the check is ${check.field}`);
  const parameters = Object.entries(check.rest);
  const { document, paths } = readFlattenMarks(written, root, where);
  return {
    tool: check.tool,
    document,
    field,
    flatten: paths,
    check,
    parameters: parameters.map(([name]) => name),
    variables: (query) => Object.fromEntries(parameters.map(([name, kind]) => [name, readers[kind](query, name)])),
  };
}

function buildRoutes(): ReadonlyMap<string, RestRoute> {
  void schema; // the definitions are registered once the schema is assembled
  const routes = new Map(allChecks().map((check) => [check.tool, routeOf(check)]));
  const documents = new Set([...routes.keys()].map(documentExportOf));
  // a command that loaded some checks only (src/graphql-server/declaration-selection.ts) has the others' documents
  for (const name of isPartialSelection() ? [] : Object.keys(ops))
    if (name.endsWith('Document') && !documents.has(name))
      throw new Error(`REST document ${name} (schema/rest/) has no check definition`);
  return routes;
}

export const restRoutes: ReadonlyMap<string, RestRoute> = buildRoutes();
