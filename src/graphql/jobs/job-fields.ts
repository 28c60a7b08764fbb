/**
 * The GraphQL face of jobs (docs/jobs.md "GraphQL"): `job(id)` and `jobs` on Query, `submitJob`
 * and `cancelJob` on Mutation — the only mutations (src/graphql-server/plugins/use-operation-limits.ts). They
 * go through the same operations as the REST endpoints (the request context's `jobs`, src/jobs/jobs-port.ts),
 * so refusals, messages and prices are the same: submitting charges cost × targets; the rest is free.
 */
import { GraphQLError } from 'graphql';
import { builder } from '../builder.js';
import type { RequestContext } from '../context.js';
import type { JobAccepted, JobPage, JobView } from '../../jobs/job-shape.js';
import { jobAcceptedSchema, jobPageSchema, jobViewSchema } from '../../jobs/job-shape.js';
import type { JobsAnswer, JobsPort } from '../../jobs/jobs-port.js';
import { objectOf } from './job-types.js';

type Ref<T> = ReturnType<typeof builder.objectRef<T>>;
// the object types, built from the jobs' shapes (./job-types.ts)
const Job = objectOf(jobViewSchema) as Ref<JobView>;
const JobSubmission = objectOf(jobAcceptedSchema) as Ref<JobAccepted>;
const JobList = objectOf(jobPageSchema) as Ref<JobPage>;

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

builder.mutationType({
  description:
    'Jobs and monitors only: submitJob, cancelJob (docs/jobs.md) and the monitor mutations (docs/monitors.md).',
});

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
