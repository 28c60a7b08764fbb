/**
 * The job operations with their rules (docs/jobs.md), for the REST endpoints and the GraphQL fields alike
 * (./jobs-port.ts). A submission is read in the order of what each step costs:
 *   1. its shape (a JSON object, a known tool, the number of targets): the price is known;
 *   2. the key's active jobs (one read of its own slots) and then the charge of cost × targets, so a key
 *      that cannot pay is refused before its targets are read;
 *   3. the parameters and targets (./submission.ts) and the callback URL; a refusal gives the charge back;
 *   4. the store's atomic create, which checks the active jobs again.
 * Every store step is bounded by `server.requestTimeoutMs`: a store that does not answer is a 503.
 */
import { NetdiagError } from '../errors.js';
import { rateLimitHeaders, type ChargeOutcome } from '../platform/quota.js';
import type { Services } from '../services.js';
import type { ApiJobBus } from './job-bus.js';
import type { JobEventHub } from './job-event-hub.js';
import { etaOf, isActive, isJobId, jobLinks, jobView, newJobRecord, type JobRecord } from './job-record.js';
import type { JobStore } from './job-store.js';
import type { JobTools } from './job-tools.js';
import type { JobsAnswer, JobsPort } from './jobs-port.js';
import { checkWebhookUrl } from './signed-delivery.js';
import { readParameters, readShape, readTargets, SubmissionError } from './submission.js';
import { boundedStoreStep } from '../platform/bounded-store-step.js';

export const DEFAULT_PAGE = 20;
export const MAX_PAGE = 100;
/** How long a DELETE waits for the runner to apply the cancellation before answering what it asked. */
const CANCEL_WAIT_MS = 2_000;

export interface JobOperationsOptions {
  readonly store: JobStore;
  readonly bus: ApiJobBus;
  readonly hub: JobEventHub;
  readonly tools: JobTools;
  readonly services: Services;
}

export function createJobOperations(options: JobOperationsOptions): JobsPort {
  const { store, bus, hub, tools, services } = options;
  const { config, quota, logger } = services;
  const policy = { credits: config.quota.credits, windowSeconds: config.quota.windowSeconds };
  const boundMs = config.server.requestTimeoutMs;

  /** a store step within the request bound, or a 503 that says the store did not answer */
  const bounded = boundedStoreStep({ store: 'the job store', boundMs, logger, event: 'job_store_failed' });

  const readOwn = async (id: string, keyId: string): Promise<JobRecord | null> => {
    if (!isJobId(id)) return null;
    const record = await bounded('read', () => store.read(id));
    return record && record.keyId === keyId ? record : null;
  };

  const notFound = (id: string): JobsAnswer<never> => ({
    ok: false,
    status: 404,
    code: 'NOT_FOUND',
    error: `no such job: ${id.slice(0, 64)}`,
  });

  const jobLimit = (active: number): JobsAnswer<never> => ({
    ok: false,
    status: 429,
    code: 'JOB_LIMIT',
    error: `this key has ${active} queued or running jobs, the most it may have (jobs.maxActivePerKey = ${config.jobs.maxActivePerKey}); wait for one to end or cancel one`,
  });

  const refusal = (e: SubmissionError): JobsAnswer<never> => ({
    ok: false,
    status: e.status,
    code: 'BAD_INPUT',
    error: e.message,
  });

  /** waits (bounded) until the runner has applied the cancellation, then reads the job */
  async function appliedCancel(record: JobRecord): Promise<JobRecord> {
    const deadline = performance.now() + Math.min(CANCEL_WAIT_MS, boundMs / 2);
    for (;;) {
      const fresh = await bounded('read', () => store.read(record.id));
      if (!fresh || !isActive(fresh.status)) return fresh ?? record;
      const left = deadline - performance.now();
      if (left <= 0) return { ...fresh, status: 'cancelled', cancelled: fresh.total - fresh.done };
      await new Promise<void>((resolve) => {
        const timer = setTimeout(done, left);
        const stop = bus.onChange((change) => change.id === record.id && done());
        function done() {
          clearTimeout(timer);
          stop();
          resolve();
        }
      });
    }
  }

  return {
    async submit(input, caller) {
      const { identity } = caller;
      let shape: ReturnType<typeof readShape>;
      try {
        shape = readShape(input, tools, config.jobs.maxTargets);
      } catch (e) {
        if (e instanceof SubmissionError) return refusal(e);
        throw e;
      }
      const max = config.jobs.maxActivePerKey;
      const active = await bounded('active jobs', () => store.activeCount(identity.id));
      if (active >= max) return jobLimit(active);
      const price = shape.tool.cost * shape.targets.length;
      // Charged before the targets are read (the same ledger and rules as a single call); given back below
      // when the submission is refused, as the credits plugin gives back a refused call's price.
      const charge: ChargeOutcome = await quota.charge(identity.id, price);
      const headers = rateLimitHeaders(policy, charge);
      if (!charge.allowed)
        return {
          ok: false,
          status: 429,
          code: 'QUOTA_EXCEEDED',
          error: `credit allowance exhausted: this job costs ${price} credits and ${Math.max(0, charge.remaining)} of ${policy.credits} are left in the rolling ${policy.windowSeconds / 3600} h window; retry in ${charge.retryAfterSeconds} s`,
          headers,
        };
      const giveBack = async () => {
        if (charge.chargeId)
          await quota
            .refund(identity.id, charge.chargeId, price)
            .catch((e: unknown) =>
              logger.error('job_refund_failed', { credits: price, message: (e as Error).message }),
            );
      };
      let accepted = false;
      try {
        const validator = tools.validator(caller);
        let params: Record<string, string>;
        let targets: Awaited<ReturnType<typeof readTargets>>;
        try {
          params = readParameters(shape.params, shape.tool, 'params');
          targets = await readTargets(shape, params, validator, caller.request.signal);
        } finally {
          validator.close();
        }
        // last: it may ask DNS, so only a submission that is otherwise whole gets that far
        let callbackUrl: string | null = null;
        if (shape.callbackUrl !== undefined && shape.callbackUrl !== null)
          callbackUrl = (await checkWebhookUrl(shape.callbackUrl, services, caller.request.signal)).href;
        const record = newJobRecord(
          {
            identity,
            tool: shape.tool.name,
            total: targets.length,
            params,
            callbackUrl,
            itemCost: shape.tool.cost,
            chargeId: charge.chargeId,
          },
          services.now(),
        );
        const created = await bounded('create', () => store.create(record, targets, max));
        if (!created.ok) return jobLimit(created.active);
        accepted = true;
        services.metrics.creditsCharged(record.tool, price);
        bus.submitted(record.id);
        return {
          ok: true,
          data: {
            id: record.id,
            status: 'queued',
            tool: record.tool,
            total: record.total,
            createdAt: record.createdAt,
            links: jobLinks(record.id),
            ...(record.callbackSecret !== null ? { callbackSecret: record.callbackSecret } : {}),
          },
          headers,
        };
      } catch (e) {
        // refused: the charge goes back (below), so no allowance is shown
        if (e instanceof SubmissionError) return refusal(e);
        if (e instanceof NetdiagError && e.status === 400)
          return { ok: false, status: 400, code: 'BAD_INPUT', error: e.message };
        throw e;
      } finally {
        if (!accepted) await giveBack();
      }
    },

    async get(id, keyId) {
      const record = await readOwn(id, keyId);
      return record ? jobView(record, etaOf(record, services.now())) : null;
    },

    async list(keyId, limit, cursor) {
      const size = limit ?? DEFAULT_PAGE;
      if (!Number.isInteger(size) || size < 1 || size > MAX_PAGE)
        return { ok: false, status: 400, code: 'BAD_INPUT', error: `limit: a whole number from 1 to ${MAX_PAGE}` };
      if (cursor !== null && !isJobId(cursor))
        return { ok: false, status: 400, code: 'BAD_INPUT', error: 'cursor: a nextCursor of an earlier page' };
      const page = await bounded('list', () => store.page(keyId, size, cursor));
      return { ok: true, data: { jobs: page.records.map((r) => jobView(r, null)), nextCursor: page.nextCursor } };
    },

    async cancel(id, keyId) {
      const record = await readOwn(id, keyId);
      if (!record) return notFound(id);
      if (!isActive(record.status)) {
        if (record.status === 'cancelled') return { ok: true, data: jobView(record, null) };
        return {
          ok: false,
          status: 409,
          code: 'JOB_ENDED',
          error: `job ${id.slice(0, 64)} has already ended (${record.status}); nothing to cancel`,
        };
      }
      const asked = await bounded('cancel', () => store.cancel(record));
      bus.cancel(id);
      const now = isActive(asked.status) ? await appliedCancel(asked) : asked;
      return { ok: true, data: jobView(now, null) };
    },

    async results(id, keyId, after) {
      const record = await readOwn(id, keyId);
      return record ? store.results(record, after) : null;
    },

    async follow(id, keyId, lastEventId, signal) {
      const record = await readOwn(id, keyId);
      if (!record) return notFound(id);
      const stream = hub.open(record, lastEventId, signal);
      if (stream === 'too-many')
        return {
          ok: false,
          status: 429,
          code: 'STREAM_LIMIT',
          error: `this key has ${config.jobs.maxStreamsPerKey} event streams open here, the most it may have (jobs.maxStreamsPerKey); close one first`,
          headers: { 'retry-after': '5' },
        };
      return { ok: true, data: stream };
    },
  };
}
