/**
 * The answers the OpenAPI document describes for the endpoints beside the checks (jobs, monitors): a 2xx in the
 * v1 envelope (`{ ok, data, meta: { tool, version } }`, docs/contract/api-v1.md) and a refusal by reference to
 * the area's error schema.
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
