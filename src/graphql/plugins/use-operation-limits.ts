/**
 * Bounds on what an operation may cost us before it is priced: introspection needs no key, so a
 * huge or deeply nested document must be refused cheaply. The parser stops at `maxTokens` (graphql-js
 * `parse` option: "Document contains more that N tokens" — sic — a 400), and the request body is read only
 * up to MAX_OPERATION_BODY_BYTES (app.ts).
 */
import { parse } from 'graphql';
import type { Plugin } from 'graphql-yoga';

export const MAX_OPERATION_TOKENS = 4000;
export const MAX_OPERATION_BODY_BYTES = 64 * 1024;

export function useOperationLimits(maxTokens = MAX_OPERATION_TOKENS): Plugin {
  return {
    onParse({ setParseFn }) {
      setParseFn((source, options) => parse(source, { ...options, maxTokens }));
    },
  };
}
