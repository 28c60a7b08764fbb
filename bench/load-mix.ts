/**
 * `npm run bench:load` (also part of `npm run bench`): the service as `npm start` runs it (compiled,
 * its own process, `server.workers` processes) under many keep-alive clients looping over a mix of
 * checks against the project's loopback lab (DNS, TLS and HTTP servers in a process of their own,
 * bench/load-lab.ts; nginx serves the pages and handshakes when installed, bench/load-lab-nginx.ts).
 * Loopback only.
 *
 * The services of every worker count run at once and their runs alternate in three rounds (the machine's
 * speed drifts between runs); the clients are bench/keep-alive-client.ts, lean so that the generator
 * takes as little as it can of the cores it shares with the service.
 *
 * Prints, per worker count: req/s, latency p50/p90/p99/max, answers by status, time-outs, the latency of
 * /healthz on a new connection every 250 ms during the load (answered by the primary process), and the
 * service's memory (RSS of each worker at rest, peak and after, and of the primary; V8 heap before and
 * after, through the inspector).
 * Then a saturation run: more clients until throughput stops growing, then twice that, then 800
 * connections at once, with the liveness probe's maximum against its target. Admission's two targets
 * (docs/operations.md "Shedding"): the mix runs' clients, who wait for their answers, all served within a
 * p99 of 2 s; the 800 connections partly shed, liveness answered.
 *
 * BENCH_LOAD_MS sets the measuring time of each run (default 30000: shorter runs swing by a tenth);
 * BENCH_LOAD_CLIENTS the clients of the mix runs (default 200); BENCH_LOAD_WORKERS the worker counts to
 * compare (default "1,2");
 * BENCH_LOAD_SATURATION=0 leaves the saturation run out (for a quick look while tuning);
 * BENCH_LOAD_LAB=node keeps the lab's pages and handshakes in node even when nginx is installed;
 * SERVICE_NODE_FLAGS adds node flags after npm start's own, which they override (e.g.
 * "--max-semi-space-size=4", docs/operations.md "Under load"; NODE_OPTIONS could not: the command line wins).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer as createNetServer } from 'node:net';
import { availableParallelism, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { WebSocket } from 'undici';
import { KeepAliveClient } from './keep-alive-client.js';
import { cpuSeconds, processTree } from './cpu-time.js';

const ROOT = resolve(import.meta.dirname, '..');
const CLIENT_KEYS = 400;
const keyOf = (i: number) => `load-key-${String(i % CLIENT_KEYS).padStart(5, '0')}`;
const REQUEST_TIMEOUT_MS = 20_000;
/** The saturation run's last level: far more connections than one worker serves. */
const BURST_CONNECTIONS = 800;
/** /healthz on a new connection at that level: an orchestrator's probe time-out is a second or more. */
const LIVENESS_TARGET_MS = 250;
/** A closed population of clients (each waits for its answer) is served, none shed, within this p99 (issue 32). */
const CLOSED_P99_TARGET_MS = 2_000;

/** Whether admission served a closed population: nothing shed, p99 within its target. */
function closedPopulationVerdict(r: RunFigures): string {
  const shed = r.byStatus['503'] ?? 0;
  const met = shed === 0 && r.p99 <= CLOSED_P99_TARGET_MS;
  return `    admission, ${r.clients} clients that wait for their answers: ${shed} shed of ${r.requests} (target: none), p99 ${r.p99.toFixed(0)} ms (target ≤ ${CLOSED_P99_TARGET_MS} ms): ${met ? 'met' : 'MISSED'}`;
}

/** The lab in its own process (bench/load-lab.ts): its ports, and whether ssl-checker can be asked. */
interface Lab {
  dnsPort: number;
  httpPort: number;
  tls: boolean;
  /** who serves the lab's pages and handshakes: nginx when installed, else node's own servers */
  servers: 'nginx' | 'node';
  /** the lab's process (nginx runs as its child) */
  pid: number;
  close(): Promise<void>;
}

/**
 * The lab runs in a process of its own, as upstreams do in production: sharing this process's event
 * loop with the load generator, every DNS answer, handshake and page of the lab waited behind the
 * generator's work, which held back the service it measures.
 */
async function startLab(): Promise<Lab> {
  const child = spawn(process.execPath, [...process.execArgv, resolve(import.meta.dirname, 'load-lab.ts')], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const ports = await new Promise<Omit<Lab, 'close' | 'pid'>>((ok, fail) => {
    let text = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      text += chunk.toString();
      if (text.includes('\n')) ok(JSON.parse(text.split('\n')[0]!));
    });
    child.once('exit', (code) => fail(new Error(`the load lab exited (${code}) before it was ready`)));
  });
  return {
    ...ports,
    pid: child.pid!,
    async close() {
      const exited = new Promise((r) => child.once('exit', r));
      child.stdin!.end();
      await exited;
    },
  };
}

function mixOf(lab: Lab): string[] {
  return [
    '/api/v1/my-ip',
    '/api/v1/dns-lookup?domain=load.test',
    '/api/v1/mx-lookup?domain=load.test',
    '/api/v1/spf-checker?domain=load.test',
    ...(lab.tls ? ['/api/v1/ssl-checker?domain=good.lab.test'] : []),
    `/api/v1/http-headers?url=${encodeURIComponent(`http://load.test:${lab.httpPort}/ok`)}`,
  ];
}

interface Service {
  origin: string;
  /** the workers */
  pids: number[];
  /** the primary (the process npm start runs) */
  primaryPid: number;
  /** the inspector URLs of the service's processes (the primary's too) */
  inspectors: string[];
  /** the process npm start runs (with workers, their primary) */
  child: ChildProcess;
  /** the lab's process, whose CPU time the runs read with the service's */
  labPid: number;
  stop(): Promise<void>;
}

async function startService(lab: Lab, workers: number): Promise<Service> {
  const dir = mkdtempSync(join(tmpdir(), 'netdiag-load-'));
  const file = join(dir, 'config.json');
  writeFileSync(
    file,
    JSON.stringify({
      server: { host: '127.0.0.1', port: 0, workers, trustedProxies: ['127.0.0.1/32'], dataDir: join(dir, 'data') },
      // services of several worker counts run at once: each its own free metrics port
      metrics: { port: 0 },
      auth: { keys: Array.from({ length: CLIENT_KEYS }, (_, i) => keyOf(i)) },
      quota: { credits: 100_000_000 },
      dns: { system: [`127.0.0.1:${lab.dnsPort}`] },
      targets: { allow: ['127.0.0.0/8'] },
      whois: { server: '127.0.0.1', port: 9 },
      rdap: { enabled: false },
    }),
  );
  // The service logs a line per request. They go to a file: a pipe read by this busy process would
  // fill up and block the service's synchronous log writes, measuring this process instead.
  const logFile = join(dir, 'service.log');
  const logFd = openSync(logFile, 'w');
  // The inspector (loopback, a free port per process) lets the benchmark run a full garbage collection
  // before it reads the heap: what is left then is what the service keeps, not garbage V8 has not
  // collected yet because nothing allocates any more. node:cluster gives the workers the primary's port
  // plus 1, 2, …: the whole range must be free, or a worker starts without an inspector.
  const extraFlags = (process.env.SERVICE_NODE_FLAGS ?? '').split(/\s+/).filter(Boolean);
  const inspectorPort = await freePortRange(workers + 1);
  const child = spawn(
    process.execPath,
    [`--inspect=127.0.0.1:${inspectorPort}`, ...npmStartNodeFlags(), ...extraFlags, 'scripts/start.mjs'],
    {
      cwd: ROOT,
      env: {
        PATH: process.env.PATH,
        NETDIAG_CONFIG: file,
      },
      stdio: ['ignore', logFd, 'pipe'],
    },
  );
  closeSync(logFd);
  const inspectors: string[] = [];
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
    for (const m of stderr.matchAll(/Debugger listening on (ws:\/\/127\.0\.0\.1:\d+\/[\w-]+)/g))
      if (!inspectors.includes(m[1]!)) inspectors.push(m[1]!);
    // only the start-up lines matter; keep the tail in case a line is split
    stderr = stderr.slice(-512);
  });
  const events = () =>
    readFileSync(logFile, 'utf8')
      .split('\n')
      .filter((l) => l.startsWith('{') && !l.includes('"event":"request"'))
      .map((l) => JSON.parse(l) as Record<string, any>);
  const end = Date.now() + 60_000;
  let lines = events();
  // the primary listens once the first worker is ready; the benchmark waits for every worker
  while (lines.filter((l) => l.event === 'ready').length < workers || !lines.some((l) => l.event === 'listening')) {
    if (Date.now() > end || child.exitCode !== null) throw new Error(`the service did not start; see ${logFile}`);
    await new Promise((r) => setTimeout(r, 50));
    lines = events();
  }
  const listening = lines.find((l) => l.event === 'listening')!;
  return {
    origin: `http://${listening.address}`,
    pids: lines.filter((l) => l.event === 'ready').map((l) => l.pid as number),
    primaryPid: child.pid!,
    inspectors,
    child,
    labPid: lab.pid,
    async stop() {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/** The first of `count` consecutive loopback ports that are free now (each bound and released). */
async function freePortRange(count: number): Promise<number> {
  const free = (port: number) =>
    new Promise<boolean>((answer) => {
      const server = createNetServer();
      server.once('error', () => answer(false));
      server.listen(port, '127.0.0.1', () => server.close(() => answer(true)));
    });
  for (;;) {
    const first = 20_000 + Math.floor(Math.random() * 30_000);
    let all = true;
    for (let port = first; all && port < first + count; port++) all = await free(port);
    if (all) return first;
  }
}

/** The node flags `npm start` passes (package.json), so that the service runs here as it runs there. */
function npmStartNodeFlags(): string[] {
  const start = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: { start: string } }).scripts
    .start;
  const words = start.split(/\s+/);
  if (words[0] !== 'node' || words.at(-1) !== 'scripts/start.mjs') throw new Error(`unexpected start script: ${start}`);
  return words.slice(1, -1);
}

/** Resident set size of the processes, in MB (Linux /proc). */
function rssMb(pids: number[]): number {
  let kb = 0;
  for (const pid of pids) {
    try {
      const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
      kb += Number(m?.[1] ?? 0);
    } catch {
      // a process that has exited has no memory left
    }
  }
  return kb / 1024;
}

/** One inspector command (Chrome DevTools Protocol) on a process of the service; its result. */
function inspect(url: string, method: string, params: Record<string, unknown> = {}): Promise<any> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url);
    const timer = setTimeout(() => {
      ws.close();
      reject(new Error(`the inspector at ${url} did not answer ${method}`));
    }, 30_000);
    ws.addEventListener('open', () => ws.send(JSON.stringify({ id: 1, method, params })));
    ws.addEventListener('message', (event) => {
      const reply = JSON.parse(String(event.data));
      if (reply.id !== 1) return;
      clearTimeout(timer);
      ws.close();
      if (reply.error) reject(new Error(`${method}: ${reply.error.message}`));
      else resolve(reply.result);
    });
    ws.addEventListener('error', () => {
      clearTimeout(timer);
      reject(new Error(`the inspector at ${url} could not be reached`));
    });
  });
}

/**
 * V8 heap in use after a full garbage collection, in MB, of the largest worker: what the service keeps
 * (the heap read without a collection also counts garbage that V8 leaves alone while nothing allocates).
 */
async function heapAfterGcMb(service: Service): Promise<number> {
  let largest = 0;
  for (const url of service.inspectors) {
    await inspect(url, 'HeapProfiler.collectGarbage');
    const { result } = await inspect(url, 'Runtime.evaluate', {
      expression: 'JSON.stringify([process.pid, process.memoryUsage().heapUsed])',
      returnByValue: true,
    });
    const [pid, heapUsed] = JSON.parse(result.value) as [number, number];
    if (service.pids.includes(pid)) largest = Math.max(largest, heapUsed / 1024 / 1024);
  }
  return largest;
}

/**
 * GET /healthz on a new connection (no keep-alive agent) every 250 ms, from a process of its own: this
 * one is busy generating the load, and its own event loop would add to what it measures.
 */
const PROBE = `
const http = require('node:http');
const origin = process.argv[1];
setInterval(() => {
  const started = performance.now();
  const req = http.request(origin + '/healthz', { agent: false, timeout: 5000 }, (res) => {
    res.resume();
    res.on('end', () => process.stdout.write((performance.now() - started).toFixed(1) + '\\n'));
  });
  req.on('timeout', () => req.destroy());
  req.on('error', () => process.stdout.write('Infinity\\n'));
  req.end();
}, 250);
`;

function startLivenessProbe(origin: string): { stop(): Promise<number[]> } {
  const probe = spawn(process.execPath, ['-e', PROBE, origin], { stdio: ['ignore', 'pipe', 'inherit'] });
  let text = '';
  probe.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
  const closed = new Promise((r) => probe.once('close', r));
  return {
    async stop() {
      probe.kill();
      await closed; // everything it wrote has been read
      return text.split('\n').filter(Boolean).map(Number);
    },
  };
}

interface RunFigures {
  clients: number;
  requests: number;
  perSecond: number;
  /** 2xx answers per second: the work done (a shed 503 is answered too, but checks nothing) */
  answeredPerSecond: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  byStatus: Record<string, number>;
  timeouts: number;
  liveness: number[];
  rssPeakMb: number;
  /** how long the clients took to connect, before the run */
  connectMs: number;
  /** cores used on average while the clients looped (CPU seconds per second) */
  cores: CpuSplit;
}

async function runMixRaw(service: Service, paths: string[], clients: number, durationMs: number): Promise<RawRun> {
  if (!/^http:\/\/127\.0\.0\.1:\d+$/.test(service.origin)) throw new Error('the load only targets loopback');
  const connections = Array.from({ length: clients }, () => new KeepAliveClient(service.origin));
  // Every client connects before the clock starts: the run measures clients looping on their
  // keep-alive connections, not a burst of new connections (docs/operations.md "Under load": a busy worker takes
  // one new connection per event-loop iteration). /readyz, not /healthz: the primary answers a
  // connection's first /healthz itself and closes it, where /readyz leaves it with a worker.
  const connectStarted = performance.now();
  await Promise.all(connections.map((c) => c.get('/readyz', {}, REQUEST_TIMEOUT_MS)));
  const connectMs = performance.now() - connectStarted;
  const latencies: number[] = [];
  const byStatus: Record<string, number> = {};
  let timeouts = 0;
  let rssPeakMb = rssMb(service.pids);
  const end = performance.now() + durationMs;
  const client = async (i: number) => {
    let n = i;
    while (performance.now() < end) {
      const path = paths[n++ % paths.length]!;
      const t0 = performance.now();
      try {
        const status = await connections[i]!.get(
          path,
          { 'x-api-key': keyOf(i), 'x-forwarded-for': '93.184.216.34' },
          REQUEST_TIMEOUT_MS,
        );
        byStatus[status] = (byStatus[status] ?? 0) + 1;
        // a shed request comes back at once: its client waits as told before asking again
        if (status === 503) await new Promise((r) => setTimeout(r, 100));
      } catch {
        timeouts++;
      }
      latencies.push(performance.now() - t0);
    }
  };
  const probe = startLivenessProbe(service.origin);
  const probing = (async () => {
    while (performance.now() < end) {
      await new Promise((r) => setTimeout(r, 250));
      rssPeakMb = Math.max(rssPeakMb, rssMb(service.pids));
    }
  })();
  const started = performance.now();
  const cpuAtStart = cpuSplitOf(service);
  await Promise.all([...Array.from({ length: clients }, (_, i) => client(i)), probing]);
  const cpu = cpuUsedSince(cpuAtStart, cpuSplitOf(service));
  const elapsed = performance.now() - started;
  const liveness = await probe.stop();
  for (const c of connections) c.close();
  return { clients, latencies, byStatus, timeouts, liveness, rssPeakMb, connectMs, elapsedMs: elapsed, cpu };
}

/**
 * CPU seconds used so far by the service (every process npm start runs), the lab (its DNS server and
 * nginx) and this load generator: they share the machine's cores, so what the service can answer
 * depends on what the others take. Null fields where /proc cannot be read.
 */
interface CpuSplit {
  service: number | null;
  lab: number | null;
  generator: number;
}

function cpuSplitOf(service: Service): CpuSplit {
  const own = process.cpuUsage();
  return {
    service: cpuSeconds(processTree(service.child.pid!)),
    lab: cpuSeconds(processTree(service.labPid)),
    generator: (own.user + own.system) / 1e6,
  };
}

function cpuUsedSince(before: CpuSplit, after: CpuSplit): CpuSplit {
  const minus = (a: number | null, b: number | null) => (a === null || b === null ? null : a - b);
  return {
    service: minus(after.service, before.service),
    lab: minus(after.lab, before.lab),
    generator: after.generator - before.generator,
  };
}

/** What one run saw, unmerged: runs of one service in several rounds are merged by figuresOf. */
interface RawRun {
  clients: number;
  latencies: number[];
  byStatus: Record<string, number>;
  timeouts: number;
  liveness: number[];
  rssPeakMb: number;
  connectMs: number;
  elapsedMs: number;
  /** CPU seconds used while the clients looped */
  cpu: CpuSplit;
}

function figuresOf(runs: readonly RawRun[]): RunFigures {
  const latencies = runs.flatMap((r) => r.latencies).sort((a, b) => a - b);
  const byStatus: Record<string, number> = {};
  for (const r of runs)
    for (const [status, n] of Object.entries(r.byStatus)) byStatus[status] = (byStatus[status] ?? 0) + n;
  const elapsed = runs.reduce((t, r) => t + r.elapsedMs, 0);
  const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? NaN;
  return {
    clients: runs[0]!.clients,
    requests: latencies.length,
    perSecond: (latencies.length / elapsed) * 1000,
    answeredPerSecond:
      (Object.entries(byStatus).reduce((n, [s, c]) => (s.startsWith('2') ? n + c : n), 0) / elapsed) * 1000,
    p50: pct(50),
    p90: pct(90),
    p99: pct(99),
    max: latencies.at(-1) ?? NaN,
    byStatus,
    timeouts: runs.reduce((n, r) => n + r.timeouts, 0),
    liveness: runs.flatMap((r) => r.liveness),
    rssPeakMb: Math.max(...runs.map((r) => r.rssPeakMb)),
    connectMs: Math.max(...runs.map((r) => r.connectMs)),
    cores: coresOf(runs, elapsed),
  };
}

function coresOf(runs: readonly RawRun[], elapsedMs: number): CpuSplit {
  const total = (pick: (c: CpuSplit) => number | null) =>
    runs.some((r) => pick(r.cpu) === null) ? null : runs.reduce((t, r) => t + pick(r.cpu)!, 0) / (elapsedMs / 1000);
  return { service: total((c) => c.service), lab: total((c) => c.lab), generator: total((c) => c.generator)! };
}

async function runMix(service: Service, paths: string[], clients: number, durationMs: number): Promise<RunFigures> {
  return figuresOf([await runMixRaw(service, paths, clients, durationMs)]);
}

/** How the cores were shared during the run, and what the service answered per core it had. */
function formatCores(r: RunFigures): string {
  const { service, lab, generator } = r.cores;
  if (service === null || lab === null) return `CPU: this platform has no /proc to read it from`;
  return `CPU (cores, of ${availableParallelism()}): service ${service.toFixed(2)}, lab ${lab.toFixed(2)}, load generator ${generator.toFixed(2)}; ${(r.answeredPerSecond / service).toFixed(0)} answers per second per core the service used`;
}

function formatRun(name: string, r: RunFigures): string {
  const live = [...r.liveness].sort((a, b) => a - b);
  const statuses = Object.entries(r.byStatus)
    .map(([status, n]) => `${status}: ${n}`)
    .join(', ');
  return [
    `${name}: ${r.clients} clients (connected in ${r.connectMs.toFixed(0)} ms), ${r.perSecond.toFixed(0)} req/s, ${r.answeredPerSecond.toFixed(0)} 2xx/s (${r.requests} requests; ${statuses}; ${r.timeouts} time-outs)`,
    `    latency p50 ${r.p50.toFixed(0)} ms, p90 ${r.p90.toFixed(0)} ms, p99 ${r.p99.toFixed(0)} ms, max ${r.max.toFixed(0)} ms (p99/p50 ${(r.p99 / r.p50).toFixed(1)})`,
    `    /healthz on a new connection: median ${(live[Math.floor(live.length / 2)] ?? NaN).toFixed(0)} ms, max ${(live.at(-1) ?? NaN).toFixed(0)} ms over ${live.length} probes; RSS peak ${r.rssPeakMb.toFixed(0)} MB`,
    `    ${formatCores(r)}`,
  ].join('\n');
}

export async function benchLoadMix(
  durationMs: number,
  clients: number,
  workerCounts: readonly number[] = [1, 2],
  saturation = true,
): Promise<void> {
  const lab = await startLab();
  const paths = mixOf(lab);
  console.log(
    `\nload: the mix ${paths.map((p) => p.split('?')[0]!.replace('/api/v1/', '')).join(', ')}${lab.tls ? '' : ' (ssl-checker left out: port 443 is taken)'}; the lab's pages and handshakes served by ${lab.servers}${lab.servers === 'node' && process.env.BENCH_LOAD_LAB !== 'node' ? ' (nginx is not installed: apt-get install nginx-light; node takes more of the cores)' : ''}`,
  );
  try {
    // Every worker count's service runs at once, and their runs alternate in rounds: the machine's speed
    // drifts by a tenth over a minute, which back-to-back runs would read as a difference between them.
    const services = new Map<number, Service>();
    try {
      for (const workers of workerCounts) services.set(workers, await startService(lab, workers));
      const before = new Map<number, { heap: number; rest: number }>();
      for (const [workers, service] of services) {
        // warm-up: JIT in every worker, caches, connection pools
        await runMix(service, paths, 50, 3_000);
        before.set(workers, { heap: await heapAfterGcMb(service), rest: rssMb(service.pids) / service.pids.length });
      }
      const rounds = services.size > 1 ? 3 : 1;
      const runs = new Map<number, RawRun[]>(workerCounts.map((w) => [w, []]));
      for (let round = 0; round < rounds; round++)
        for (const [workers, service] of services)
          runs.get(workers)!.push(await runMixRaw(service, paths, clients, durationMs / rounds));
      await new Promise((r) => setTimeout(r, 2_000));
      const throughput: Record<number, number> = {};
      const serviceCores: Record<number, number | null> = {};
      for (const [workers, service] of services) {
        const run = figuresOf(runs.get(workers)!);
        const heapAfter = await heapAfterGcMb(service);
        const afterMb = rssMb(service.pids) / service.pids.length;
        const { heap: heapBefore, rest: restMb } = before.get(workers)!;
        throughput[workers] = run.answeredPerSecond;
        serviceCores[workers] = run.cores.service;
        console.log(
          formatRun(
            `  ${workers} worker${workers > 1 ? 's' : ''}${rounds > 1 ? ` (${rounds} rounds, alternating)` : ''}`,
            run,
          ),
        );
        console.log(closedPopulationVerdict(run));
        console.log(
          `    memory per worker: RSS at rest ${restMb.toFixed(0)} MB, peak ${(run.rssPeakMb / service.pids.length).toFixed(0)} MB, after ${afterMb.toFixed(0)} MB; heap after a full GC ${heapBefore.toFixed(0)} MB before the run, ${heapAfter.toFixed(0)} MB after (largest worker; at rest and after are read after that GC); the primary: RSS ${rssMb([service.primaryPid]).toFixed(0)} MB`,
        );
      }
      if (throughput[1] && throughput[2]) {
        // The service's share of the cores bounds the ratio: the lab and the generator take theirs of the
        // same cores, more of them as the answers per second grow.
        const cores = serviceCores[1] && serviceCores[2] ? serviceCores[2] / serviceCores[1] : null;
        console.log(
          `  2 workers / 1 worker throughput (2xx/s): ${(throughput[2] / throughput[1]).toFixed(2)}×${cores === null ? '' : ` (with ${cores.toFixed(2)}× the cores: ${(throughput[2] / throughput[1] / cores).toFixed(2)}× the answers per core)`}`,
        );
      }
    } finally {
      for (const service of services.values()) await service.stop();
    }
    if (!saturation) return;

    // Saturation: one worker, more clients until throughput grows by less than 5 %, then twice that.
    const service = await startService(lab, 1);
    try {
      await runMix(service, paths, 50, 3_000);
      let best = 0;
      let level = 25;
      const saturationMs = Math.max(2_000, durationMs / 2);
      for (;;) {
        const run = await runMix(service, paths, level, saturationMs);
        console.log(formatRun(`  saturation, 1 worker`, run));
        if (run.answeredPerSecond < best * 1.05 || level >= 1_600) break;
        best = Math.max(best, run.answeredPerSecond);
        level *= 2;
      }
      console.log(formatRun(`  saturation ×2, 1 worker`, await runMix(service, paths, level * 2, saturationMs)));
      // Far past saturation: the worker sheds, and liveness (answered by the primary) must not suffer.
      const burst = await runMix(service, paths, BURST_CONNECTIONS, saturationMs);
      console.log(formatRun(`  ${BURST_CONNECTIONS} connections, 1 worker`, burst));
      const worst = Math.max(...burst.liveness);
      console.log(
        `    liveness at ${BURST_CONNECTIONS} connections: max ${worst.toFixed(0)} ms over ${burst.liveness.length} probes (target ≤ ${LIVENESS_TARGET_MS} ms: ${worst <= LIVENESS_TARGET_MS ? 'met' : 'MISSED'})`,
      );
      const shed = burst.byStatus['503'] ?? 0;
      console.log(
        `    shed at ${BURST_CONNECTIONS} connections: ${shed} of ${burst.requests} (503 with Retry-After; ${burst.answeredPerSecond.toFixed(0)} answers/s still served; target: some shed)`,
      );
    } finally {
      await service.stop();
    }
  } finally {
    await lab.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await benchLoadMix(
    Number(process.env.BENCH_LOAD_MS ?? 30_000),
    Number(process.env.BENCH_LOAD_CLIENTS ?? 200),
    (process.env.BENCH_LOAD_WORKERS ?? '1,2').split(',').map(Number),
    process.env.BENCH_LOAD_SATURATION !== '0',
  );
}
