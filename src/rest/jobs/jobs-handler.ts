/**
 * The job endpoints under /api/v1/jobs (docs/jobs.md "Endpoints"): an adapter of the jobs module's port
 * (src/jobs/jobs-port.ts) to HTTP. JSON answers are in the v1 envelope (meta.tool "jobs"); results
 * (NDJSON, CSV) and events (SSE) are not. A store that does not answer is a 503 with Retry-After.
 */
import { NetdiagError } from '../../errors.js';
import type { JobsAnswer, JobsPort } from '../../jobs/jobs-port.js';
import { JOBS_PATH } from '../../jobs/job-record.js';
import { csvColumns, csvHeader, csvRow } from '../../jobs/results-csv.js';
import type { AuthOutcome } from '../../platform/auth.js';
import { API_CORS_HEADERS } from '../../platform/cors.js';
import { envelopeResponse } from '../envelope.js';
import { enterResource, eventStreamResponse } from '../resource-answers.js';
import { readJsonBody } from './read-json-body.js';

const TOOL = 'jobs';
/** a submission's body is at most 2 MiB (docs/jobs.md "Endpoints") */
export const MAX_SUBMISSION_BYTES = 2 * 1024 * 1024;
/**
 * A job's body holds the fields of a job, targets (strings or objects of a tool's parameters) and the
 * shared parameters: a few members an object, three levels deep. The bounds are far above that.
 */
const SUBMISSION_BOUNDS = { maxMembers: 64, maxDepth: 4 };
/** what a client told "the store is unavailable" waits before it tries again */
const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

type JobsPath =
  | { kind: 'collection' }
  | { kind: 'job'; id: string }
  | { kind: 'results'; id: string }
  | { kind: 'events'; id: string };

export function jobsPathOf(pathname: string): JobsPath | null {
  if (pathname === JOBS_PATH || pathname === `${JOBS_PATH}/`) return { kind: 'collection' };
  const m = /^\/api\/v1\/jobs\/([^/]+)(?:\/(results|events))?\/?$/.exec(pathname);
  if (!m) return null;
  const id = m[1]!;
  return m[2] === 'results'
    ? { kind: 'results', id }
    : m[2] === 'events'
      ? { kind: 'events', id }
      : { kind: 'job', id };
}

const ALLOWED: Record<JobsPath['kind'], string> = {
  collection: 'GET, POST',
  job: 'GET, DELETE',
  results: 'GET',
  events: 'GET',
};

/** true for the paths under /api/v1/jobs */
export function isJobsPath(pathname: string): boolean {
  return pathname.startsWith(JOBS_PATH) && jobsPathOf(pathname) !== null;
}

function answer<T>(outcome: JobsAnswer<T>, okStatus: number, headers: Record<string, string> = {}): Response {
  return outcome.ok
    ? envelopeResponse(TOOL, okStatus, { data: outcome.data }, { headers: { ...outcome.headers, ...headers } })
    : envelopeResponse(TOOL, outcome.status, { error: outcome.error }, { headers: outcome.headers ?? {} });
}

const notFound = (id: string) => envelopeResponse(TOOL, 404, { error: `no such job: ${id.slice(0, 64)}` });

/** A body of lines, each written as `format` asks, read from `lines` as the client takes them. */
function streamed(lines: AsyncIterator<string>, format: (line: string) => string, first: string | null) {
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>({
    start(controller) {
      if (first) controller.enqueue(encoder.encode(first));
    },
    async pull(controller) {
      const r = await lines.next();
      if (r.done) controller.close();
      else controller.enqueue(encoder.encode(format(r.value)));
    },
    async cancel() {
      await lines.return?.();
    },
  });
}

export function createJobsHandler(jobs: JobsPort) {
  async function results(id: string, url: URL, keyId: string): Promise<Response> {
    const afterText = url.searchParams.get('after');
    const after = afterText === null ? -1 : Number(afterText);
    if (!Number.isInteger(after) || after < -1)
      return envelopeResponse(TOOL, 400, {
        error: 'after: the index of the last item read (a whole number, 0 or more)',
      });
    const format = url.searchParams.get('format') ?? 'ndjson';
    if (format !== 'ndjson' && format !== 'csv')
      return envelopeResponse(TOOL, 400, { error: 'format: ndjson (the default) or csv' });
    const lines = await jobs.results(id, keyId, after);
    if (!lines) return notFound(id);
    let body: ReadableStream<Uint8Array>;
    if (format === 'csv') {
      // the columns are the union over every item: one pass for them, one for the rows
      const columns = await csvColumns(lines);
      const again = (await jobs.results(id, keyId, after)) ?? (async function* () {})();
      body = streamed(again[Symbol.asyncIterator](), (line) => csvRow(line, columns), csvHeader(columns));
    } else {
      body = streamed(lines[Symbol.asyncIterator](), (line) => `${line}\n`, null);
    }
    return new Response(body, {
      status: 200,
      headers: {
        ...API_CORS_HEADERS,
        'content-type': format === 'csv' ? 'text/csv; charset=utf-8' : 'application/x-ndjson',
        'cache-control': 'no-store',
      },
    });
  }

  async function events(request: Request, id: string, keyId: string): Promise<Response> {
    const last = Number(request.headers.get('last-event-id') ?? Number.NaN);
    const outcome = await jobs.follow(id, keyId, Number.isInteger(last) ? last : null, request.signal);
    if (!outcome.ok) return answer(outcome, 200);
    return eventStreamResponse(outcome.data);
  }

  async function route(request: Request, url: URL, auth: AuthOutcome): Promise<Response> {
    const path = jobsPathOf(url.pathname);
    if (!path) return envelopeResponse(TOOL, 404, { error: `no such path: ${url.pathname.slice(0, 128)}` });
    const entry = enterResource(TOOL, request, ALLOWED[path.kind], auth);
    if (entry.answer) return entry.answer;
    const { method, identity } = entry;
    const keyId = identity.id;
    switch (path.kind) {
      case 'collection': {
        if (method === 'GET') {
          const limitText = url.searchParams.get('limit');
          const limit = limitText === null ? null : Number(limitText);
          return answer(await jobs.list(keyId, limit, url.searchParams.get('cursor')), 200);
        }
        const body = await readJsonBody(request, MAX_SUBMISSION_BYTES, SUBMISSION_BOUNDS);
        if (!body.ok) return envelopeResponse(TOOL, body.status, { error: body.error });
        const outcome = await jobs.submit(body.value, { identity, request, url });
        return answer(outcome, 202, outcome.ok ? { location: outcome.data.links.self } : {});
      }
      case 'job': {
        if (method === 'DELETE') return answer(await jobs.cancel(path.id, keyId), 200);
        const found = await jobs.get(path.id, keyId);
        return found ? envelopeResponse(TOOL, 200, { data: found }) : notFound(path.id);
      }
      case 'results':
        return results(path.id, url, keyId);
      case 'events':
        return events(request, path.id, keyId);
    }
  }

  return async function handleJobs(request: Request, url: URL, auth: AuthOutcome): Promise<Response> {
    try {
      return await route(request, url, auth);
    } catch (e) {
      // the store did not answer (503), or another refusal with a status of its own
      if (!(e instanceof NetdiagError)) throw e;
      const headers: Record<string, string> =
        e.status === 503 ? { 'retry-after': String(UNAVAILABLE_RETRY_AFTER_SECONDS) } : {};
      return envelopeResponse(TOOL, e.status, { error: e.message }, { headers });
    }
  };
}
