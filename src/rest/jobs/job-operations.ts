/**
 * The job operations with their rules, shared by the REST endpoints (./jobs-handler.ts) and the GraphQL
 * fields (src/graphql/jobs/), so that both answer the same refusals with the same messages and prices
 * (docs/contract/jobs.md "GraphQL": same rules and prices).
 */
import type { JobsPort } from '../../graphql/jobs/jobs-port.js';
import { rateLimitHeaders } from '../../platform/quota.js';
import type { Services } from '../../services.js';
import { isActive } from './job-record.js';
import type { JobService } from './job-service.js';
import { jobLinks, jobView } from './job-view.js';
import { readSubmission, SubmissionError } from './submission.js';

export const DEFAULT_PAGE = 20;
export const MAX_PAGE = 100;

export function createJobOperations(jobs: JobService, services: Services): JobsPort {
  const policy = { credits: services.config.quota.credits, windowSeconds: services.config.quota.windowSeconds };
  return {
    async submit(input, caller) {
      let submission: Awaited<ReturnType<typeof readSubmission>>;
      try {
        const auth = { ok: true as const, identity: caller.identity };
        submission = await readSubmission(input, { services, auth, request: caller.request, url: caller.url });
      } catch (e) {
        if (e instanceof SubmissionError) return { ok: false, status: e.status, code: 'BAD_INPUT', error: e.message };
        throw e;
      }
      const outcome = await jobs.submit(caller.identity, submission);
      if (!outcome.ok && outcome.reason === 'active-limit') {
        const max = services.config.jobs.maxActivePerKey;
        return {
          ok: false,
          status: 429,
          code: 'JOB_LIMIT',
          error: `this key has ${outcome.active} queued or running jobs, the most it may have (jobs.maxActivePerKey = ${max}); wait for one to end or cancel one`,
        };
      }
      if (!outcome.ok) {
        const { charge, price } = outcome;
        return {
          ok: false,
          status: 429,
          code: 'QUOTA_EXCEEDED',
          error: `credit allowance exhausted: this job costs ${price} credits and ${Math.max(0, charge.remaining)} of ${policy.credits} are left in the rolling ${policy.windowSeconds / 3600} h window; retry in ${charge.retryAfterSeconds} s`,
          headers: rateLimitHeaders(policy, charge),
        };
      }
      const { job, charge } = outcome;
      return {
        ok: true,
        data: {
          id: job.id,
          status: 'queued',
          tool: job.tool,
          total: job.total,
          createdAt: job.createdAt,
          links: jobLinks(job.id),
          ...(job.callbackSecret !== null ? { callbackSecret: job.callbackSecret } : {}),
        },
        headers: rateLimitHeaders(policy, charge),
      };
    },
    async get(id, keyId) {
      const found = await jobs.get(id, keyId);
      return found ? jobView(found.record, found.etaSeconds) : null;
    },
    async list(keyId, limit, cursor) {
      const size = limit ?? DEFAULT_PAGE;
      if (!Number.isInteger(size) || size < 1 || size > MAX_PAGE)
        return { ok: false, status: 400, code: 'BAD_INPUT', error: `limit: a whole number from 1 to ${MAX_PAGE}` };
      const all = await jobs.list(keyId);
      // ids grow with time (job-service.ts), so "older than the cursor" is "less than it"
      const older = cursor === null ? all : all.filter((j) => j.id < cursor);
      const page = older.slice(0, size);
      const nextCursor = older.length > size ? page[page.length - 1]!.id : null;
      return { ok: true, data: { jobs: page.map((j) => jobView(j, null)), nextCursor } };
    },
    async cancel(id, keyId) {
      const cancelled = await jobs.cancel(id, keyId);
      if (!cancelled) return { ok: false, status: 404, code: 'NOT_FOUND', error: `no such job: ${id.slice(0, 64)}` };
      if (!isActive(cancelled.status) && cancelled.status !== 'cancelled')
        return {
          ok: false,
          status: 409,
          code: 'JOB_ENDED',
          error: `job ${id.slice(0, 64)} has already ended (${cancelled.status}); nothing to cancel`,
        };
      return { ok: true, data: jobView(cancelled, null) };
    },
  };
}
