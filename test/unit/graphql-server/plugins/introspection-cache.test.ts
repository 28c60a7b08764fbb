/** Introspection answers are computed once per document and served from memory afterwards. */
import { getIntrospectionQuery } from 'graphql';
import { createYoga, type Plugin } from 'graphql-yoga';
import { describe, expect, it } from 'vitest';
import { useIntrospectionCache } from '../../../../src/graphql-server/plugins/use-introspection-cache.js';
import { schema } from '../../../../src/graphql-server/schema.js';

function yogaCountingExecutions() {
  let executions = 0;
  const counting: Plugin = {
    onExecute({ executeFn, setExecuteFn }) {
      setExecuteFn((args) => {
        executions++;
        return executeFn(args);
      });
    },
  };
  const yoga = createYoga({ schema, logging: false, plugins: [counting, useIntrospectionCache()] });
  const post = async (query: string) => {
    const res = await yoga.fetch('http://netdiag.test/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query }),
    });
    return res.json();
  };
  return { post, executions: () => executions };
}

describe('introspection cache', () => {
  it('executes an introspection document once, then answers the same from memory', async () => {
    const { post, executions } = yogaCountingExecutions();
    const first = await post(getIntrospectionQuery());
    const second = await post(getIntrospectionQuery());
    expect(second).toEqual(first);
    expect(first.data.__schema.queryType.name).toBe('Query');
    expect(executions()).toBe(1);
    // another document is another entry
    await post('{ __type(name: "Query") { name } }');
    expect(executions()).toBe(2);
  });

  it('executes every operation that selects anything but introspection', async () => {
    const { post, executions } = yogaCountingExecutions();
    await post('{ __typename ipInfo(target: "x") { asn } }');
    await post('{ __typename ipInfo(target: "x") { asn } }');
    expect(executions()).toBe(2);
  });
});
