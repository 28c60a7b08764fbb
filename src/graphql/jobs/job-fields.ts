/**
 * The GraphQL face of jobs (docs/contract/jobs.md "GraphQL"): `job(id)` and `jobs` on Query, `submitJob`
 * and `cancelJob` on Mutation — the only mutations (src/graphql-server/plugins/use-operation-limits.ts). They
 * go through the same operations as the REST endpoints (the request context's `jobs`, ./jobs-port.ts),
 * so refusals, messages and prices are the same: submitting charges cost × targets; the rest is free.
 */
import { GraphQLError } from 'graphql';
import { builder } from '../builder.js';
import type { RequestContext } from '../context.js';
import type { JobAccepted, JobLinks, JobPage, JobsAnswer, JobsPort, JobView } from './jobs-port.js';

const JobStatus = builder.enumType('JobStatus', {
  description: 'queued: no item has started; running; done: every item finished; cancelled: stopped by its key.',
  values: ['queued', 'running', 'done', 'cancelled'] as const,
});

const JobCallback = builder
  .objectRef<{ status: string; attempts: number; error: string | null }>('JobCallback')
  .implement({
    description: 'The outcome of the callback to `callbackUrl` when the job ended.',
    fields: (t) => ({
      status: t.exposeString('status', { description: 'pending, delivered or failed' }),
      attempts: t.exposeInt('attempts'),
      error: t.exposeString('error', { nullable: true }),
    }),
  });

const Job = builder.objectRef<JobView>('Job').implement({
  description: 'A job: one check over many targets, run in the background (GET /api/v1/jobs/{id}).',
  fields: (t) => ({
    id: t.exposeID('id'),
    status: t.field({ type: JobStatus, resolve: (job) => job.status }),
    tool: t.exposeString('tool', { description: 'the REST tool every item runs' }),
    total: t.exposeInt('total'),
    done: t.exposeInt('done', { description: 'finished items, failed ones included' }),
    failed: t.exposeInt('failed'),
    cancelled: t.exposeInt('cancelled', { description: 'items that never ran' }),
    createdAt: t.exposeString('createdAt'),
    startedAt: t.exposeString('startedAt', { nullable: true }),
    finishedAt: t.exposeString('finishedAt', { nullable: true }),
    etaSeconds: t.exposeInt('etaSeconds', { nullable: true }),
    callback: t.field({ type: JobCallback, nullable: true, resolve: (job) => job.callback }),
  }),
});

const JobLinksType = builder.objectRef<JobLinks>('JobLinks').implement({
  fields: (t) => ({
    self: t.exposeString('self'),
    results: t.exposeString('results', { description: 'NDJSON, or CSV with ?format=csv' }),
    events: t.exposeString('events', { description: 'server-sent events: progress and end' }),
  }),
});

const JobSubmission = builder.objectRef<JobAccepted>('JobSubmission').implement({
  description: 'A job just accepted (POST /api/v1/jobs → 202).',
  fields: (t) => ({
    id: t.exposeID('id'),
    status: t.field({ type: JobStatus, resolve: (job) => job.status }),
    tool: t.exposeString('tool'),
    total: t.exposeInt('total'),
    createdAt: t.exposeString('createdAt'),
    links: t.field({ type: JobLinksType, resolve: (job) => job.links }),
    callbackSecret: t.string({
      nullable: true,
      description: "the key of the callback's X-Netdiag-Signature HMAC; given here only, once",
      resolve: (job) => job.callbackSecret ?? null,
    }),
  }),
});

const JobList = builder.objectRef<JobPage>('JobList').implement({
  fields: (t) => ({
    jobs: t.field({ type: [Job], resolve: (page) => [...page.jobs] }),
    nextCursor: t.exposeString('nextCursor', { nullable: true, description: 'pass as `cursor` for the next page' }),
  }),
});

const SubmitJobInput = builder.inputType('SubmitJobInput', {
  fields: (t) => ({
    tool: t.string({ required: true, description: 'any v1 tool but my-ip' }),
    targets: t.field({
      type: ['JSON'],
      required: true,
      description: "strings (the tool's main parameter) or objects of the tool's parameters",
    }),
    params: t.field({ type: 'JSON', required: false, description: 'parameters shared by every target' }),
    callbackUrl: t.string({ required: false }),
  }),
});

function portOf(ctx: RequestContext): { jobs: JobsPort; identity: { id: string; kind: 'static' | 'issued' } } {
  if (!ctx.jobs) throw refusal({ ok: false, status: 503, code: 'NOT_FOUND', error: 'jobs are not offered here' });
  // the credits plugin has already refused an operation without a valid key (401)
  if (!ctx.auth.ok) throw refusal({ ok: false, status: 401, code: 'NOT_FOUND', error: ctx.auth.error.message });
  return { jobs: ctx.jobs, identity: ctx.auth.identity };
}

function refusal(answer: JobsAnswer<unknown> & { ok: false }): GraphQLError {
  const status = answer.status;
  return new GraphQLError(answer.error, {
    extensions: { code: answer.code, status, http: { status, ...(answer.headers ? { headers: answer.headers } : {}) } },
  });
}

function unwrap<T>(answer: JobsAnswer<T>, ctx: RequestContext): T {
  if (answer.headers) Object.assign(ctx.responseHeaders, answer.headers);
  if (!answer.ok) throw refusal(answer);
  return answer.data;
}

builder.queryField('job', (t) =>
  t.field({
    type: Job,
    nullable: true,
    description: "A job of the caller's key (null for an unknown id or another key's job). Free.",
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_root, args, ctx) => {
      const { jobs, identity } = portOf(ctx);
      return jobs.get(String(args.id), identity.id);
    },
  }),
);

builder.queryField('jobs', (t) =>
  t.field({
    type: JobList,
    description: "The caller key's jobs, newest first. Free.",
    args: { limit: t.arg.int({ required: false }), cursor: t.arg.string({ required: false }) },
    resolve: async (_root, args, ctx) => {
      const { jobs, identity } = portOf(ctx);
      return unwrap(await jobs.list(identity.id, args.limit ?? null, args.cursor ?? null), ctx);
    },
  }),
);

builder.mutationType({ description: 'Jobs only: submitJob and cancelJob (docs/jobs.md).' });

builder.mutationField('submitJob', (t) =>
  t.field({
    type: JobSubmission,
    description: 'Runs one tool over many targets in the background; costs the tool price × targets, at once.',
    args: { input: t.arg({ type: SubmitJobInput, required: true }) },
    resolve: async (_root, args, ctx) => {
      const { jobs, identity } = portOf(ctx);
      const input = Object.fromEntries(Object.entries(args.input).filter(([, v]) => v !== null && v !== undefined));
      return unwrap(await jobs.submit(input, { identity, request: ctx.request, url: ctx.url }), ctx);
    },
  }),
);

builder.mutationField('cancelJob', (t) =>
  t.field({
    type: Job,
    description: 'Cancels a job: running items finish, queued ones never start and are refunded. Free.',
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_root, args, ctx) => {
      const { jobs, identity } = portOf(ctx);
      return unwrap(await jobs.cancel(String(args.id), identity.id), ctx);
    },
  }),
);
