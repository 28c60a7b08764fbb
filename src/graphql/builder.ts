/**
 * The Pothos schema builder. It defines no types: each check is one definition in
 * graphql/definitions/<tool>.ts (defineCheck, graphql/check-declaration.ts) and its object types live in
 * graphql/types/<area>.ts, shared by the checks of an area.
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
