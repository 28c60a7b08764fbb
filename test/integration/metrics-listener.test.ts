/**
 * /metrics of the real entry point (docs/operations.md "Metrics"): not on the API port by default, but on the
 * primary's own listener on loopback, with the counts of every worker summed; with `metrics.token`, on
 * both, to the bearer of the token alone. Also: the primary hands connections to the ready workers in
 * turn, and a keep-alive connection stays with its worker.
 */
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import { startService } from '../helpers/process.js';

const KEY = 'metrics-key-123456';
const TOKEN = 'metrics-token-0123456789';
const PUBLIC = '93.184.216.34'; // a value in a header only: my-ip never connects anywhere

const services: Array<ReturnType<typeof startService>> = [];
afterAll(async () => {
  for (const s of services) s.child.kill('SIGTERM');
  await Promise.all(services.map((s) => s.exited));
});

function started(config: Record<string, any>): ReturnType<typeof startService> {
  const s = startService(config);
  services.push(s);
  return s;
}

interface Answer {
  status: number;
  body: string;
  headers: Record<string, unknown>;
  /** the client's port of the connection it came on */
  localPort: number;
}

function get(address: string, path: string, headers: Record<string, string> = {}, agent?: Agent): Promise<Answer> {
  const [host, port] = [address.slice(0, address.lastIndexOf(':')), Number(address.split(':').at(-1))];
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host, port, path, headers, agent: agent ?? false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d) => (body += d));
      res.on('end', () =>
        resolve({ status: res.statusCode!, body, headers: res.headers, localPort: req.socket!.localPort! }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

/** The value of a sample in a text exposition; undefined when absent. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

/** Which of `pids` holds the server side of the loopback connection from `clientPort` (Linux /proc). */
function ownerOf(clientPort: number, pids: number[]): number | undefined {
  const hex = clientPort.toString(16).toUpperCase().padStart(4, '0');
  const entry = readFileSync('/proc/net/tcp', 'utf8')
    .split('\n')
    .map((l) => l.trim().split(/\s+/))
    .find((f) => f[2]?.endsWith(`:${hex}`) && f[3] === '01'); // remote = the client, ESTABLISHED
  const inode = entry?.[9];
  if (!inode) return undefined;
  return pids.find((pid) =>
    readdirSync(`/proc/${pid}/fd`).some((fd) => {
      try {
        return readlinkSync(`/proc/${pid}/fd/${fd}`) === `socket:[${inode}]`;
      } catch {
        return false; // closed meanwhile
      }
    }),
  );
}

async function waitFor(condition: () => boolean, what: string, ms = 30_000): Promise<void> {
  const end = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const readyPids = (s: ReturnType<typeof startService>) =>
  s
    .output()
    .split('\n')
    .filter((l) => l.includes('"event":"ready"'))
    .map((l) => JSON.parse(l).pid as number);

describe('/metrics', { timeout: 90_000 }, () => {
  it('is served on loopback by the primary, the workers summed, and not on the API port', async () => {
    const s = started({
      server: { host: '127.0.0.1', port: 0, workers: 2, trustedProxies: ['127.0.0.1/32'] },
      auth: { keys: [KEY] },
    });
    const api = await s.listening;
    const metrics = await s.metricsListening;
    expect(metrics).toMatch(/^127\.0\.0\.1:\d+$/);
    await waitFor(() => readyPids(s).length === 2, 'two ready workers');
    const workers = readyPids(s);

    // two keep-alive connections: the primary hands them to the two workers in turn
    const agents = [new Agent({ keepAlive: true, maxSockets: 1 }), new Agent({ keepAlive: true, maxSockets: 1 })];
    const myIp = (agent: Agent) => get(api, '/api/v1/my-ip', { 'x-api-key': KEY, 'x-forwarded-for': PUBLIC }, agent);
    try {
      const first = await Promise.all(agents.map(myIp));
      expect(first.map((a) => a.status)).toEqual([200, 200]);
      const owners = first.map((a) => ownerOf(a.localPort, workers));
      expect(new Set(owners)).toEqual(new Set(workers));
      // every further request of a connection goes to the same worker, on the same connection
      const more = [4, 6];
      for (const [i, agent] of agents.entries())
        for (let n = 0; n < more[i]!; n++) {
          const answer = await myIp(agent);
          expect(answer.status).toBe(200);
          expect(answer.localPort).toBe(first[i]!.localPort);
        }
    } finally {
      for (const agent of agents) agent.destroy();
    }
    expect((await get(api, '/healthz')).status).toBe(200); // answered by the primary

    const onApiPort = await get(api, '/metrics');
    expect(onApiPort.status).toBe(404);
    expect(JSON.parse(onApiPort.body)).toMatchObject({ ok: false, error: expect.stringMatching(/no such path/) });

    const scrape = await get(metrics, '/metrics');
    expect(scrape.status).toBe(200);
    expect(scrape.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    // 2 + 4 + 6 my-ip answers, from both workers; the liveness probe from the primary
    expect(sample(scrape.body, 'netdiag_requests_total{tool="my-ip",status="200"}')).toBe(12);
    expect(sample(scrape.body, 'netdiag_requests_total{tool="healthz",status="200"}')).toBe(1);
    expect(sample(scrape.body, 'netdiag_workers_ready')).toBe(2);
    expect(sample(scrape.body, 'netdiag_credits_charged_total{tool="my-ip"}')).toBe(12);
    // the only path of that listener
    expect((await get(metrics, '/healthz')).status).toBe(404);
  });

  it('with metrics.token: the bearer of the token alone reads it, on the API port and on the metrics port', async () => {
    const s = started({
      server: { host: '127.0.0.1', port: 0, workers: 1 },
      metrics: { token: TOKEN },
    });
    const api = await s.listening;
    const metrics = await s.metricsListening;
    const bearer = { authorization: `Bearer ${TOKEN}` };
    for (const address of [api, metrics]) {
      expect((await get(address, '/metrics')).status).toBe(401);
      expect((await get(address, '/metrics', { authorization: `Bearer ${TOKEN}0` })).status).toBe(401);
      const granted = await get(address, '/metrics', bearer);
      expect(granted.status).toBe(200);
      // the whole instance's exposition on either port: the primary's own gauge is in it
      expect(sample(granted.body, 'netdiag_workers_ready')).toBe(1);
    }
  });
});
