/**
 * The job endpoints under /api/v1/jobs (docs/contract/jobs.md "Endpoints"), on the same keys as every
 * tool. JSON answers are in the v1 envelope (meta.tool "jobs"); results (NDJSON, CSV) and events (SSE)
 * are not. Submitting is charged (cost × targets); reading, listing and cancelling are free.
 */
import type { JobsAnswer, JobsPort } from '../../graphql/jobs/jobs-port.js';
import type { AuthOutcome } from '../../platform/auth.js';
import { API_CORS_HEADERS, preflightResponse } from '../../platform/cors.js';
import { envelopeResponse } from '../envelope.js';
import { eventsResponse } from './job-events.js';
import type { JobService } from './job-service.js';
import { JOBS_PATH } from './job-view.js';
import { readJsonBody } from './read-json-body.js';
import { csvColumns, csvHeader, csvRow } from './results-csv.js';

const TOOL = 'jobs';
/** contract: a submission's body is at most 2 MiB */
export const MAX_SUBMISSION_BYTES = 2 * 1024 * 1024;

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

export function createJobsHandler(jobs: JobService, operations: JobsPort) {
  const notFound = (id: string) => envelopeResponse(TOOL, 404, { error: `no such job: ${id.slice(0, 64)}` });
  const answer = <T>(outcome: JobsAnswer<T>, okStatus: number, headers: Record<string, string> = {}) =>
    outcome.ok
      ? envelopeResponse(TOOL, okStatus, { data: outcome.data }, { headers: { ...outcome.headers, ...headers } })
      : envelopeResponse(TOOL, outcome.status, { error: outcome.error }, { headers: outcome.headers ?? {} });

  async function submit(request: Request, url: URL, auth: AuthOutcome & { ok: true }): Promise<Response> {
    const body = await readJsonBody(request, MAX_SUBMISSION_BYTES);
    if (!body.ok) return envelopeResponse(TOOL, body.status, { error: body.error });
    const outcome = await operations.submit(body.value, { identity: auth.identity, request, url });
    return answer(outcome, 202, outcome.ok ? { location: outcome.data.links.self } : {});
  }

  async function list(url: URL, keyId: string): Promise<Response> {
    const limitText = url.searchParams.get('limit');
    const limit = limitText === null ? null : Number(limitText);
    return answer(await operations.list(keyId, limit, url.searchParams.get('cursor')), 200);
  }

  async function results(id: string, url: URL, keyId: string): Promise<Response> {
    const found = await jobs.get(id, keyId);
    if (!found) return notFound(id);
    const afterText = url.searchParams.get('after');
    const after = afterText === null ? -1 : Number(afterText);
    if (!Number.isInteger(after) || after < -1)
      return envelopeResponse(TOOL, 400, {
        error: 'after: the index of the last item read (a whole number, 0 or more)',
      });
    const format = url.searchParams.get('format') ?? 'ndjson';
    if (format !== 'ndjson' && format !== 'csv')
      return envelopeResponse(TOOL, 400, { error: 'format: ndjson (the default) or csv' });
    const lines = () => jobs.results(found.record, after);
    const encoder = new TextEncoder();
    let iterator: AsyncIterator<string>;
    let header: string | null = null;
    if (format === 'csv') {
      const columns = await csvColumns(lines());
      header = csvHeader(columns);
      const rows = lines()[Symbol.asyncIterator]();
      iterator = {
        next: async () => {
          const r = await rows.next();
          return r.done ? r : { done: false, value: csvRow(r.value, columns) };
        },
      };
    } else {
      const rows = lines()[Symbol.asyncIterator]();
      iterator = {
        next: async () => {
          const r = await rows.next();
          return r.done ? r : { done: false, value: `${r.value}\n` };
        },
      };
    }
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        if (header) controller.enqueue(encoder.encode(header));
      },
      async pull(controller) {
        const r = await iterator.next();
        if (r.done) controller.close();
        else controller.enqueue(encoder.encode(r.value));
      },
      async cancel() {
        await iterator.return?.();
      },
    });
    return new Response(body, {
      status: 200,
      headers: {
        ...API_CORS_HEADERS,
        'content-type': format === 'csv' ? 'text/csv; charset=utf-8' : 'application/x-ndjson',
        'cache-control': 'no-store',
      },
    });
  }

  return async function handleJobs(request: Request, url: URL, auth: AuthOutcome): Promise<Response> {
    const path = jobsPathOf(url.pathname);
    if (!path) return envelopeResponse(TOOL, 404, { error: `no such path: ${url.pathname.slice(0, 128)}` });
    if (request.method === 'OPTIONS') return preflightResponse(ALLOWED[path.kind]);
    const method = request.method === 'HEAD' ? 'GET' : request.method;
    if (!ALLOWED[path.kind].split(', ').includes(method))
      return envelopeResponse(
        TOOL,
        405,
        { error: `method ${request.method} is not allowed here: use ${ALLOWED[path.kind].replace(', ', ' or ')}` },
        { headers: { allow: ALLOWED[path.kind] } },
      );
    if (!auth.ok) return envelopeResponse(TOOL, 401, { error: auth.error.message });
    const keyId = auth.identity.id;
    switch (path.kind) {
      case 'collection':
        return method === 'POST' ? submit(request, url, auth) : list(url, keyId);
      case 'job': {
        if (method === 'DELETE') return answer(await operations.cancel(path.id, keyId), 200);
        const found = await operations.get(path.id, keyId);
        return found ? envelopeResponse(TOOL, 200, { data: found }) : notFound(path.id);
      }
      case 'results':
        return results(path.id, url, keyId);
      case 'events': {
        const found = await jobs.get(path.id, keyId);
        if (!found) return notFound(path.id);
        const last = Number(request.headers.get('last-event-id') ?? Number.NaN);
        const read = () => operations.get(path.id, keyId);
        return eventsResponse(read, Number.isInteger(last) ? last : null, request.signal, { ...API_CORS_HEADERS });
      }
    }
  };
}
