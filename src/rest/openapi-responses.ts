/**
 * The answers the OpenAPI document describes for the endpoints beside the checks (jobs, monitors): a 2xx in the
 * v1 envelope (`{ ok, data, meta: { tool, version } }`, docs/contract/api-v1.md) and a refusal by reference to
 * the area's error schema; and which keywords of a schema zod writes the document leaves out.
 */
import { API_VERSION } from './envelope.js';

type Json = Record<string, unknown>;

/** A response whose body is the envelope of `tool` with `data`. */
export function envelopedResponse(tool: string, description: string, data: Json): Json {
  return {
    description,
    content: {
      'application/json': {
        schema: {
          type: 'object',
          properties: {
            ok: { const: true },
            data,
            meta: {
              type: 'object',
              properties: { tool: { const: tool }, version: { const: API_VERSION } },
              required: ['tool', 'version'],
            },
          },
          required: ['ok', 'data', 'meta'],
        },
      },
    },
  };
}

/** A refusal whose body is the component schema `errorSchema`. */
export function refusalResponse(errorSchema: string, description: string): Json {
  return { description, content: { 'application/json': { schema: { $ref: `#/components/schemas/${errorSchema}` } } } };
}

/**
 * A keyword of a schema zod wrote that the document leaves out: `$schema` and `$id`, a safe integer's
 * bounds (they say nothing a reader needs), and in an answer (`output`) `additionalProperties: false` — an
 * answer may gain fields (the contract's rule): only a request body is closed.
 */
export function isLeftOutKeyword(key: string, value: unknown, output: boolean): boolean {
  if (key === '$schema' || key === '$id') return true;
  if (
    (key === 'maximum' && value === Number.MAX_SAFE_INTEGER) ||
    (key === 'minimum' && value === Number.MIN_SAFE_INTEGER)
  )
    return true;
  return output && key === 'additionalProperties' && value === false;
}
