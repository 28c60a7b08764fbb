/**
 * Runs one job item as the single call would run (docs/contract/jobs.md "Endpoints": `data` exactly as
 * the single call's): the route's fixed document through the same yoga pipeline as handler.ts
 * (getEnveloped: context, credits plugin, error masking, compiled executor), with the same bound and
 * status mapping; the credits plugin is told the item is prepaid, so it charges nothing more.
 */
import { NetdiagError } from '../../errors.js';
import type { AuthOutcome } from '../../platform/auth.js';
import type { Services } from '../../services.js';
import { isUncharged } from '../../graphql-server/plugins/use-credits.js';
import type { NetdiagYoga } from '../../graphql-server/yoga.js';
import type { RestRoute } from '../routes.js';
import type { SubmittedTarget } from './job-record.js';
import { queryOf, variablesOf } from './submission.js';
import { executeRoute, type RouteOutcome } from '../execute-route.js';

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
  let outcome: RouteOutcome;
  try {
    outcome = await executeRoute(yoga, services, route, {
      request,
      url,
      peerAddress: null,
      auth: item.auth,
      variables,
      responseHeaders: {},
      prepaid: true,
    });
  } finally {
    item.signal.removeEventListener('abort', stop);
  }
  if (outcome.kind === 'data') return { ok: true, status: 200, data: outcome.data, refund: false };
  const refund = outcome.kind === 'error' && isUncharged(outcome.error);
  return { ok: false, status: outcome.status, error: outcome.message, refund };
}
