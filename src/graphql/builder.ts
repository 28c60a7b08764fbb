/**
 * The Pothos schema builder. It defines no types: each check is one declaration, the check.ts of its folder
 * src/checks/<family>/<tool>/ (defineCheck, ./check-declaration.ts), with its object types beside it.
 */
import SchemaBuilder from '@pothos/core';
import type { RequestContext } from './context.js';

export const builder = new SchemaBuilder<{
  Context: RequestContext;
  DefaultFieldNullability: false;
  Scalars: {
    JSON: { Input: unknown; Output: unknown };
  };
}>({
  defaultFieldNullability: false,
});

builder.queryType({
  description: 'Every diagnostic check is a field of Query. Each selected check field costs credits (see README).',
});

builder.scalarType('JSON', {
  description: 'Arbitrary JSON, used only where the published shape is an open map (response headers, tags, details).',
  serialize: (v) => v,
  parseValue: (v) => v,
});
