/**
 * Liveness and readiness, for load balancers and orchestrators. Neither needs a key.
 *
 * /healthz: the process answers HTTP. Nothing else is checked, so a restart is only triggered by a
 *           process that is really stuck, never by a dependency being down. Under `npm start` the
 *           primary process answers it on a new connection (src/cluster/liveness-probe.ts), so a
 *           worker busy with checks cannot fail it; this answer is the app's own (a keep-alive
 *           connection already with a worker, the in-process tests).
 * /readyz:  the instance can serve checks: its configuration was loaded and validated (true once the
 *           app exists: start-up refuses an invalid file) and, when `store.redisUrl` is set, Redis
 *           answers (Services.ready). 503 with the reason otherwise, so a balancer stops sending
 *           traffic that would only fail closed (decisions §11). Always a worker's answer: an
 *           overloaded worker says so here (src/app.ts).
 */
import { withDeadline } from '../deadline.js';
import type { Logger } from '../log.js';

export interface Readiness {
  readonly ok: boolean;
  /** why the instance is not ready, for the operator reading /readyz */
  readonly reason?: string;
}

/**
 * A readiness probe is polled every few seconds and must not hang on a stuck dependency: past this
 * bound the instance counts as not ready.
 */
export const READINESS_TIMEOUT_MS = 2_000;

const NO_STORE = { 'cache-control': 'no-store' };

export function livenessResponse(): Response {
  return Response.json({ ok: true }, { headers: NO_STORE });
}

export async function readinessResponse(
  ready: () => Promise<Readiness>,
  logger: Logger,
  timeoutMs: number = READINESS_TIMEOUT_MS,
): Promise<Response> {
  const state = await boundedReadiness(ready, logger, timeoutMs);
  if (state.ok) return Response.json({ ok: true }, { headers: NO_STORE });
  return Response.json({ ok: false, reason: state.reason ?? 'not ready' }, { status: 503, headers: NO_STORE });
}

async function boundedReadiness(
  ready: () => Promise<Readiness>,
  logger: Logger,
  timeoutMs: number,
): Promise<Readiness> {
  return withDeadline(
    ready().catch((e: unknown): Readiness => {
      // The error text may carry connection details: it goes to the log, not to the caller.
      logger.error('readiness_check_failed', { message: (e as Error).message });
      return { ok: false, reason: 'the readiness check failed; see the service log' };
    }),
    timeoutMs,
    (): Readiness => ({ ok: false, reason: `the readiness check did not finish within ${timeoutMs} ms` }),
  );
}
