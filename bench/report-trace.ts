/**
 * Where the report's time goes (docs/report.md "Performance"): the composed operation against the report lab
 * (in a process of its own, with the bench's latency), traced in the app's process — when the request is
 * received, when each part's root resolver starts and ends, when each part is written to the socket, and
 * what the event loop ran meanwhile (a CPU profile, sampled every SAMPLING_INTERVAL_US, summed per window
 * between those moments: by the code running, and by the check whose code is on the stack), with the
 * questions the app asked. Then each part alone, as the same operation with one part, traced the same way.
 * The client is a process of its own, so that the profile holds the server's work alone. With
 * TRACE_FUNCTIONS set, the functions that held the loop most. Loopback only: run it in the namespace
 * (docs/development.md).
 *
 *   unshare -n sh -c 'ip link set lo up && npx tsx bench/report-trace.ts [rounds]'
 */
import childProcess, { spawn } from 'node:child_process';
import dgram from 'node:dgram';
import net from 'node:net';
import tls from 'node:tls';
import { ServerResponse } from 'node:http';
import { createInterface } from 'node:readline';
import { Session } from 'node:inspector/promises';
import { composeReportOperation } from '../src/web/report/operation.js';
import { restRoutes } from '../src/rest/routes.js';
import { schema } from '../src/graphql-server/schema.js';
import { REPORT_PARTS, fieldOf } from '../src/web/report/sections.js';
import { BENCH_KEY, reportLabProcess, serveReportLab } from './report-app.js';
import type { ReportLabAddresses } from '../test/lab/report-lab.js';

const ROUNDS = Number(process.argv[2] ?? 3);
/** the profiler's sampling interval, in microseconds */
const SAMPLING_INTERVAL_US = 100;
const LATENCY = { dnsMs: 20, whoisMs: 150, httpMs: 40 };
const WARM_UP = 'warm-up.invalid';

/** microseconds on the clock the CPU profile uses (the monotonic clock) */
const nowUs = () => Number(process.hrtime.bigint() / 1000n);

interface Mark {
  readonly at: number;
  readonly what: string;
}
let marks: Mark[] = [];
const mark = (what: string) => marks.push({ at: nowUs(), what });

// Each part's root resolver, timed (the composed operation runs graphql-js's executor, which reads `resolve`
// from the field at each execution).
const fields = schema.getQueryType()!.getFields();
for (const part of REPORT_PARTS) {
  const field = fields[fieldOf(part.tool)]!;
  const resolve = field.resolve!;
  field.resolve = async (...args) => {
    mark(`${part.id} resolver starts`);
    try {
      return await resolve(...args);
    } finally {
      mark(`${part.id} resolver ends`);
    }
  };
}

// One more moment of each part: when the server writes it to the socket.
const labelsIn = (text: string) => [...text.matchAll(/"label":"([a-z-]+)"/g)].map((m) => m[1]).join(', ');
const write = ServerResponse.prototype.write as (...args: unknown[]) => boolean;
ServerResponse.prototype.write = function (this: ServerResponse, ...args: unknown[]) {
  const chunk = args[0];
  if (chunk instanceof Uint8Array && chunk.byteLength > 20) {
    const labels = labelsIn(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength).toString());
    if (labels) mark(`written (${labels})`);
  }
  return write.apply(this, args);
} as typeof ServerResponse.prototype.write;

// What the app asked of the network and the system, counted per run: a part that asks what another already
// asked would show as a report asking more than its parts alone.
const counts = new Map<string, number>();
const count = (what: string) => counts.set(what, (counts.get(what) ?? 0) + 1);
const send = dgram.Socket.prototype.send;
dgram.Socket.prototype.send = function (this: dgram.Socket, ...args: unknown[]) {
  count('UDP datagrams');
  return (send as (...a: unknown[]) => void).apply(this, args);
} as typeof send;
const connect = net.Socket.prototype.connect;
net.Socket.prototype.connect = function (this: net.Socket, ...args: unknown[]) {
  count('TCP connects');
  return (connect as (...a: unknown[]) => net.Socket).apply(this, args);
} as typeof connect;
const tlsConnect = tls.connect;
(tls as { connect: typeof tls.connect }).connect = ((...args: Parameters<typeof tls.connect>) => {
  count('TLS handshakes');
  return tlsConnect(...args);
}) as typeof tls.connect;
// ChildProcess#spawn is Node's own (not in the types): every child process passes through it
const childProto = childProcess.ChildProcess.prototype as unknown as { spawn: (...args: unknown[]) => unknown };
const childSpawn = childProto.spawn;
childProto.spawn = function (this: unknown, ...args: unknown[]) {
  count('processes');
  return childSpawn.apply(this, args);
};

/**
 * The client: a process of its own (as a browser is), told what to send on its stdin, answering a line once
 * the answer has been read, so that the profile holds the server's work alone.
 */
const CLIENT = `
const { createInterface } = require('node:readline');
createInterface({ input: process.stdin }).on('line', async (line) => {
  const { url, body, key } = JSON.parse(line);
  const res = await fetch(url, { method: 'POST', body, headers: { 'content-type': 'application/json', accept: 'multipart/mixed', 'x-api-key': key } });
  await res.arrayBuffer();
  process.stdout.write('done\\n');
});`;
const client = spawn(process.execPath, ['-e', CLIENT], { stdio: ['pipe', 'pipe', 'inherit'] });
const answered = createInterface({ input: client.stdout });

/** Sends the operation from the client process, and waits for it to have read the whole answer. */
async function run(origin: string, operation: string, domain: string): Promise<void> {
  const done = new Promise((resolve) => answered.once('line', resolve));
  mark('request sent');
  client.stdin.write(
    `${JSON.stringify({ url: `${origin}/graphql`, body: JSON.stringify({ query: operation, variables: { domain } }), key: BENCH_KEY })}\n`,
  );
  await done;
  mark('answer read');
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** What a sample's top frame is: the package or the area of the source, or V8's own (GC, idle, program). */
function codeOf(url: string, fn: string): string {
  if (!url) return fn ? `(${fn.replace(/[()]/g, '')})` : '(native)';
  const pkg = url.match(/node_modules\/((?:@[^/]+\/)?[^/]+)/);
  if (pkg) return pkg[1]!;
  if (url.startsWith('node:')) return url.replace(/^node:(internal\/)?/, 'node:');
  const src = url.match(/\/src\/(.+?)(?:\/[^/]+)?\.ts/);
  if (src) return `src/${src[1]}`;
  return url.replace(/^.*\//, '');
}

/** The check (src/checks/<family>/<tool>) nearest the top of the stack, else the area of src/ nearest it. */
function ownerOf(stack: ProfileNode[]): string {
  for (const node of stack) {
    const m = node.callFrame.url.match(/\/src\/checks\/[^/]+\/([^/]+)\//);
    if (m) return m[1]!;
  }
  for (const node of stack) {
    const m = node.callFrame.url.match(/\/src\/([^/]+)\//);
    if (m) return `src/${m[1]}`;
  }
  return '-';
}

/** With TRACE_FUNCTIONS: the functions that took the most of the loop over the whole run, by self time. */
function topFunctions(profile: Profile, until = Number.POSITIVE_INFINITY, from = 0): void {
  const self = new Map<string, number>();
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  let at = profile.startTime;
  for (let i = 0; i < profile.samples.length - 1; i++) {
    at += profile.timeDeltas[i]!;
    if (at > until) break;
    if (at < from) continue;
    const { functionName, url } = byId.get(profile.samples[i]!)!.callFrame;
    if (functionName === '(idle)') continue;
    const key = `${functionName || '(anonymous)'} ${url.replace(/^.*\/(node_modules|src)\//, '$1/')}`;
    self.set(key, (self.get(key) ?? 0) + Math.min(profile.timeDeltas[i + 1]!, 2000));
  }
  const top = [...self].sort((a, b) => b[1] - a[1]).slice(0, 25);
  for (const [what, us] of top) console.log(`    ${(us / 1000).toFixed(1).padStart(6)} ms  ${what}`);
}

function summarise(profile: Profile, windows: readonly [number, number, string][]): void {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const stackOf = (id: number) => {
    const stack: ProfileNode[] = [];
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) stack.push(byId.get(at)!);
    return stack;
  };
  let t = profile.startTime;
  const samples = profile.samples.map((id, i) => {
    t += profile.timeDeltas[i]!;
    return { id, at: t };
  });
  for (const [from, to, name] of windows) {
    const code = new Map<string, number>();
    const owner = new Map<string, number>();
    let busy = 0;
    for (let i = 0; i < samples.length; i++) {
      const s = samples[i]!;
      if (s.at < from || s.at >= to) continue;
      const next = samples[i + 1]?.at ?? s.at;
      const dt = Math.min(next - s.at, 2000);
      const node = byId.get(s.id)!;
      const c = codeOf(node.callFrame.url, node.callFrame.functionName);
      if (c === '(idle)') continue;
      busy += dt;
      code.set(c, (code.get(c) ?? 0) + dt);
      const o = ownerOf(stackOf(s.id));
      owner.set(o, (owner.get(o) ?? 0) + dt);
    }
    const top = (m: Map<string, number>) =>
      [...m]
        .sort((a, b) => b[1] - a[1])
        .slice(0, 8)
        .map(([k, v]) => `${k} ${(v / 1000).toFixed(1)}`)
        .join(', ');
    console.log(
      `  ${name}: ${((to - from) / 1000).toFixed(1)} ms, loop busy ${(busy / 1000).toFixed(1)} ms\n    code: ${top(code)}\n    check on the stack: ${top(owner)}`,
    );
  }
}

async function traced(lab: ReportLabAddresses, title: string, operation: string, warmUp: string) {
  const app = await serveReportLab(lab);
  const session = new Session();
  session.connect();
  try {
    await run(app.origin, warmUp, WARM_UP);
    await session.post('Profiler.enable');
    await session.post('Profiler.setSamplingInterval', { interval: SAMPLING_INTERVAL_US });
    marks = [];
    counts.clear();
    await session.post('Profiler.start');
    const cpu = process.cpuUsage();
    await run(app.origin, operation, lab.domain);
    const used = process.cpuUsage(cpu);
    const { profile } = (await session.post('Profiler.stop')) as unknown as { profile: Profile };
    // when the app received the request (its clock is performance.now(); the marks', the monotonic clock)
    const offset = nowUs() - performance.now() * 1000;
    marks.push({ at: app.parts.received * 1000 + offset, what: 'request received' });
    marks.sort((a, b) => a.at - b.at);
    const t0 = marks[0]!.at;
    console.log(`\n### ${title}`);
    for (const m of marks) console.log(`  ${((m.at - t0) / 1000).toFixed(1).padStart(7)} ms  ${m.what}`);
    const windows: [number, number, string][] = [];
    for (let i = 1; i < marks.length; i++) {
      windows.push([marks[i - 1]!.at, marks[i]!.at, `${marks[i - 1]!.what} → ${marks[i]!.what}`]);
    }
    summarise(profile, windows);
    if (process.env.TRACE_FUNCTIONS) {
      // before the first part was written, then over the whole run
      const received = marks.find((m) => m.what === 'request received')?.at;
      const firstResolver = marks.find((m) => m.what.endsWith('resolver starts'))?.at;
      console.log('  the functions that held the loop most, from the request received to the first resolver:');
      topFunctions(profile, firstResolver, received);
      const firstWritten = marks.find((m) => m.what.startsWith('written'))?.at;
      console.log('  the functions that held the loop most, until the first part was written:');
      topFunctions(profile, firstWritten);
      console.log('  over the whole run:');
      topFunctions(profile);
    }
    console.log(
      `  the app's process used ${((used.user + used.system) / 1000).toFixed(1)} ms of CPU (the profiler's own included)`,
    );
    console.log(`  asked: ${[...counts].map(([what, n]) => `${what} ${n}`).join(', ')}`);
    return marks.map((m) => ({ ...m, at: (m.at - t0) / 1000 }));
  } finally {
    session.disconnect();
    await app.close();
  }
}

const { lab, stop } = await reportLabProcess(LATENCY);
try {
  const whole = composeReportOperation('all', restRoutes);
  for (let round = 0; round < ROUNDS; round++) {
    console.log(`\n## round ${round + 1}`);
    await traced(lab, 'the report (all parts)', whole, whole);
    for (const part of REPORT_PARTS) {
      // the same composition with this part only: the part alone, through the same executor
      const alone = whole.replace(/\.\.\. @defer\(label: "([a-z-]+)"\) \{[\s\S]*?\n {2}\}/g, (text, id) =>
        id === part.id ? text : '',
      );
      await traced(lab, `${part.id} alone`, alone, alone);
    }
  }
} finally {
  stop();
  client.stdin.end();
}
