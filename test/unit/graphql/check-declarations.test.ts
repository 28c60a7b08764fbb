/**
 * One declaration per check (src/graphql/check-declaration.ts), in the check's own folder: the REST route,
 * the GraphQL field, the REST parameters, the default price and the composites' parts all come from it, and
 * nothing can be declared twice or drift apart.
 */
import { existsSync, readdirSync } from 'node:fs';
import { Kind, type OperationDefinitionNode } from 'graphql';
import { describe, expect, it } from 'vitest';
import {
  allChecks,
  CHECK_FAMILIES,
  checkOfField,
  defineCheck,
  familySlug,
} from '../../../src/graphql/check-declaration.js';
import { mailParts } from '../../../src/checks/composite/mailhealth-check/parts.js';
import { websiteParts } from '../../../src/checks/composite/website-health-check/parts.js';
import { costOf } from '../../../src/graphql/pricing.js';
import { buildConfig } from '../../../src/config.js';
import { schema } from '../../../src/graphql-server/schema.js';
import { restRoutes } from '../../../src/rest/routes.js';
import { watchSpecs } from '../../../src/graphql-server/watch-specs.js';

describe('check declarations', () => {
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

  it('live each in its own folder, src/checks/<family>/<tool>/check.ts', () => {
    for (const check of allChecks()) {
      const file = new URL(`../../../src/checks/${familySlug(check.family)}/${check.tool}/check.ts`, import.meta.url);
      expect(existsSync(file), `${check.tool} in src/checks/${familySlug(check.family)}/${check.tool}/`).toBe(true);
    }
  });

  it('declare the watch spec of every tool a monitor may run (all but my-ip and what-is-my-ip), which watchSpecs() hands out', () => {
    const aboutTheCaller = ['my-ip', 'what-is-my-ip'];
    for (const check of allChecks()) {
      if (aboutTheCaller.includes(check.tool)) expect(check.watch, check.tool).toBeUndefined();
      else expect(check.watch?.tool, check.tool).toBe(check.tool);
    }
    expect([...watchSpecs().keys()].sort()).toEqual(
      allChecks()
        .map((c) => c.tool)
        .filter((tool) => !aboutTheCaller.includes(tool))
        .sort(),
    );
    expect(watchSpecs().get('caa')).toBe(checkOfField('caa')!.watch);
  });

  it('give the default price, which quota.costs overrides; a check without one costs quota.costs.default', () => {
    const defaults = buildConfig({});
    expect(costOf(defaults, 'tls-rating')).toBe(10);
    expect(costOf(defaults, 'my-ip')).toBe(1);
    expect(costOf(defaults, 'dns-lookup')).toBe(3);
    const operator = buildConfig({ quota: { costs: { default: 2, 'tls-rating': 7 } } });
    expect(costOf(operator, 'tls-rating')).toBe(7);
    expect(costOf(operator, 'tls-configuration')).toBe(4);
    expect(costOf(operator, 'dns-lookup')).toBe(2);
  });

  it("join the composites from the parts' own declarations, in their order", () => {
    // the ratings first (grades.md); a check that joins later comes after them, by its order
    const website = websiteParts.joined.map((p) => [p.spec.id, p.check.tool, p.field]);
    expect(website.slice(0, 2)).toEqual([
      ['tls-rating', 'tls-rating', 'tlsRating'],
      ['http-rating', 'http-rating', 'httpRating'],
    ]);
    expect(mailParts.joined.map((p) => [p.spec.id, p.check.tool, p.field]).slice(0, 5)).toEqual([
      ['mta-sts', 'mta-sts', 'mtaSts'],
      ['tls-rpt', 'tls-rpt', 'tlsRpt'],
      ['starttls', 'smtp-starttls', 'starttls'],
      ['dane', 'dane', 'dane'],
      ['bimi', 'bimi', 'bimi'],
    ]);
    for (const parts of [websiteParts, mailParts]) {
      const orders = parts.joined.map((p) => p.spec.order);
      expect(orders).toEqual([...orders].sort((a, b) => a - b));
      // each part is declared by its check: the declaration lists it
      for (const p of parts.joined) expect(p.check.partOf?.map((o) => o.id)).toContain(p.spec.id);
    }
    expect(checkOfField('websiteHealthCheck')?.flatten?.()).toEqual(
      websiteParts.joined.map((p) => `${p.details.name}.${p.field}`),
    );
    expect(checkOfField('websiteHealthCheck')?.flatten?.().slice(0, 2)).toEqual([
      'WebsiteTlsRatingDetails.tlsRating',
      'WebsiteHttpRatingDetails.httpRating',
    ]);
  });
});
