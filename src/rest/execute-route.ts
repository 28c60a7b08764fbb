/**
 * One run of a REST route's fixed document through the yoga pipeline (getEnveloped: context, credits
 * plugin, error masking, the compiled executor), within the route's bound: what a single call
 * (handler.ts) and a job item (jobs/rest-job-tools.ts) both do, so an item's answer is the single call's.
 */
import type { ExecutionResult, GraphQLError } from 'graphql';
import { withDeadline } from '../deadline.js';
import type { RequestContext } from '../graphql/context.js';
import { GENERIC_ERROR_MESSAGE } from '../graphql/errors.js';
import type { NetdiagYoga } from '../graphql-server/yoga.js';
import type { AuthOutcome } from '../platform/auth.js';
import type { Services } from '../services.js';
import { applyFlatten } from './flatten.js';
import type { RestRoute } from './routes.js';

export type RouteOutcome =
  | { readonly kind: 'data'; readonly data: unknown }
  /** `error`: the first GraphQL error, for callers that look at more than its status and message */
  | { readonly kind: 'error'; readonly status: number; readonly message: string; readonly error: GraphQLError }
  | { readonly kind: 'deadline'; readonly status: 504; readonly message: string };

export interface RouteRun {
  readonly request: Request;
  readonly url: URL;
  readonly peerAddress: string | null;
  readonly auth: AuthOutcome;
  readonly variables: Record<string, unknown>;
  /** the rate-limit and other headers the pipeline sets, for the answer */
  readonly responseHeaders: Record<string, string>;
  /** a job item, paid for with its job: the credits plugin charges nothing more */
  readonly prepaid?: boolean;
}

export async function executeRoute(
  yoga: NetdiagYoga,
  services: Services,
  route: RestRoute,
  run: RouteRun,
): Promise<RouteOutcome> {
  // A composite check (defineCheck({ composite: true })) gets the longer bound (decisions §8).
  const { requestTimeoutMs, compositeTimeoutMs } = services.config.server;
  const deadlineMs = route.check.composite ? compositeTimeoutMs : requestTimeoutMs;
  const atEnd: (() => void)[] = [];
  const { execute, contextFactory, schema } = yoga.getEnveloped({
    request: run.request,
    url: run.url,
    peerAddress: run.peerAddress,
    auth: run.auth,
    deadlineMs,
    responseHeaders: run.responseHeaders,
    atEnd,
    ...(run.prepaid ? { prepaid: true } : {}),
  });
  let result: ExecutionResult | 'deadline';
  try {
    const contextValue = (await contextFactory()) as unknown as RequestContext;
    result = await withDeadline(
      execute({
        schema,
        document: route.document,
        variableValues: run.variables,
        contextValue,
      }) as Promise<ExecutionResult>,
      deadlineMs,
      () => 'deadline' as const,
    );
  } finally {
    for (const end of atEnd) end();
  }
  if (result === 'deadline') {
    return { kind: 'deadline', status: 504, message: `the check did not finish within ${deadlineMs / 1000} s` };
  }
  const error = result.errors?.[0];
  if (error) return { kind: 'error', ...statusOf(error, services), error };
  return {
    kind: 'data',
    data: applyFlatten((result.data as Record<string, unknown> | null | undefined)?.[route.field], route.flatten),
  };
}

/** Our status of an execution error; one that carries none is a bug on our side: a 500, logged. */
function statusOf(error: GraphQLError, services: Services): { status: number; message: string } {
  const status = error.extensions?.status;
  if (typeof status === 'number' && status >= 400 && status < 600) return { status, message: error.message };
  services.logger.error('rest_unmapped_error', { message: error.message });
  return { status: 500, message: GENERIC_ERROR_MESSAGE };
}
