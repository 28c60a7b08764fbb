/**
 * Runs one job item as the single call would run (docs/contract/jobs.md "Endpoints": `data` exactly as
 * the single call's): the route's fixed document through the same yoga pipeline as handler.ts
 * (getEnveloped: context, credits plugin, error masking, compiled executor), with the same bound and
 * status mapping; the credits plugin is told the item is prepaid, so it charges nothing more.
 */
import type { ExecutionResult, GraphQLError } from 'graphql';
import { withDeadline } from '../../deadline.js';
import { NetdiagError } from '../../errors.js';
import type { AuthOutcome } from '../../platform/auth.js';
import type { Services } from '../../services.js';
import type { RequestContext } from '../../graphql/context.js';
import { GENERIC_ERROR_MESSAGE } from '../../graphql/errors.js';
import { isUncharged } from '../../graphql/plugins/use-credits.js';
import type { NetdiagYoga } from '../../graphql/yoga.js';
import { applyFlatten } from '../flatten.js';
import type { RestRoute } from '../routes.js';
import type { SubmittedTarget } from './job-record.js';
import { queryOf, variablesOf } from './submission.js';

export interface ItemResult {
  readonly ok: boolean;
  readonly status: number;
  readonly data?: unknown;
  readonly error?: string;
  /** decided before anything was sent upstream (a refused target): its price goes back (decisions §1) */
  readonly refund: boolean;
}

export async function runItem(
  yoga: NetdiagYoga,
  services: Services,
  route: RestRoute,
  item: { params: Readonly<Record<string, string>>; target: SubmittedTarget; auth: AuthOutcome; signal: AbortSignal },
): Promise<ItemResult> {
  let variables: Record<string, unknown>;
  try {
    variables = variablesOf(route, item.params, item.target);
  } catch (e) {
    if (e instanceof NetdiagError) return { ok: false, status: e.status, error: e.message, refund: true };
    throw e;
  }
  const url = new URL(`http://jobs.netdiag.internal/api/v1/${route.tool}?${queryOf(route, item.params, item.target)}`);
  // A signal of the item's own, following the shared one only while the item runs: a Request made on the
  // shared signal would leave a listener on it per item for as long as the process lives.
  const controller = new AbortController();
  const stop = () => controller.abort(item.signal.reason);
  if (item.signal.aborted) stop();
  else item.signal.addEventListener('abort', stop, { once: true });
  const request = new Request(url, { signal: controller.signal });
  const { requestTimeoutMs, compositeTimeoutMs } = services.config.server;
  const deadlineMs = route.check.composite ? compositeTimeoutMs : requestTimeoutMs;
  const atEnd: (() => void)[] = [];
  const { execute, contextFactory, schema } = yoga.getEnveloped({
    request,
    url,
    peerAddress: null,
    auth: item.auth,
    deadlineMs,
    responseHeaders: {},
    atEnd,
    prepaid: true,
  });
  let result: ExecutionResult | 'deadline';
  try {
    const contextValue = (await contextFactory()) as unknown as RequestContext;
    result = await withDeadline(
      execute({
        schema,
        document: route.document,
        variableValues: variables,
        contextValue,
      }) as Promise<ExecutionResult>,
      deadlineMs,
      () => 'deadline' as const,
    );
  } finally {
    for (const end of atEnd) end();
    item.signal.removeEventListener('abort', stop);
  }
  if (result === 'deadline')
    return { ok: false, status: 504, error: `the check did not finish within ${deadlineMs / 1000} s`, refund: false };
  const error = result.errors?.[0];
  if (error) return { ok: false, ...statusOf(error, services), refund: isUncharged(error) };
  const data = applyFlatten((result.data as Record<string, unknown> | null | undefined)?.[route.field], route.flatten);
  return { ok: true, status: 200, data, refund: false };
}

/** As handler.ts maps an execution error: our status, or a 500 for what carries none. */
function statusOf(error: GraphQLError, services: Services): { status: number; error: string } {
  const status = error.extensions?.status;
  if (typeof status === 'number' && status >= 400 && status < 600) return { status, error: error.message };
  services.logger.error('job_item_unmapped_error', { message: error.message });
  return { status: 500, error: GENERIC_ERROR_MESSAGE };
}
