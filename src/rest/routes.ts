/**
 * The REST route table: each `GET /api/v1/<tool>` is a fixed GraphQL document (schema/rest/<tool>.graphql,
 * typed by the code generator) plus a mapping of query parameters to its variables. A tool that is not
 * in this table is a 404: there are no stubs.
 */
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { Kind, type DocumentNode } from 'graphql';
import * as ops from './generated/operations.js';
import type { QueryReader } from './query-reader.js';

export interface RestRoute {
  readonly tool: string;
  readonly document: DocumentNode;
  /** the root field whose value is the envelope's data */
  readonly field: string;
  readonly variables: (query: QueryReader) => Record<string, unknown>;
}

function route<TData, TVariables extends Record<string, unknown>>(
  tool: string,
  document: TypedDocumentNode<TData, TVariables>,
  variables: (query: QueryReader) => TVariables,
): RestRoute {
  const operation = document.definitions.find((d) => d.kind === Kind.OPERATION_DEFINITION);
  const first = operation?.kind === Kind.OPERATION_DEFINITION ? operation.selectionSet.selections[0] : undefined;
  if (!first || first.kind !== Kind.FIELD) throw new Error(`route ${tool}: its document must select one root field`);
  return { tool, document, field: first.alias?.value ?? first.name.value, variables };
}

export const restRoutes: ReadonlyMap<string, RestRoute> = new Map(
  [
    route('my-ip', ops.MyIpDocument, () => ({})),
  ].map((r) => [r.tool, r]),
);
