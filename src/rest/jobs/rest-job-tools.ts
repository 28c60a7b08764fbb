/**
 * The tools as jobs see them (src/jobs/job-tools.ts), made from the REST routes: a target is read by the
 * route's parameter reading and its definition's parser, as `GET /api/v1/<tool>` reads its query, and an
 * item runs the route's fixed document through the same yoga pipeline as a single call
 * (../execute-route.ts: context, credits plugin, error masking, compiled executor, the same bound and
 * status mapping), marked prepaid so the credits plugin charges nothing more. An item's `data` is
 * therefore exactly the single call's.
 */
import { NetdiagError } from '../../errors.js';
import type { Services } from '../../services.js';
import { createRequestContext } from '../../graphql/context.js';
import { isUncharged } from '../../graphql-server/plugins/use-credits.js';
import { costOf } from '../../graphql/pricing.js';
import type { NetdiagYoga } from '../../graphql-server/yoga.js';
import type { ItemResult, JobTool, JobTools } from '../../jobs/job-tools.js';
import { executeRoute } from '../execute-route.js';
import { QueryReader } from '../query-reader.js';
import { restRoutes, type RestRoute } from '../routes.js';

/** Tools that answer about the caller rather than a target: a job of them means nothing. */
const NOT_FOR_JOBS = new Set(['my-ip', 'what-is-my-ip']);

/** The parameter a string target fills, in this order of preference (domain, host, url or target). */
const MAIN_PARAMETERS = ['domain', 'host', 'url', 'target'];

/** where an item's request says it comes from (it never reaches a socket) */
const ITEM_ORIGIN = 'http://jobs.netdiag.internal';

function variablesOf(route: RestRoute, values: Readonly<Record<string, string>>): Record<string, unknown> {
  return route.variables(new QueryReader(new URLSearchParams(values), route.parameters));
}

function toolOf(route: RestRoute, yoga: NetdiagYoga, services: Services): JobTool {
  return {
    name: route.tool,
    parameters: route.parameters,
    mainParameter: MAIN_PARAMETERS.find((name) => route.parameters.includes(name)) ?? null,
    cost: costOf(services.config, route.tool),
    async run(values, identity, signal): Promise<ItemResult> {
      let variables: Record<string, unknown>;
      try {
        variables = variablesOf(route, values);
      } catch (e) {
        if (e instanceof NetdiagError) return { ok: false, status: e.status, error: e.message, refund: true };
        throw e;
      }
      const url = new URL(`${ITEM_ORIGIN}/api/v1/${route.tool}?${new URLSearchParams(values)}`);
      // A signal of the item's own, following the shared one only while the item runs: a Request made on
      // the shared signal would leave a listener on it per item for as long as the process lives.
      const controller = new AbortController();
      const stop = () => controller.abort(signal.reason);
      if (signal.aborted) stop();
      else signal.addEventListener('abort', stop, { once: true });
      try {
        const outcome = await executeRoute(yoga, services, route, {
          request: new Request(url, { signal: controller.signal }),
          url,
          peerAddress: null,
          auth: { ok: true, identity },
          variables,
          responseHeaders: {},
          prepaid: true,
        });
        if (outcome.kind === 'data') return { ok: true, status: 200, data: outcome.data, refund: false };
        const refund = outcome.kind === 'error' && isUncharged(outcome.error);
        return { ok: false, status: outcome.status, error: outcome.message, refund };
      } finally {
        signal.removeEventListener('abort', stop);
      }
    },
  };
}

export function createRestJobTools(yoga: NetdiagYoga, services: Services): JobTools {
  const tools = new Map<string, { tool: JobTool; route: RestRoute }>();
  for (const route of restRoutes.values())
    if (!NOT_FOR_JOBS.has(route.tool)) tools.set(route.tool, { tool: toolOf(route, yoga, services), route });
  const names = [...tools.keys()];
  return {
    get: (name) => tools.get(name)?.tool,
    names: () => names,
    validator(caller) {
      const atEnd: (() => void)[] = [];
      const ctx = createRequestContext({
        services,
        request: caller.request,
        url: caller.url,
        peerAddress: null,
        auth: { ok: true, identity: caller.identity },
        deadlineMs: services.config.server.requestTimeoutMs,
        responseHeaders: {},
        atEnd,
      });
      return {
        check(tool, values) {
          const route = tools.get(tool.name)!.route;
          route.check.parse(variablesOf(route, values), ctx);
        },
        close() {
          for (const end of atEnd) end();
        },
      };
    },
  };
}
