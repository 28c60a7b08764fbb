/**
 * The primary's API port (docs/operations.md "Every core", "Health and readiness"), through the real entry point: liveness is
 * answered by the primary even while the worker cannot answer anything; every other request reaches the
 * worker whole (bytes read by the primary included), from the client's own address; while no worker is
 * ready the primary answers 503 with Retry-After, and a replacement takes over again.
 */
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIRST_BYTES_WAIT_MS } from '../../src/cluster/connection-router.js';
import { startService } from '../helpers/process.js';

const KEY = 'handover-key-123456';
const PUBLIC = '93.184.216.34'; // a value in a header only: my-ip never connects anywhere

let s: ReturnType<typeof startService>;
let port: number;

function events(): Array<Record<string, any>> {
  return s
    .output()
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l));
}

async function waitFor(condition: () => boolean, what: string, ms = 30_000): Promise<void> {
  const end = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** One request on a connection of its own; the status, the headers and the body. */
function once(
  method: string,
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Record<string, unknown>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port, method, path, headers, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/**
 * Writes `parts` on one raw connection, each after the previous one and `pauseMs`; resolves with all
 * the connection received once the service closes it (the last part asks for `Connection: close`).
 */
function rawRequest(parts: string[], pauseMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    socket.setEncoding('latin1');
    socket.on('data', (d) => (answer += d));
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
    const write = (i: number) => {
      if (i === parts.length) return;
      socket.write(parts[i]!, () => setTimeout(() => write(i + 1), pauseMs));
    };
    socket.once('connect', () => write(0));
  });
}

beforeAll(async () => {
  s = startService({
    server: { host: '127.0.0.1', port: 0, workers: 1, trustedProxies: ['127.0.0.1/32'] },
    auth: { keys: [KEY] },
  });
  port = Number((await s.listening).split(':').at(-1));
}, 60_000);

afterAll(async () => {
  s.child.kill('SIGCONT'); // in case a test left the worker stopped
  s.child.kill('SIGTERM');
  await s.exited;
});

describe('the primary answers liveness', { timeout: 60_000 }, () => {
  it('GET and HEAD /healthz, with or without a query, even while the worker is stopped', async () => {
    const worker = events().find((l) => l.event === 'ready')!.pid as number;
    process.kill(worker, 'SIGSTOP');
    try {
      const get = await once('GET', '/healthz');
      expect(get.status).toBe(200);
      expect(JSON.parse(get.body)).toEqual({ ok: true });
      expect(get.headers.connection).toBe('close');
      expect(get.headers['x-request-id']).toBeTruthy();
      expect((await once('HEAD', '/healthz?probe=1')).status).toBe(200);
      expect((await once('GET', '/healthz?probe=1', { 'x-request-id': 'probe-42' })).headers['x-request-id']).toBe(
        'probe-42',
      );
    } finally {
      process.kill(worker, 'SIGCONT');
    }
    // /readyz is the worker's to answer, once it runs again
    expect((await once('GET', '/readyz')).status).toBe(200);
    const line = events().find((l) => l.event === 'request' && l.path === '/healthz');
    expect(line).toMatchObject({ tool: 'healthz', status: 200, answeredBy: 'primary' });
  });
});

describe('the worker gets each connection whole', { timeout: 60_000 }, () => {
  it("serves a request whose bytes arrive in pieces, from the client's own address", async () => {
    const answer = await rawRequest(
      [
        'GET /api/v1/my-ip HTTP/1.1\r\nHost: netdiag.test\r\n',
        `X-Forwarded-For: ${PUBLIC}\r\nX-Api-Key: ${KEY}\r\n`,
        'Connection: close\r\n\r\n',
      ],
      100,
    );
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
    // the X-Forwarded-For was honoured: the worker saw the trusted loopback peer
    expect(answer).toContain(`"ip":"${PUBLIC}"`);
  });

  it('serves a GraphQL body larger than one read, split across the hand-over', async () => {
    const body = `{"query":"{ myIp { ip } }"${' '.repeat(60_000)}}`;
    const head = [
      'POST /graphql HTTP/1.1',
      'Host: netdiag.test',
      'Content-Type: application/json',
      `Content-Length: ${body.length}`,
      `X-Api-Key: ${KEY}`,
      `X-Forwarded-For: ${PUBLIC}`,
      'Connection: close',
      '',
      '',
    ].join('\r\n');
    const answer = await rawRequest([head + body.slice(0, 1_000), body.slice(1_000)], 100);
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
    expect(answer).toContain(`{"data":{"myIp":{"ip":"${PUBLIC}"}}}`);
  });

  it('serves a client that connects and sends its request only after the primary stopped waiting', async () => {
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1');
      let text = '';
      socket.setEncoding('latin1');
      socket.on('data', (d) => (text += d));
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
      socket.once('connect', () =>
        setTimeout(
          () => socket.write('GET /readyz HTTP/1.1\r\nHost: netdiag.test\r\nConnection: close\r\n\r\n'),
          FIRST_BYTES_WAIT_MS + 500,
        ),
      );
    });
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
  });

  it('keeps a keep-alive connection with its worker for every request on it', async () => {
    const request = (path: string) =>
      `GET ${path} HTTP/1.1\r\nHost: netdiag.test\r\nX-Api-Key: ${KEY}\r\nX-Forwarded-For: ${PUBLIC}\r\n\r\n`;
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(port, '127.0.0.1');
      let text = '';
      socket.setEncoding('latin1');
      socket.on('data', (d) => {
        text += d;
        if ((text.match(/"ip":"/g) ?? []).length === 3) {
          socket.destroy();
          resolve(text);
        }
      });
      socket.on('error', reject);
      // pipelined: three requests on one connection, the first of them read by the primary
      socket.write(request('/api/v1/my-ip') + request('/api/v1/my-ip') + request('/api/v1/my-ip'));
    });
    expect(answer.match(/HTTP\/1\.1 200 /g)).toHaveLength(3);
    expect(answer).not.toMatch(/connection: close/i);
  });
});

describe('while no worker is ready', { timeout: 60_000 }, () => {
  it('answers 503 with Retry-After (liveness 200), and hands over again once the replacement is ready', async () => {
    const worker = events().find((l) => l.event === 'ready')!.pid as number;
    process.kill(worker, 'SIGKILL');
    await waitFor(() => events().some((l) => l.event === 'worker_died' && l.pid === worker), 'the death logged');
    const during = await once('GET', '/api/v1/my-ip', { 'x-api-key': KEY, 'x-forwarded-for': PUBLIC });
    // unless the replacement was faster than this request
    if (during.status !== 200) {
      expect(during.status).toBe(503);
      expect(during.headers['retry-after']).toBe('1');
      expect(JSON.parse(during.body)).toMatchObject({ ok: false, meta: { tool: 'my-ip' } });
      expect((await once('GET', '/readyz')).status).toBe(503);
    }
    expect((await once('GET', '/healthz')).status).toBe(200);
    await waitFor(() => events().filter((l) => l.event === 'ready').length === 2, 'the replacement ready');
    const after = await once('GET', '/api/v1/my-ip', { 'x-api-key': KEY, 'x-forwarded-for': PUBLIC });
    expect(after.status).toBe(200);
  });
});
