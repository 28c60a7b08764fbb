/**
 * Reads and validates a job submission (docs/contract/jobs.md "Endpoints", POST): every target goes
 * through the tool's own REST parameter reading and its definition's `parse`, the same two steps a single
 * `GET /api/v1/<tool>` takes, so a bad target's reason reads as that call's 400 would, prefixed with
 * its index. Nothing is charged or stored unless every target passes.
 */
import { NetdiagError } from '../../errors.js';
import type { AuthOutcome } from '../../platform/auth.js';
import type { Services } from '../../services.js';
import { createRequestContext } from '../../graphql/context.js';
import { QueryReader } from '../query-reader.js';
import { restRoutes, type RestRoute } from '../routes.js';
import { checkCallbackUrl } from './callback.js';
import type { SubmittedTarget } from './job-record.js';

/** Tools that answer about the caller rather than a target: a job of them means nothing (contract). */
const NOT_FOR_JOBS = new Set(['my-ip', 'what-is-my-ip']);

/** The parameter a string target fills, in this order of preference (contract: domain, host, url or target). */
const MAIN_PARAMETERS = ['domain', 'host', 'url', 'target'];

export interface Submission {
  readonly route: RestRoute;
  readonly targets: SubmittedTarget[];
  readonly params: Record<string, string>;
  readonly callbackUrl: string | null;
}

export class SubmissionError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export function jobTools(): string[] {
  return [...restRoutes.keys()].filter((tool) => !NOT_FOR_JOBS.has(tool));
}

/** The query a target stands for: the shared parameters, then the target's own (a target's value wins). */
export function queryOf(route: RestRoute, params: Readonly<Record<string, string>>, target: SubmittedTarget) {
  const query = new URLSearchParams(params);
  if (typeof target === 'string') {
    const main = mainParameterOf(route);
    if (main) query.set(main, target);
  } else {
    for (const [name, value] of Object.entries(target)) query.set(name, value);
  }
  return query;
}

/** The GraphQL variables of one target, read as the REST shim reads a query string (throws NetdiagError). */
export function variablesOf(
  route: RestRoute,
  params: Readonly<Record<string, string>>,
  target: SubmittedTarget,
): Record<string, unknown> {
  return route.variables(new QueryReader(queryOf(route, params, target), route.parameters));
}

function mainParameterOf(route: RestRoute): string | undefined {
  return MAIN_PARAMETERS.find((name) => route.parameters.includes(name));
}

/** `body`: the parsed JSON. Throws SubmissionError (400) naming the first fault. */
export async function readSubmission(
  body: unknown,
  options: { services: Services; auth: AuthOutcome; request: Request; url: URL },
): Promise<Submission> {
  const { services } = options;
  if (body === null || typeof body !== 'object' || Array.isArray(body))
    throw new SubmissionError(400, 'the body must be a JSON object: { "tool": "...", "targets": [...] }');
  const { tool, targets, params, callbackUrl, ...unknown } = body as Record<string, unknown>;
  const extra = Object.keys(unknown)[0];
  if (extra !== undefined)
    throw new SubmissionError(
      400,
      `unknown field "${extra.slice(0, 64)}": a job takes tool, targets, params and callbackUrl`,
    );
  if (typeof tool !== 'string' || tool === '')
    throw new SubmissionError(400, 'tool: missing; name a v1 tool (GET /api/v1 lists them)');
  const route = restRoutes.get(tool);
  if (!route || NOT_FOR_JOBS.has(tool))
    throw new SubmissionError(
      400,
      NOT_FOR_JOBS.has(tool)
        ? `tool: ${tool} answers about the caller and takes no targets; it cannot be a job`
        : `tool: unknown tool "${tool.slice(0, 64)}" (GET /api/v1 lists every tool)`,
    );
  const shared = readParameters(params, 'params');
  const max = services.config.jobs.maxTargets;
  if (!Array.isArray(targets) || targets.length === 0)
    throw new SubmissionError(400, `targets: an array of 1 to ${max} targets is required`);
  if (targets.length > max)
    throw new SubmissionError(400, `targets: ${targets.length} targets; a job takes at most ${max}`);
  const read: SubmittedTarget[] = targets.map((target, index) => {
    if (typeof target === 'string') {
      if (!mainParameterOf(route))
        throw new SubmissionError(
          400,
          `targets[${index}]: ${tool} has no main parameter a string could fill; give an object of its parameters`,
        );
      return target;
    }
    return readParameters(target, `targets[${index}]`);
  });
  await validateTargets(route, shared, read, options);
  // last: it may ask DNS, so only a submission that is otherwise whole gets that far
  let callback: URL | null = null;
  if (callbackUrl !== undefined && callbackUrl !== null) {
    try {
      callback = await checkCallbackUrl(callbackUrl, services, options.request.signal);
    } catch (e) {
      if (e instanceof NetdiagError) throw new SubmissionError(e.status, e.message);
      throw e;
    }
  }
  return { route, targets: read, params: shared, callbackUrl: callback?.href ?? null };
}

/** An object of parameter values: strings, or numbers and booleans written as a query string would. */
function readParameters(value: unknown, where: string): Record<string, string> {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value))
    throw new SubmissionError(400, `${where}: must be an object of parameter names and values`);
  const out: Record<string, string> = {};
  for (const [name, v] of Object.entries(value)) {
    if (typeof v !== 'string' && typeof v !== 'number' && typeof v !== 'boolean')
      throw new SubmissionError(400, `${where}.${name.slice(0, 64)}: a parameter value is a string or a number`);
    out[name] = String(v);
  }
  return out;
}

/** Targets validated between two turns of the event loop: 10,000 at once would hold up every other request. */
const VALIDATED_PER_TURN = 500;

/** Each target through the route's parameter reading and the definition's parse, as a single call. */
async function validateTargets(
  route: RestRoute,
  params: Record<string, string>,
  targets: readonly SubmittedTarget[],
  options: { services: Services; auth: AuthOutcome; request: Request; url: URL },
): Promise<void> {
  const atEnd: (() => void)[] = [];
  const ctx = createRequestContext({
    services: options.services,
    request: options.request,
    url: options.url,
    peerAddress: null,
    auth: options.auth,
    deadlineMs: options.services.config.server.requestTimeoutMs,
    responseHeaders: {},
    atEnd,
  });
  try {
    for (const [index, target] of targets.entries()) {
      if (index > 0 && index % VALIDATED_PER_TURN === 0) await new Promise((resolve) => setImmediate(resolve));
      try {
        route.check.parse(variablesOf(route, params, target), ctx);
      } catch (e) {
        if (e instanceof NetdiagError) throw new SubmissionError(e.status, `targets[${index}]: ${e.message}`);
        throw e;
      }
    }
  } finally {
    for (const end of atEnd) end();
  }
}
