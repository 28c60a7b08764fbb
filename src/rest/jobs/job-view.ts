/** The job as GET answers it (docs/contract/jobs.md "Endpoints", GET /api/v1/jobs/{id}). */
import type { JobView } from '../../graphql/jobs/jobs-port.js';
import type { JobRecord } from './job-record.js';

export const JOBS_PATH = '/api/v1/jobs';

export function jobView(record: JobRecord, etaSeconds: number | null): JobView {
  const ended = record.finishedAt !== null;
  return {
    id: record.id,
    status: record.status,
    tool: record.tool,
    total: record.total,
    done: record.done,
    failed: record.failed,
    cancelled: record.cancelled,
    createdAt: record.createdAt,
    startedAt: record.startedAt,
    finishedAt: record.finishedAt,
    etaSeconds: ended ? 0 : etaSeconds,
    callback: record.callback === null ? null : { ...record.callback },
  };
}

export function jobLinks(id: string): { self: string; results: string; events: string } {
  const self = `${JOBS_PATH}/${id}`;
  return { self, results: `${self}/results`, events: `${self}/events` };
}
