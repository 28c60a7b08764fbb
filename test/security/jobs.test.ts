/**
 * Threat: jobs used against the service itself or the people who read their results (issue 31), over a
 * real socket against the loopback DNS and HTTP labs:
 *   - a hostile submission (150,000 unknown parameters, a 2 MB value) refused at once, without holding up
 *     another key's calls, and a key without credits refused before its targets are read;
 *   - a 2 MB parameter never stored;
 *   - upstream text written into CSV results as a spreadsheet formula;
 *   - the job endpoints skipping admission, and event streams without a cap;
 *   - an upload the client aborts logged as a 500 with a stack trace.
 */
import { createServer, type Server as HttpServer } from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_KEY } from '../helpers/app.js';
import { OTHER_KEY, SLOW_MS, startJobsHarness, type JobsHarness } from '../integration/jobs/jobs-harness.js';

/** A bound far above what each step takes, far below what it took before the fixes (tens of seconds). */
const WIDE_MS = 5_000;

let h: JobsHarness;
let web: HttpServer;
let webPort: number;

beforeAll(async () => {
  // upstream text a spreadsheet would run: a page title and a reason phrase that start a formula
  web = createServer((request, response) => {
    if (request.url === '/title') {
      response.writeHead(200, { 'content-type': 'text/html' });
      response.end('<html><head><title>=1+2</title></head><body></body></html>');
    } else {
      response.writeHead(200, "=cmd|' /C calc'!A0", { 'content-type': 'text/plain' });
      response.end('ok');
    }
  });
  await new Promise<void>((resolve) => web.listen(0, '127.0.0.1', resolve));
  webPort = (web.address() as AddressInfo).port;
  h = await startJobsHarness(
    {
      quota: { credits: 100_000 },
      targets: { allow: ['127.0.0.0/8'] },
      jobs: { maxActivePerKey: 20, concurrency: 4 },
      admission: { perKeyInFlight: 50 },
    },
    80,
  );
});
afterAll(async () => {
  await h?.close();
  web?.closeAllConnections();
  await new Promise((resolve) => web?.close(resolve));
});

async function submit(body: unknown, key = TEST_KEY) {
  const response = await h.call('/api/v1/jobs', { body, key });
  return { status: response.status, body: await response.json() };
}

describe('hostile submissions', () => {
  it('refuses 150,000 unknown parameters at once, by the body’s structure, while another key is served', async () => {
    const params: Record<string, string> = {};
    for (let i = 0; i < 150_000; i++) params[`p${i}`] = 'x';
    const targets = [...Array.from({ length: 60 }, (_, i) => `name${i}.test`), 'bad..test'];
    const body = JSON.stringify({ tool: 'mx-lookup', targets, params });
    expect(body.length).toBeGreaterThan(1_800_000);
    const started = performance.now();
    const hostile = fetch(`${h.base}/api/v1/jobs`, {
      method: 'POST',
      headers: { 'x-api-key': TEST_KEY, 'content-type': 'application/json' },
      body,
    });
    const other = (async () => {
      const at = performance.now();
      const response = await h.call('/api/v1/mx-lookup?domain=name70.test', { key: OTHER_KEY });
      return { status: response.status, ms: performance.now() - at };
    })();
    const refused = await hostile;
    const refusedMs = performance.now() - started;
    expect(refused.status).toBe(400);
    // refused by its structure before it is parsed: no object of a job has that many members
    expect((await refused.json()).error).toBe('the body is not a job: it has an object of more than 64 members');
    expect(refusedMs).toBeLessThan(WIDE_MS);
    const served = await other;
    expect(served.status).toBe(200);
    expect(served.ms).toBeLessThan(WIDE_MS);
  });

  it('names an unknown parameter with the nearest known one, in params and in a target', async () => {
    const shared = await submit({ tool: 'dkim-checker', targets: ['name1.test'], params: { selectr: 's1' } });
    expect(shared.status).toBe(400);
    expect(shared.body.error).toBe(
      'params: unknown parameter "selectr" (did you mean "selector"?); dkim-checker takes domain, selector',
    );
    const own = await submit({ tool: 'dkim-checker', targets: [{ domian: 'name1.test', selector: 's1' }] });
    expect(own.body.error).toMatch(/^targets\[0\]: unknown parameter "domian" \(did you mean "domain"\?\)/);
    const many = await submit({ tool: 'mx-lookup', targets: ['name1.test'], params: { a: 1, b: 2, c: 3, d: 4, e: 5 } });
    expect(many.body.error).toBe('params: unknown parameters "a", "b", "c" and 2 more; mx-lookup takes domain');
  });

  it('bounds a value as a single call bounds it, and never stores a 2 MB parameter', async () => {
    const big = 'x'.repeat(1_900_000);
    const known = await submit({ tool: 'dkim-checker', targets: ['name1.test'], params: { selector: big } });
    expect(known.status).toBe(400);
    expect(known.body.error).toBe('params.selector: is more than 4096 characters long; at most 2048 are accepted');
    const unknown = await submit({ tool: 'mx-lookup', targets: ['name1.test'], params: { note: big } });
    expect(unknown.status).toBe(400);
    const target = await submit({ tool: 'mx-lookup', targets: ['name1.test', big] });
    expect(target.body.error).toBe('targets[1]: is more than 4096 characters long; at most 2048 are accepted');
    // nothing was stored: the key has no job
    expect((await (await h.call('/api/v1/jobs', { key: TEST_KEY })).json()).data.jobs).toEqual([]);
  });

  it('refuses a key that cannot pay before reading its targets (429, not the bad target’s 400)', async () => {
    const poor = await startJobsHarness({ quota: { credits: 5 } }, 2);
    try {
      const response = await poor.call('/api/v1/jobs', {
        body: { tool: 'mx-lookup', targets: ['name1.test', 'bad..test'] },
      });
      expect(response.status).toBe(429);
      expect((await response.json()).error).toMatch(/^credit allowance exhausted: this job costs 6 credits/);
    } finally {
      await poor.close();
    }
  });

  it('refuses unknown parameters of submitJob over GraphQL the same way, free of charge', async () => {
    const response = await h.call('/graphql', {
      body: {
        query: 'mutation($input: SubmitJobInput!) { submitJob(input: $input) { id } }',
        variables: { input: { tool: 'mx-lookup', targets: ['name1.test'], params: { domian: 'x', other: 'y' } } },
      },
    });
    const body = await response.json();
    expect(body.errors[0].message).toBe(
      'params: unknown parameters "domian", "other" (did you mean "domain"?); mx-lookup takes domain',
    );
    expect(body.errors[0].extensions.code).toBe('BAD_INPUT');
  });
});

describe('CSV results', () => {
  it('writes a cell that would start a spreadsheet formula with a leading quote', async () => {
    const jobs = await Promise.all([
      submit({ tool: 'open-graph-checker', targets: [`http://127.0.0.1:${webPort}/title`] }),
      submit({ tool: 'http-headers', targets: [`http://127.0.0.1:${webPort}/reason`] }),
    ]);
    const [title, reason] = (await Promise.all(
      jobs.map(async ({ body }) => {
        await h.untilEnded(body.data.id);
        const csv = await (await h.call(`/api/v1/jobs/${body.data.id}/results?format=csv`)).text();
        const [header, row] = csv.trim().split('\r\n');
        const ndjson = JSON.parse(await (await h.call(`/api/v1/jobs/${body.data.id}/results`)).text());
        return { header: header!.split(','), row: row!, data: ndjson.data };
      }),
    )) as [{ header: string[]; row: string; data: any }, { header: string[]; row: string; data: any }];
    expect(title.data.title).toBe('=1+2'); // NDJSON keeps the upstream text as it is
    expect(title.row.split(',')[title.header.indexOf('data.title')]).toBe("'=1+2");
    expect(reason.data.statusText).toBe("=cmd|' /C calc'!A0");
    expect(reason.row).toContain(",'=cmd|' /C calc'!A0,");
    expect(reason.row).not.toMatch(/(^|,)[=+\-@]/);
  });
});

describe('the job endpoints under load', () => {
  it('caps event streams per key: one more than jobs.maxStreamsPerKey (10) is a 429, another key still follows', async () => {
    const { body } = await submit({
      tool: 'mx-lookup',
      targets: Array.from({ length: 40 }, (_, i) => `slow${i}.test`),
    });
    const path = `/api/v1/jobs/${body.data.id}/events`;
    const controllers = Array.from({ length: 10 }, () => new AbortController());
    const open = await Promise.all(
      controllers.map((c) => fetch(`${h.base}${path}`, { headers: { 'x-api-key': TEST_KEY }, signal: c.signal })),
    );
    expect(open.map((r) => r.status)).toEqual(Array(10).fill(200));
    const refused = await h.call(path);
    expect(refused.status).toBe(429);
    expect((await refused.json()).error).toMatch(/jobs\.maxStreamsPerKey/);
    // a stream closed frees its place
    controllers[0]!.abort();
    await open[0]!.body?.cancel().catch(() => undefined);
    let again = 0;
    for (let i = 0; i < 50 && again !== 200; i++) {
      await new Promise((r) => setTimeout(r, 20));
      const response = await h.call(path);
      again = response.status;
      if (again === 200) await response.body?.cancel();
    }
    expect(again).toBe(200);
    for (const c of controllers) c.abort();
  });

  it('admits the job endpoints like other requests: shed with 503 when the slots are taken', async () => {
    const tight = await startJobsHarness({ admission: { maxInFlight: 1, maxQueued: 0 } }, 4);
    try {
      const busy = tight.call('/api/v1/mx-lookup?domain=slow1.test', { key: OTHER_KEY });
      await new Promise((r) => setTimeout(r, SLOW_MS / 4));
      const shed = await tight.call('/api/v1/jobs');
      expect(shed.status).toBe(503);
      expect(shed.headers.get('retry-after')).not.toBeNull();
      expect((await busy).status).toBe(200);
      expect((await tight.call('/api/v1/jobs')).status).toBe(200);
    } finally {
      await tight.close();
    }
  });

  it('answers an upload the client aborts without a 500 or a stack trace in the log', async () => {
    const logged = h.t.logs.length;
    await new Promise<void>((resolve, reject) => {
      const socket = net.connect(Number(new URL(h.base).port), '127.0.0.1', () => {
        socket.write(
          `POST /api/v1/jobs HTTP/1.1\r\nHost: x\r\nx-api-key: ${TEST_KEY}\r\ncontent-type: application/json\r\ncontent-length: 100000\r\n\r\n{"tool":"mx-lookup","targets":[`,
        );
        setTimeout(() => {
          socket.destroy();
          resolve();
        }, 100);
      });
      socket.on('error', reject);
    });
    let lines: Array<Record<string, unknown>> = [];
    for (let i = 0; i < 50; i++) {
      lines = h.t.logs.slice(logged).filter((l) => l.event === 'request' || l.event === 'request_failed');
      if (lines.length > 0) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ event: 'request', tool: 'jobs', status: 400 });
    expect(h.t.logs.slice(logged).some((l) => 'stack' in l)).toBe(false);
  });
});
