/**
 * `npm run bench:warm-start` (also part of `npm run bench`): the first answers of a fresh instance
 * against its tenth ones (docs/operations.md "Warm before ready"). The service runs as `npm start` runs
 * it, with two workers, against a loopback DNS lab whose every answer comes 50 ms late and a loopback TLS
 * server. Each request goes on a new connection, so the primary hands them to the workers in turns: the
 * first two requests of a tool are the first each worker serves. A fresh instance per round.
 * Loopback only.
 *
 * BENCH_WARM_ROUNDS sets the rounds (fresh instances; default 3).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { rr, startDnsLab, type DnsLab } from '../test/lab/dns-server.js';
import { labPki } from '../test/lab/pki.js';
import { startTlsServer, type LabTlsServer } from '../test/lab/tls-server.js';

const ROOT = resolve(import.meta.dirname, '..');
const DNS_DELAY_MS = 50;
const KEY = 'warm-start-bench-key';
/** requests per tool and instance: the first of each worker, then up to its tenth */
const REQUESTS = 20;

interface Instance {
  origin: string;
  stop(): Promise<void>;
}

async function startInstance(dns: DnsLab): Promise<Instance> {
  const dir = mkdtempSync(join(tmpdir(), 'netdiag-warm-'));
  const file = join(dir, 'config.json');
  writeFileSync(
    file,
    JSON.stringify({
      server: { host: '127.0.0.1', port: 0, workers: 2, dataDir: join(dir, 'data') },
      metrics: { port: null },
      auth: { keys: [KEY] },
      dns: { system: [`127.0.0.1:${dns.port}`] },
      targets: { allow: ['127.0.0.0/8'] },
      whois: { server: '127.0.0.1', port: 9 },
      rdap: { enabled: false },
    }),
  );
  const logFile = join(dir, 'service.log');
  const child = spawn(process.execPath, ['scripts/start.mjs'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, NETDIAG_CONFIG: file },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let log = '';
  child.stdout!.on('data', (chunk: Buffer) => (log += chunk.toString()));
  const events = () =>
    log
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Record<string, any>);
  const end = Date.now() + 60_000;
  // both workers ready: the measure is of their first answers, not of a start still under way
  while (events().filter((e) => e.event === 'ready').length < 2 || !events().some((e) => e.event === 'listening')) {
    if (Date.now() > end || child.exitCode !== null) throw new Error(`the service did not start:\n${log}`);
    await new Promise((r) => setTimeout(r, 20));
  }
  writeFileSync(logFile, log);
  return {
    origin: `http://${events().find((e) => e.event === 'listening')!.address}`,
    async stop() {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** One GET on a new connection; its time in ms. */
function timedGet(origin: string, path: string): Promise<number> {
  if (!/^http:\/\/127\.0\.0\.1:\d+$/.test(origin)) throw new Error('the bench only targets loopback');
  return new Promise((ok, fail) => {
    const started = performance.now();
    const req = request(`${origin}${path}`, { agent: false, headers: { 'x-api-key': KEY } }, (res) => {
      res.resume();
      res.on('end', () =>
        res.statusCode === 200 ? ok(performance.now() - started) : fail(new Error(`${path}: ${res.statusCode}`)),
      );
    });
    req.on('error', fail);
    req.end();
  });
}

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

interface ToolUnderTest {
  name: string;
  /** the i-th request's path: a new name each time, so no cache answers it */
  path(i: number): string;
}

export async function benchWarmStart(rounds = 3): Promise<void> {
  const pki = await labPki();
  const tls: LabTlsServer = await startTlsServer({ cert: pki.good.chain, key: pki.good.key });
  const records = [];
  for (let i = 0; i < 2 * rounds * REQUESTS; i++) records.push(rr.a(`w${i}.test`, '127.0.0.1'));
  const dns = await startDnsLab({ authoritative: false, delayMs: DNS_DELAY_MS, records });
  const tools: ToolUnderTest[] = [
    { name: 'dns-lookup', path: (i) => `/api/v1/dns-lookup?domain=w${i}.test` },
    {
      name: 'tls-configuration',
      path: (i) => `/api/v1/tls-configuration?domain=w${rounds * REQUESTS + i}.test&port=${tls.port}`,
    },
  ];
  console.log(
    `\n## first answers of a fresh two-worker instance (npm start; DNS answers ${DNS_DELAY_MS} ms late; ${rounds} fresh instances)`,
  );
  console.log("| tool | round | 1st (worker A) | 2nd (worker B) | median of 11th–20th (each worker's 6th–10th) |");
  console.log('|---|---|---|---|---|');
  try {
    for (let round = 0; round < rounds; round++) {
      const instance = await startInstance(dns);
      try {
        for (const tool of tools) {
          const times: number[] = [];
          for (let i = 0; i < REQUESTS; i++)
            times.push(await timedGet(instance.origin, tool.path(round * REQUESTS + i)));
          console.log(
            `| ${tool.name} | ${round + 1} | ${times[0]!.toFixed(0)} ms | ${times[1]!.toFixed(0)} ms | ${median(times.slice(10)).toFixed(0)} ms |`,
          );
        }
      } finally {
        await instance.stop();
      }
    }
  } finally {
    await dns.close();
    await tls.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await benchWarmStart(Number(process.env.BENCH_WARM_ROUNDS ?? 3));
}
