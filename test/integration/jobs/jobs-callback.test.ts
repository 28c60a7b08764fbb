/**
 * docs/jobs.md "Callback": the ended job POSTed to an https callbackUrl through the target guard, signed
 * with the job's callbackSecret (given once, in the 202) over "<timestamp>.<body>" with the timestamp in
 * X-Netdiag-Timestamp, 3 tries with back-off, the outcome on the job.
 */
import { createHmac } from 'node:crypto';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { labPki } from '../../lab/pki.js';
import { startJobsHarness, type JobsHarness } from './jobs-harness.js';

let h: JobsHarness;
let server: Server;
let port: number;
const received: { path: string; headers: Record<string, string | string[] | undefined>; body: string }[] = [];
/** how each path answers: a list of statuses, one per try (the last repeats) */
const answers: Record<string, number[]> = {};

beforeAll(async () => {
  const pki = await labPki();
  server = createServer({ key: pki.good.key, cert: pki.good.chain }, (request, response) => {
    let body = '';
    request.on('data', (d) => (body += d));
    request.on('end', () => {
      received.push({ path: request.url ?? '', headers: request.headers, body });
      const statuses = answers[request.url ?? ''] ?? [204];
      response.writeHead(statuses.length > 1 ? statuses.shift()! : statuses[0]!).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  h = await startJobsHarness({ targets: { allow: ['127.0.0.0/8'] }, jobs: { callbackBackoffMs: 50 } }, 10, {
    connections: { tlsCa: pki.root.cert },
  });
});
afterAll(async () => {
  await h.close();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

async function submitWithCallback(path: string) {
  const response = await h.call('/api/v1/jobs', {
    body: {
      tool: 'mx-lookup',
      targets: ['name1.test', 'name2.test'],
      callbackUrl: `https://good.lab.test:${port}${path}`,
    },
  });
  return { response, body: await response.json() };
}

async function untilCallbackSettled(id: string) {
  for (let i = 0; i < 200; i++) {
    const job = (await (await h.call(`/api/v1/jobs/${id}`)).json()).data;
    if (job.callback.status !== 'pending') return job;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('callback did not settle');
}

describe('job callbacks', () => {
  it('POSTs the ended job, signed with the secret given once in the 202', async () => {
    const { response, body } = await submitWithCallback('/hook');
    expect(response.status).toBe(202);
    const secret = body.data.callbackSecret;
    expect(secret).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    const job = await untilCallbackSettled(body.data.id);
    expect(job.callback).toEqual({ status: 'delivered', attempts: 1, error: null });
    expect(job).not.toHaveProperty('callbackSecret');
    const call = received.find((r) => r.path === '/hook')!;
    expect(call.headers['content-type']).toBe('application/json');
    // signed with the time it was sent (docs/jobs.md "Callback"): "<timestamp>.<body>"
    const timestamp = Number(call.headers['x-netdiag-timestamp']);
    expect(Math.abs(timestamp - Date.now() / 1000)).toBeLessThan(60);
    const expected = `sha256=${createHmac('sha256', Buffer.from(secret, 'utf8')).update(`${timestamp}.${call.body}`).digest('hex')}`;
    expect(call.headers['x-netdiag-signature']).toBe(expected);
    const sent = JSON.parse(call.body);
    expect(sent).toMatchObject({ id: body.data.id, status: 'done', total: 2, done: 2, failed: 0 });
    expect(sent).not.toHaveProperty('ok'); // the job itself, not an envelope
  });

  it('tries 3 times with back-off, and records a failure on the job', async () => {
    answers['/flaky'] = [500, 503, 200];
    const flaky = await submitWithCallback('/flaky');
    expect((await untilCallbackSettled(flaky.body.data.id)).callback).toEqual({
      status: 'delivered',
      attempts: 3,
      error: null,
    });
    answers['/down'] = [500];
    const down = await submitWithCallback('/down');
    expect((await untilCallbackSettled(down.body.data.id)).callback).toEqual({
      status: 'failed',
      attempts: 3,
      error: 'the URL answered 500',
    });
    expect(received.filter((r) => r.path === '/down')).toHaveLength(3);
  });

  it('refuses at submission an http: callbackUrl, and one the target guard refuses', async () => {
    const http = await h.call('/api/v1/jobs', {
      body: { tool: 'mx-lookup', targets: ['name1.test'], callbackUrl: `http://good.lab.test:${port}/hook` },
    });
    expect(http.status).toBe(400);
    expect((await http.json()).error).toMatch(/^callbackUrl: https only/);
    const guarded = await startJobsHarness({}, 2);
    try {
      const refused = await guarded.call('/api/v1/jobs', {
        body: { tool: 'mx-lookup', targets: ['name1.test'], callbackUrl: 'https://good.lab.test/hook' },
      });
      expect(refused.status).toBe(400);
      expect((await refused.json()).error).toMatch(
        /^callbackUrl: target good\.lab\.test resolves to 127\.0\.0\.1, a loopback address/,
      );
    } finally {
      await guarded.close();
    }
  });
});
