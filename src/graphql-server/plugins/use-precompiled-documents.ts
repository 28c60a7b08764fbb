/**
 * Fixed documents (the REST routes', src/rest/routes.ts) executed by code graphql-jit compiled for them,
 * instead of graphql-js's general executor walking the document on every request (docs/architecture.md
 * "The REST shim"). Parsing, validation, the context and every other plugin (credits, error masking) are
 * unchanged: only the executor is swapped, and only for these document objects. Documents sent to
 * /graphql are any client's text; they keep the general executor (compiling each new one would cost more
 * than it saves, and generated code stays limited to our own documents).
 *
 * A service compiles each document on its first use (`compileDocumentsOnFirstUse`): a process that answers
 * one tool — the command, `netdiag tls-rating` (docs/cli.md "Performance") — compiles one document, not
 * every route's, and a worker's steady state is the same. `precompileDocuments` compiles them all at once
 * (the job worker, whose items may use any; the test that every route's document compiles).
 */
import type { DocumentNode, ExecutionArgs, GraphQLSchema } from 'graphql';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';
import type { Plugin } from 'graphql-yoga';

export interface PrecompiledDocuments {
  /** the compiled executor of a document given at start, or undefined for any other document */
  executorFor(document: DocumentNode, schema: GraphQLSchema): CompiledQuery['query'] | undefined;
}

/** A document that does not compile is a bug in the repository, like a REST document selecting the wrong field. */
function compiled(schema: GraphQLSchema, document: DocumentNode): CompiledQuery['query'] {
  const result = compileQuery(schema, document);
  if (!isCompiledQuery(result)) {
    const why = result.errors?.map((e) => e.message).join('; ') ?? 'unknown error';
    throw new Error(`a fixed document does not compile: ${why}`);
  }
  return result.query.bind(result);
}

/**
 * The executors of `documents`, each compiled when first asked for. A document that does not compile throws
 * there (its request fails as an internal error); the unit tests compile every route's.
 */
export function compileDocumentsOnFirstUse(
  schema: GraphQLSchema,
  documents: Iterable<DocumentNode>,
): PrecompiledDocuments {
  const executors = new Map<DocumentNode, CompiledQuery['query'] | null>();
  for (const document of documents) executors.set(document, null);
  // The schema yoga executes may be this one with directives added (the @defer plugin rebuilds it from
  // toConfig(), which keeps every type object): it is this schema's when its Query type is this one's.
  const query = schema.getQueryType();
  return {
    executorFor(document, forSchema) {
      if (forSchema !== schema && !(query && forSchema.getQueryType() === query)) return undefined;
      const executor = executors.get(document);
      if (executor !== null) return executor;
      const made = compiled(schema, document);
      executors.set(document, made);
      return made;
    },
  };
}

/** Compiles every document against the schema now: one that does not compile stops the start. */
export function precompileDocuments(schema: GraphQLSchema, documents: Iterable<DocumentNode>): PrecompiledDocuments {
  const all = [...documents];
  const documentsOf = compileDocumentsOnFirstUse(schema, all);
  for (const document of all) documentsOf.executorFor(document, schema);
  return documentsOf;
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
