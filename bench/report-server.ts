/**
 * The report's server side, without a browser (docs/report.md "Performance"): against the report lab (in a
 * process of its own, with bench/report.ts's latency), from when the app receives the request, when the
 * report's first and last parts leave it, against when each check's REST answer alone has left it; and the
 * CPU time the app's process used for each. The client is a process of its own (as a browser is), so the
 * app's process does the server's work only. Fresh app per measurement (cold caches), warmed by one call
 * for another domain; the kinds alternate within each round; medians of ROUNDS. Quieter than the browser's
 * figures on a shared machine, and what a change on the server is compared with.
 *
 *   unshare -n sh -c 'ip link set lo up && npx tsx bench/report-server.ts [rounds]'
 */
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { restRoutes } from '../src/rest/routes.js';
import { composeReportOperation } from '../src/web/report/operation.js';
import { partsOf } from '../src/web/report/sections.js';
import { BENCH_KEY, median, reportLabProcess, serveReportLab } from './report-app.js';

const ROUNDS = Number(process.argv[2] ?? 7);
const LATENCY = { dnsMs: 20, whoisMs: 150, httpMs: 40 };
const WARM_UP = 'warm-up.invalid';

const CLIENT = `
const { createInterface } = require('node:readline');
createInterface({ input: process.stdin }).on('line', async (line) => {
  const { url, body, key } = JSON.parse(line);
  const init = body
    ? { method: 'POST', body, headers: { 'content-type': 'application/json', accept: 'multipart/mixed', 'x-api-key': key } }
    : { headers: { 'x-api-key': key } };
  const res = await fetch(url, init);
  await res.arrayBuffer();
  process.stdout.write('done\\n');
});`;
const client = spawn(process.execPath, ['-e', CLIENT], { stdio: ['pipe', 'pipe', 'inherit'] });
const answered = createInterface({ input: client.stdout });
/** The client asks, reads the whole answer, and says so. */
function ask(url: string, body?: string): Promise<unknown> {
  const done = new Promise((resolve) => answered.once('line', resolve));
  client.stdin.write(`${JSON.stringify({ url, body, key: BENCH_KEY })}\n`);
  return done;
}

const report = composeReportOperation('all', restRoutes);
const restUrl = (origin: string, tool: string, domain: string) =>
  `${origin}/api/v1/${tool}?${tool === 'website-health-check' ? 'target' : 'domain'}=${domain}`;

interface Figures {
  /** ms from the request received: the first part, the last part (a check alone: its answer's end) */
  first: number;
  last: number;
  firstPart: string;
  cpuMs: number;
}

async function measure(lab: Awaited<ReturnType<typeof reportLabProcess>>['lab'], tool: string | null) {
  const app = await serveReportLab(lab);
  try {
    const send = (domain: string) =>
      tool === null
        ? ask(`${app.origin}/graphql`, JSON.stringify({ query: report, variables: { domain } }))
        : ask(restUrl(app.origin, tool, domain));
    await send(WARM_UP);
    const cpu = process.cpuUsage();
    await send(lab.domain);
    const used = process.cpuUsage(cpu);
    const { received, left, ended } = app.parts;
    const parts = [...left].sort((a, b) => a[1] - b[1]);
    const figures: Figures = {
      first: (parts[0]?.[1] ?? ended) - received,
      last: (parts.at(-1)?.[1] ?? ended) - received,
      firstPart: parts[0]?.[0] ?? tool ?? '',
      cpuMs: (used.user + used.system) / 1000,
    };
    return figures;
  } finally {
    await app.close();
  }
}

const { lab, stop } = await reportLabProcess(LATENCY);
try {
  const kinds: [string, string | null][] = [
    ['report', null],
    ...partsOf('all').map((p): [string, string] => [p.id, p.tool]),
  ];
  const runs = new Map<string, Figures[]>(kinds.map(([name]) => [name, []]));
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, tool] of kinds) runs.get(name)!.push(await measure(lab, tool));
  }
  const med = (name: string, key: 'first' | 'last' | 'cpuMs') => median(runs.get(name)!.map((f) => f[key]));
  const alone = kinds.filter(([, tool]) => tool !== null).map(([name]) => name);
  const fastest = Math.min(...alone.map((n) => med(n, 'last')));
  const slowest = Math.max(...alone.map((n) => med(n, 'last')));
  const cpuSum = alone.reduce((sum, n) => sum + med(n, 'cpuMs'), 0);
  console.log(`\n## report, server side: parts leaving the app vs each check's REST answer (median of ${ROUNDS})`);
  console.log(
    `load average ${(await import('node:os'))
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
  );
  console.log(
    `each check alone, its answer sent: ${alone.map((n) => `${n} ${med(n, 'last').toFixed(0)} ms (CPU ${med(n, 'cpuMs').toFixed(0)} ms)`).join(', ')}`,
  );
  console.log(
    `report: first part (${[...new Set(runs.get('report')!.map((f) => f.firstPart))].join(', ')}) sent at ${med('report', 'first').toFixed(0)} ms, last at ${med('report', 'last').toFixed(0)} ms; CPU ${med('report', 'cpuMs').toFixed(0)} ms (the checks alone: ${cpuSum.toFixed(0)} ms together)`,
  );
  console.log(
    `first part / fastest check ${(med('report', 'first') / fastest).toFixed(2)}×, last part / slowest check ${(med('report', 'last') / slowest).toFixed(2)}×`,
  );
} finally {
  stop();
  client.stdin.end();
}
