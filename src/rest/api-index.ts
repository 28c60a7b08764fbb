/**
 * `GET /api/v1`: what a client or a person finds at the root of the API — every tool with its address,
 * parameters, price and a one-line summary, where jobs and monitors are, and where the OpenAPI document, the
 * reference pages and GraphQL are. In the envelope like every answer under /api/v1 (decisions §2).
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

/** Where jobs are: one tool over many targets in the background (docs/jobs.md). */
export interface ApiIndexJobs {
  readonly path: string;
  /** their endpoints in the API reference */
  readonly reference: string;
  readonly summary: string;
}

export interface ApiIndex {
  readonly tools: readonly ApiIndexTool[];
  readonly jobs: ApiIndexJobs;
  /** where monitors are (docs/monitors.md), as jobs */
  readonly monitors: ApiIndexJobs;
  readonly openapi: string;
  readonly docs: string;
  readonly graphql: string;
}

/** The jobs' part of the index: their endpoints' section of the reference (Swagger UI's deep link to the tag). */
function jobsEntry(docs: string): ApiIndexJobs {
  return {
    path: '/api/v1/jobs',
    reference: `${docs}#/Jobs`,
    summary:
      'One tool over many targets in the background: POST the tool and its targets, read the progress, the results as NDJSON or CSV, or a stream of events; priced per target.',
  };
}

/** The monitors' part of the index, as the jobs' (docs/monitors.md). */
function monitorsEntry(docs: string): ApiIndexJobs {
  return {
    path: '/api/v1/monitors',
    reference: `${docs}#/Monitors`,
    summary:
      'Checks run over targets on a schedule: POST the checks, targets and interval; read the history, and the events of what changed on a signed webhook, as JSON or a stream; a badge; priced per run.',
  };
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
  return { tools, jobs: jobsEntry(paths.docs), monitors: monitorsEntry(paths.docs), ...paths };
}
