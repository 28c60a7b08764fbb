/**
 * Fixed documents (the REST routes', src/rest/routes.ts) executed by code compiled for them once, at
 * start, by graphql-jit, instead of graphql-js's general executor walking the document on every request
 * (docs/architecture.md "The REST shim"). Parsing, validation, the context and every other plugin (credits,
 * error masking) are unchanged: only the executor is swapped, and only for these document objects.
 * Documents sent to /graphql are any client's text; they keep the general executor (compiling each
 * new one would cost more than it saves, and generated code stays limited to our own documents).
 */
import type { DocumentNode, ExecutionArgs, GraphQLSchema } from 'graphql';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';
import type { Plugin } from 'graphql-yoga';

export interface PrecompiledDocuments {
  /** the compiled executor of a document given at start, or undefined for any other document */
  executorFor(document: DocumentNode, schema: GraphQLSchema): CompiledQuery['query'] | undefined;
}

/**
 * Compiles every document against the schema now. A document that does not compile is a bug in the
 * repository: it stops the service at start, like a REST document that selects the wrong field.
 */
export function precompileDocuments(schema: GraphQLSchema, documents: Iterable<DocumentNode>): PrecompiledDocuments {
  const compiled = new Map<DocumentNode, CompiledQuery['query']>();
  for (const document of documents) {
    const result = compileQuery(schema, document);
    if (!isCompiledQuery(result)) {
      const why = result.errors?.map((e) => e.message).join('; ') ?? 'unknown error';
      throw new Error(`a fixed document does not compile: ${why}`);
    }
    compiled.set(document, result.query.bind(result));
  }
  // The schema yoga executes may be this one with directives added (the @defer plugin rebuilds it from
  // toConfig(), which keeps every type object): it is this schema's when its Query type is this one's.
  const query = schema.getQueryType();
  return {
    executorFor: (document, forSchema) =>
      forSchema === schema || (query && forSchema.getQueryType() === query) ? compiled.get(document) : undefined,
  };
}

export function usePrecompiledDocuments(precompiled: PrecompiledDocuments): Plugin {
  return {
    onExecute({ args, setExecuteFn }) {
      const query = precompiled.executorFor(args.document, args.schema);
      if (!query) return;
      setExecuteFn((a: ExecutionArgs) => query(a.rootValue, a.contextValue, a.variableValues));
    },
  };
}
