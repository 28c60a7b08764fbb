/**
 * The report's one operation (src/web/report/operation.ts): each part's REST selection under @defer, its main
 * parameter fed by $domain, valid against the schema with the @defer directive, within the operation limits,
 * and priced by the API's pricing as the sum of its checks (src/graphql/pricing.ts).
 */
import { GraphQLSchema, parse, validate } from 'graphql';
import { GraphQLDeferDirective } from '@graphql-tools/utils';
import { describe, expect, it } from 'vitest';
import { buildConfig } from '../../../../src/config.js';
import type { RequestContext } from '../../../../src/graphql/context.js';
import { costOf, priceOperation } from '../../../../src/graphql/pricing.js';
import { schema } from '../../../../src/graphql-server/schema.js';
import { restRoutes } from '../../../../src/rest/routes.js';
import { composeReportOperation, reportOperations } from '../../../../src/web/report/operation.js';
import { fieldOf, partsOf, REPORT_VIEWS } from '../../../../src/web/report/sections.js';

const withDefer = new GraphQLSchema({
  ...schema.toConfig(),
  directives: [...schema.getDirectives(), GraphQLDeferDirective],
});
const config = buildConfig({});
const ctx = { services: { config } } as unknown as RequestContext;

describe('the report operation', () => {
  it.each(REPORT_VIEWS)('of the %s view is valid, each part deferred under its label with $domain', (view) => {
    const text = composeReportOperation(view, restRoutes);
    const document = parse(text, { maxTokens: config.graphql.maxTokens });
    expect(validate(withDefer, document)).toEqual([]);
    for (const part of partsOf(view)) {
      const field = restRoutes.get(part.tool)!.field;
      expect(fieldOf(part.tool)).toBe(field);
      expect(text).toMatch(
        new RegExp(`\\.\\.\\. @defer\\(label: "${part.id}"\\) \\{\\s+${field}\\((domain|target): \\$domain\\)`),
      );
    }
  });

  it('is priced whole by the API’s pricing: every deferred field counted', () => {
    for (const view of REPORT_VIEWS) {
      const price = priceOperation(
        withDefer,
        parse(composeReportOperation(view, restRoutes)),
        null,
        { domain: 'example.com' },
        ctx,
      );
      expect('total' in price && price.total, view).toBe(
        reportOperations(restRoutes).price(view, (tool) => costOf(config, tool)),
      );
    }
  });

  it('is recognised by its exact text only', () => {
    const operations = reportOperations(restRoutes);
    expect(operations.viewOf(operations.text('mail'))).toBe('mail');
    expect(operations.viewOf(`${operations.text('mail')} `)).toBeNull();
    expect(operations.viewOf({ query: 'x' })).toBeNull();
  });
});
