/**
 * One definition per check (src/graphql/check-declaration.ts): the REST route, the GraphQL field and the REST
 * parameters all come from it, and nothing can be declared twice or drift apart.
 */
import { readdirSync } from 'node:fs';
import { Kind, type OperationDefinitionNode } from 'graphql';
import { describe, expect, it } from 'vitest';
import { allChecks, CHECK_FAMILIES, checkOfField, defineCheck } from '../../../src/graphql/check-declaration.js';
import { schema } from '../../../src/graphql-server/schema.js';
import { restRoutes } from '../../../src/rest/routes.js';

describe('check definitions', () => {
  it('give every check its REST route, whose document selects the check field', () => {
    const checks = allChecks();
    // one REST document per check (schema/rest/<tool>.graphql), one definition per document
    const documents = readdirSync(new URL('../../../schema/rest/', import.meta.url)).filter((f) =>
      f.endsWith('.graphql'),
    );
    expect(checks.map((c) => `${c.tool}.graphql`).sort()).toEqual(documents.sort());
    expect(checks.length).toBeGreaterThanOrEqual(27);
    expect([...restRoutes.keys()]).toEqual(checks.map((c) => c.tool));
    for (const check of checks) {
      const route = restRoutes.get(check.tool)!;
      expect(route.field, check.tool).toBe(check.field);
      expect(route.check).toBe(check);
    }
  });

  it('read exactly the variables of the REST document from the query string', () => {
    for (const route of restRoutes.values()) {
      const operation = route.document.definitions.find(
        (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION,
      )!;
      const variables = (operation.variableDefinitions ?? []).map((v) => v.variable.name.value).sort();
      expect(Object.keys(route.check.rest).sort(), route.tool).toEqual(variables);
    }
  });

  it('carry the tool, family and composite bound into the schema field', () => {
    const fields = schema.getQueryType()!.getFields();
    for (const check of allChecks()) {
      expect(fields[check.field]?.extensions?.check, check.field).toEqual({
        tool: check.tool,
        family: check.family,
        composite: check.composite ?? false,
      });
      expect(Object.keys(CHECK_FAMILIES)).toContain(check.family);
    }
    expect(checkOfField('mailhealthCheck')?.composite).toBe(true);
    expect(checkOfField('__typename')).toBeUndefined();
  });

  it('refuse a field or a tool defined twice', () => {
    const myIp = checkOfField('myIp')!;
    expect(() => defineCheck({ ...myIp })).toThrow('check field myIp is defined twice');
    expect(() => defineCheck({ ...myIp, field: 'myIpAgain' })).toThrow('tool my-ip is defined by myIp and myIpAgain');
  });
});
