/**
 * Threat: one cheap request that costs the service much (amplification), with or without a key.
 * Every refusal happens before execution: HTTP 400, a message naming the limit, nothing charged.
 */
import { getIntrospectionQuery } from 'graphql';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, graphql, type TestApp } from '../helpers/app.js';

let t: TestApp;
afterEach(async () => {
  await t?.close();
});

const SCHEMA_TYPES = '__schema { types { name fields { name type { name } } } }';

describe('GraphQL operation limits', () => {
  it('refuses 150 aliased introspections without a key, small and fast (the amplification of issue 15)', async () => {
    t = await createTestApp();
    const query = `{ ${Array.from({ length: 150 }, (_, i) => `a${i}: ${SCHEMA_TYPES}`).join(' ')} }`;
    const { status, body } = await graphql(t, query, {}, { key: null, headers: { accept: 'application/json' } });
    expect(status).toBe(400);
    expect(JSON.stringify(body).length).toBeLessThan(300 * 1024);
    expect(body.data).toBeUndefined();
    expect(body.errors.map((e: any) => e.message)).toContain('Aliases limit of 15 exceeded, found 150.');
    expect(body.errors[0].extensions).toMatchObject({ code: 'INVALID_OPERATION', status: 400 });
  });

  it('allows one introspection root per operation', async () => {
    t = await createTestApp();
    for (const query of [
      `{ ${SCHEMA_TYPES} again: ${SCHEMA_TYPES} }`,
      '{ __schema { queryType { name } } __type(name: "Query") { name } }',
      '{ ...A ...B } fragment A on Query { __schema { queryType { name } } } fragment B on Query { __type(name: "Query") { name } }',
    ]) {
      const { status, body } = await graphql(t, query, {}, { key: null });
      expect(status, query).toBe(400);
      expect(body.errors[0].message).toBe(
        'Introspection limit of 1 root field (__schema or __type) per operation exceeded, found 2.',
      );
    }
  });

  it('bounds depth (fragments flattened, introspection counted) and directives', async () => {
    t = await createTestApp({ graphql: { maxDepth: 8 } });
    const deep = `{ __schema { types { fields { type { ${'ofType { '.repeat(8)}name${' }'.repeat(8)} } } } } }`;
    const tooDeep = await graphql(t, deep, {}, { key: null });
    expect(tooDeep.status).toBe(400);
    expect(tooDeep.body.errors[0].message).toMatch(/^Query depth limit of 8 exceeded, found \d+\.$/);

    const directives = `{ ${Array.from({ length: 11 }, (_, i) => `d${i}: __typename @include(if: true)`).join(' ')} }`;
    const tooMany = await graphql(t, directives, {}, { key: null });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.errors[0].message).toBe('Directives limit of 10 exceeded, found 11.');
  });

  it('answers the standard introspection query (GraphiQL, codegen) within the limits', async () => {
    t = await createTestApp();
    const { status, body } = await graphql(
      t,
      getIntrospectionQuery({ descriptions: true, inputValueDeprecation: true, schemaDescription: true }),
      {},
      { key: null },
    );
    expect(status).toBe(200);
    expect(body.errors).toBeUndefined();
    expect(body.data.__schema.queryType.name).toBe('Query');
    // the second time from memory: the very same answer
    const again = await graphql(
      t,
      getIntrospectionQuery({ descriptions: true, inputValueDeprecation: true, schemaDescription: true }),
      {},
      { key: null },
    );
    expect(again.body).toEqual(body);
  });

  it('refuses operation types the service cannot run with 400', async () => {
    t = await createTestApp();
    for (const query of ['subscription { x }', 'mutation { x }']) {
      // plain application/json clients too, to whom GraphQL over HTTP would answer validation errors with 200
      const { status, body } = await graphql(t, query, {}, { headers: { accept: 'application/json' } });
      expect(status, query).toBe(400);
      expect(body.errors[0].extensions.code).toBe('INVALID_OPERATION');
      expect(body.errors.map((e: any) => e.message)).toContain(
        query.startsWith('mutation')
          ? 'Only query operations are supported, and the job and monitor mutations (submitJob, cancelJob, createMonitor, updateMonitor, deleteMonitor, runMonitor) alone in a mutation operation.'
          : 'Only query operations are supported, and monitorEvents alone in a subscription operation.',
      );
    }
  });

  it('charges nothing for a refused operation', async () => {
    t = await createTestApp({ quota: { credits: 10 } });
    const refused = await graphql(
      t,
      `{ ${Array.from({ length: 16 }, (_, i) => `a${i}: ipInfo(target: "8.8.8.8") { asn }`).join(' ')} }`,
    );
    expect(refused.status).toBe(400);
    const ok = await graphql(t, '{ ipInfo(target: "8.8.8.8") { asn } }');
    expect(ok.headers.get('ratelimit-remaining')).toBe('7');
  });
});
