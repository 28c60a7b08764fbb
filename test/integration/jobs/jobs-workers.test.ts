/**
 * The embedded store shared by the worker processes of one instance (npm start, `server.workers` 2): a job
 * runs in one worker, and every connection — whichever worker the primary hands it to — reads it, its
 * results and its cancellation alike (docs/jobs.md "Durability").
 */
import { readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobWorkerOf, startService } from '../../helpers/process.js';
import { readEvents } from './jobs-harness.js';
import { rr, startDnsLab, type DnsLab } from '../../lab/dns-server.js';

const KEY = 'workers-key-0123456789';
const N = 60;
let lab: DnsLab;

beforeAll(async () => {
  const records = [];
  for (let i = 0; i < N; i++)
    records.push(rr.mx(`w${i}.test`, 10, `mx.w${i}.test`), rr.a(`mx.w${i}.test`, '192.0.2.5'));
  lab = await startDnsLab({ authoritative: false, records });
  lab.setBehaviour(/^w\d+\.test$/, { delayMs: 200 }, 'MX');
});
afterAll(async () => {
  await lab.close();
});

/** One request on a connection of its own (closed after it), so that successive requests meet different workers. */
function call(base: string, path: string, method = 'GET', body?: unknown): Promise<{ status: number; text: string }> {
  const url = new URL(path, base);
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      url,
      {
        method,
        agent: false,
        headers: {
          'x-api-key': KEY,
          connection: 'close',
          ...(body ? { 'content-type': 'application/json' } : {}),
        },
      },
      (response) => {
        let text = '';
        response.on('data', (d) => (text += d));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, text }));
      },
    );
    request.on('error', reject);
    request.end(body ? JSON.stringify(body) : undefined);
  });
}

describe('jobs with two worker processes', { timeout: 60_000 }, () => {
  it('answers for a job from every worker, and cancels it from any', async () => {
    const s = startService({
      server: { host: '127.0.0.1', port: 0, workers: 2 },
      auth: { keys: [KEY] },
      dns: { system: [`127.0.0.1:${lab.port}`], timeoutMs: 2000 },
      jobs: { concurrency: 2 },
    });
    try {
      const base = `http://${await s.listening}`;
      const targets = Array.from({ length: N }, (_, i) => `w${i}.test`);
      const submitted = await call(base, '/api/v1/jobs', 'POST', { tool: 'mx-lookup', targets });
      expect(submitted.status).toBe(202);
      const { id } = JSON.parse(submitted.text).data;
      for (let i = 0; i < 8; i++) {
        const got = await call(base, `/api/v1/jobs/${id}`);
        expect(got.status).toBe(200);
        expect(JSON.parse(got.text).data.id).toBe(id);
      }
      const cancelled = await call(base, `/api/v1/jobs/${id}`, 'DELETE');
      expect(JSON.parse(cancelled.text).data.status).toBe('cancelled');
      let job: any;
      for (let i = 0; i < 200; i++) {
        job = JSON.parse((await call(base, `/api/v1/jobs/${id}`)).text).data;
        if (job.finishedAt !== null) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(job.status).toBe('cancelled');
      expect(job.done + job.cancelled).toBe(N);
      expect(job.cancelled).toBeGreaterThan(N / 2);
      const results = (await call(base, `/api/v1/jobs/${id}/results`)).text.trim().split('\n').filter(Boolean);
      expect(results).toHaveLength(job.done);
      // the items that ran are the first ones, in order: the rest never started
      expect(results.map((l) => JSON.parse(l).index)).toEqual(Array.from({ length: job.done }, (_, i) => i));
      const asked = targets.filter((t) => lab.countQueries(t, 'MX') > 0).length;
      expect(asked).toBe(job.done);
    } finally {
      s.child.kill('SIGTERM');
      await s.exited;
    }
  });

  it('runs items in the job worker, at a lower priority; a job worker killed mid-job is replaced and finishes it', async () => {
    const s = startService({
      server: { host: '127.0.0.1', port: 0, workers: 1 },
      auth: { keys: [KEY] },
      dns: { system: [`127.0.0.1:${lab.port}`], timeoutMs: 2000 },
      jobs: { concurrency: 4 },
    });
    try {
      const base = `http://${await s.listening}`;
      let first: number | null = null;
      for (let i = 0; i < 100 && first === null; i++) {
        first = jobWorkerOf(s.child.pid!);
        if (first === null) await new Promise((r) => setTimeout(r, 50));
      }
      expect(first).not.toBeNull();
      // niceness: field 19 of /proc/<pid>/stat
      const stat = readFileSync(`/proc/${first}/stat`, 'utf8');
      expect(Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16])).toBe(19);
      const targets = Array.from({ length: 40 }, (_, i) => `w${i}.test`);
      const submitted = await call(base, '/api/v1/jobs', 'POST', { tool: 'mx-lookup', targets });
      const { id } = JSON.parse(submitted.text).data;
      for (let i = 0; i < 200; i++) {
        if (JSON.parse((await call(base, `/api/v1/jobs/${id}`)).text).data.done >= 8) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      // the job's events reach a stream of the API worker from the job worker, through the primary
      const events = await fetch(`${base}/api/v1/jobs/${id}/events`, { headers: { 'x-api-key': KEY } });
      expect(events.status).toBe(200);
      const followed = readEvents(events);
      process.kill(first!, 'SIGKILL');
      let job: any;
      for (let i = 0; i < 400; i++) {
        job = JSON.parse((await call(base, `/api/v1/jobs/${id}`)).text).data;
        if (job.finishedAt !== null) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(job).toMatchObject({ status: 'done', done: 40, failed: 0 });
      const seen = await followed;
      expect(seen.filter((e) => e.event === 'progress').length).toBeGreaterThanOrEqual(2);
      expect(seen.at(-1)).toMatchObject({ event: 'end', id: '40', data: { status: 'done', done: 40 } });
      const second = jobWorkerOf(s.child.pid!);
      expect(second).not.toBeNull();
      expect(second).not.toBe(first);
      expect(s.output()).toContain('"event":"job_worker_died"');
      const lines = (await call(base, `/api/v1/jobs/${id}/results`)).text.trim().split('\n');
      expect(lines.map((l) => JSON.parse(l).index)).toEqual(targets.map((_, i) => i));
    } finally {
      s.child.kill('SIGTERM');
      await s.exited;
    }
  });
});
