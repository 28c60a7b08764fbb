/** Fixed documents run by code compiled once (at start or on first use); every other document by the general executor. */
import {
  execute,
  GraphQLNonNull,
  GraphQLObjectType,
  GraphQLSchema,
  GraphQLString,
  parse,
  type DocumentNode,
} from 'graphql';
import { useDeferStream } from '@graphql-yoga/plugin-defer-stream';
import { createYoga } from 'graphql-yoga';
import { describe, expect, it } from 'vitest';
import {
  compileDocumentsOnFirstUse,
  precompileDocuments,
  usePrecompiledDocuments,
  type PrecompiledDocuments,
} from '../../../../src/graphql-server/plugins/use-precompiled-documents.js';
import { schema as netdiagSchema } from '../../../../src/graphql-server/schema.js';
import { restRoutes } from '../../../../src/rest/routes.js';

function greetingSchema(): GraphQLSchema {
  return new GraphQLSchema({
    query: new GraphQLObjectType({
      name: 'Query',
      fields: {
        greet: {
          type: GraphQLString,
          args: { name: { type: new GraphQLNonNull(GraphQLString) } },
          resolve: (_root, args: { name: string }, ctx: { greeting: string }) => `${ctx.greeting}, ${args.name}`,
        },
        fails: {
          type: GraphQLString,
          resolve: () => {
            throw new Error('this field fails');
          },
        },
      },
    }),
  });
}

const GREET = parse('query Greet($name: String!) { greet(name: $name) fails }');

/** The compiled executors, counting the runs that went through them. */
function counting(precompiled: PrecompiledDocuments) {
  let runs = 0;
  const wrapped: PrecompiledDocuments = {
    executorFor(document, schema) {
      const query = precompiled.executorFor(document, schema);
      return (
        query &&
        ((...args: Parameters<typeof query>) => {
          runs++;
          return query(...args);
        })
      );
    },
  };
  return { wrapped, runs: () => runs };
}

describe('precompiled documents', () => {
  it('answer a given document as the general executor does, errors included', async () => {
    const schema = greetingSchema();
    const precompiled = precompileDocuments(schema, [GREET]);
    const query = precompiled.executorFor(GREET, schema);
    expect(query).toBeTypeOf('function');
    const contextValue = { greeting: 'hello' };
    const variableValues = { name: 'netdiag' };
    const compiled = JSON.parse(JSON.stringify(await query!(undefined, contextValue, variableValues)));
    const general = JSON.parse(
      JSON.stringify(await execute({ schema, document: GREET, contextValue, variableValues })),
    );
    expect(compiled).toEqual(general);
    expect(compiled.data).toEqual({ greet: 'hello, netdiag', fails: null });
    expect(compiled.errors[0].message).toBe('this field fails');
  });

  it('know only the document objects and the schema they were compiled for', () => {
    const schema = greetingSchema();
    const precompiled = precompileDocuments(schema, [GREET]);
    // the same text parsed again is a client's document, not ours
    expect(precompiled.executorFor(parse('query Greet($name: String!) { greet(name: $name) fails }'), schema)).toBe(
      undefined,
    );
    expect(precompiled.executorFor(GREET, greetingSchema())).toBe(undefined);
  });

  it('stop the start when a document does not compile', () => {
    const noOperation: DocumentNode = parse('fragment F on Query { greet(name: "x") }');
    expect(() => precompileDocuments(greetingSchema(), [noOperation])).toThrow(
      /a fixed document does not compile: Must provide an operation/,
    );
  });

  it('compile on first use: once, and a document that does not compile fails there, not before', () => {
    const schema = greetingSchema();
    const noOperation: DocumentNode = parse('fragment F on Query { greet(name: "x") }');
    const lazily = compileDocumentsOnFirstUse(schema, [GREET, noOperation]);
    const first = lazily.executorFor(GREET, schema);
    expect(first).toBeTypeOf('function');
    expect(lazily.executorFor(GREET, schema)).toBe(first);
    expect(lazily.executorFor(parse('query Greet($name: String!) { greet(name: $name) fails }'), schema)).toBe(
      undefined,
    );
    expect(() => lazily.executorFor(noOperation, schema)).toThrow(/a fixed document does not compile/);
  });

  it('run through their code in the yoga pipeline; a document sent to /graphql keeps the general executor', async () => {
    const schema = greetingSchema();
    const { wrapped, runs } = counting(precompileDocuments(schema, [GREET]));
    const yoga = createYoga({
      schema,
      logging: false,
      context: () => ({ greeting: 'hi' }),
      plugins: [usePrecompiledDocuments(wrapped)],
    });

    // as the REST shim runs its fixed document (src/rest/handler.ts)
    const { execute: run, contextFactory, schema: executed } = yoga.getEnveloped({});
    const result = await run({
      schema: executed,
      document: GREET,
      variableValues: { name: 'shim' },
      contextValue: await contextFactory(),
    });
    expect((result as { data: unknown }).data).toEqual({ greet: 'hi, shim', fails: null });
    expect(runs()).toBe(1);

    const res = await yoga.fetch('http://netdiag.test/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        query: 'query Greet($name: String!) { greet(name: $name) }',
        variables: { name: 'client' },
      }),
    });
    expect(await res.json()).toEqual({ data: { greet: 'hi, client' } });
    expect(runs()).toBe(1);
  });

  it('run with @defer on: the plugin rebuilds the schema with its directives, keeping its types', async () => {
    const schema = greetingSchema();
    const { wrapped, runs } = counting(precompileDocuments(schema, [GREET]));
    const yoga = createYoga({
      schema,
      logging: false,
      context: () => ({ greeting: 'hi' }),
      plugins: [useDeferStream(), usePrecompiledDocuments(wrapped)],
    });
    const { execute: run, contextFactory, schema: executed } = yoga.getEnveloped({});
    expect(executed).not.toBe(schema);
    await run({
      schema: executed,
      document: GREET,
      variableValues: { name: 'shim' },
      contextValue: await contextFactory(),
    });
    expect(runs()).toBe(1);
  });

  it('cover every REST route of the service', () => {
    const documents = [...restRoutes.values()].map((r) => r.document);
    const precompiled = precompileDocuments(netdiagSchema, documents);
    for (const document of documents) expect(precompiled.executorFor(document, netdiagSchema)).toBeTypeOf('function');
  });
});
