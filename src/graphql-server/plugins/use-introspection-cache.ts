/**
 * Introspection answers served from memory. The schema never changes while the service runs, so an
 * operation that selects only introspection fields (GraphiQL's schema query, codegen, client tools; no
 * key needed) has one answer per document and variables: computed once, then served without executing.
 * Bounded in entries and bytes, so arbitrary introspection documents cannot grow it.
 */
import { Kind, print, type DefinitionNode, type ExecutionResult, type OperationDefinitionNode } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { LRUCache } from 'lru-cache';

const MAX_ENTRIES = 32;
const MAX_BYTES = 16 * 1024 * 1024;

export function useIntrospectionCache(): Plugin {
  const answers = new LRUCache<string, ExecutionResult>({
    max: MAX_ENTRIES,
    maxSize: MAX_BYTES, // each entry's size is given when it is stored
  });
  return {
    onExecute({ args, setResultAndStopExecution }) {
      const operation = args.document.definitions.find(
        (d: DefinitionNode): d is OperationDefinitionNode =>
          d.kind === Kind.OPERATION_DEFINITION && (args.operationName == null || d.name?.value === args.operationName),
      );
      if (!operation || !selectsOnlyIntrospection(operation)) return undefined;
      const key = `${args.operationName ?? ''}\n${JSON.stringify(args.variableValues ?? {})}\n${print(args.document)}`;
      const cached = answers.get(key);
      if (cached) {
        setResultAndStopExecution(cached);
        return undefined;
      }
      return {
        onExecuteDone({ result }) {
          if (Symbol.asyncIterator in result || result.errors?.length) return;
          answers.set(key, result, { size: key.length + JSON.stringify(result.data).length });
        },
      };
    },
  };
}

/** Root fields are all `__schema`, `__type` or `__typename` (fragments at the root count as not-only). */
function selectsOnlyIntrospection(operation: OperationDefinitionNode): boolean {
  return operation.selectionSet.selections.every((s) => s.kind === Kind.FIELD && s.name.value.startsWith('__'));
}
