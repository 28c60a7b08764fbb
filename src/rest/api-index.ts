/**
 * `GET /api/v1`: what a client or a person finds at the root of the API — every tool with its address,
 * parameters, price and a one-line summary, and where the OpenAPI document, the reference pages and
 * GraphQL are. In the envelope like every answer under /api/v1 (decisions §2).
 */
import type { Config } from '../config.js';
import { costOf } from '../graphql/pricing.js';
import type { RestRoute } from './routes.js';

export interface ApiIndexTool {
  readonly tool: string;
  readonly path: string;
  readonly family: string;
  readonly credits: number;
  readonly parameters: ReadonlyArray<{ readonly name: string; readonly required: boolean }>;
  readonly summary: string;
}

export interface ApiIndex {
  readonly tools: readonly ApiIndexTool[];
  readonly openapi: string;
  readonly docs: string;
  readonly graphql: string;
}

/** The first sentence of a description (up to the first ". " or the end). */
function firstSentence(text: string): string {
  const end = text.search(/\.\s/);
  return end === -1 ? text.trim() : text.slice(0, end + 1);
}

export function apiIndex(
  routes: Iterable<RestRoute>,
  config: Config,
  paths: { readonly openapi: string; readonly docs: string; readonly graphql: string },
): ApiIndex {
  const tools = [...routes].map((route) => ({
    tool: route.tool,
    path: `/api/v1/${route.tool}`,
    family: route.check.family,
    credits: costOf(config, route.tool),
    parameters: Object.entries(route.check.rest).map(([name, kind]) => ({
      name,
      required: kind === 'required' || kind === 'port',
    })),
    summary: firstSentence(route.check.description),
  }));
  return { tools, ...paths };
}
