/**
 * `netdiag tls-rating` in process against its target (issue 33; docs/cli.md "Performance"): the rating a
 * running service answers plus Node's start-up, with the margin the issue allows. The same lab server rated
 * three ways, medians of ROUNDS: the command (`bin/netdiag.mjs --local`, a child process: start-up, the
 * service's code and configuration, the rating), the REST call to a running service (warm; the figure a
 * client sees), and `node -e 0`. The lab runs in a process of its own, as remote servers do; its site sits
 * behind a relay holding each chunk half of RTT_MS each way and its DNS answers DNS_MS late, as a server
 * across the internet answers (./cli-latency-relay.ts says what the relay cannot hold). `BENCH_CLI_RTT_MS=0`
 * measures the bare loopback lab. The command's first run, which writes its code cache
 * (scripts/command-script.mjs), is not counted, as the service's first request is not; beside the totals,
 * the rating's own duration (its `durationMs`) in the command and in the service says how much of the gap
 * is the rating running cold in a new process. Loopback only.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startService } from '../test/helpers/process.js';
import { reportLabConfig } from '../test/lab/report-lab.js';
import { startLatencyRelay } from './cli-latency-relay.js';
import { median, reportLabProcess } from './report-app.js';

const ROUNDS = Number(process.env.BENCH_CLI_ROUNDS ?? 5);
const RTT_MS = Number(process.env.BENCH_CLI_RTT_MS ?? 30);
const DNS_MS = RTT_MS > 0 ? 20 : 0;
const KEY = 'bench-cli-key-0123456789';
const root = resolve(import.meta.dirname, '..');

/** A child process's wall time, and what it printed (the command's answer, with the rating's own durationMs). */
function timed(args: readonly string[], env: Record<string, string>): Promise<{ ms: number; stdout: string }> {
  const t0 = performance.now();
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: { PATH: process.env.PATH, ...env },
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  let stdout = '';
  child.stdout.on('data', (d) => (stdout += d));
  return new Promise((done, fail) =>
    child.on('close', (code) =>
      code === 0 ? done({ ms: performance.now() - t0, stdout }) : fail(new Error(`${args.join(' ')}: exit ${code}`)),
    ),
  );
}

export async function benchCli(): Promise<void> {
  console.log('\n## netdiag tls-rating --local vs the rating of a running service plus Node start-up');
  const { lab, stop } = await reportLabProcess({ dnsMs: DNS_MS });
  const relay = RTT_MS > 0 ? await startLatencyRelay(lab.https, RTT_MS) : null;
  const dir = mkdtempSync(join(tmpdir(), 'netdiag-bench-cli-'));
  const config = reportLabConfig(lab);
  const configFile = join(dir, 'config.json');
  writeFileSync(configFile, JSON.stringify({ ...config, server: { dataDir: join(dir, 'data') } }));
  const rootFile = join(dir, 'lab-root.pem');
  writeFileSync(rootFile, lab.rootCert);
  const env = { NODE_EXTRA_CA_CERTS: rootFile };
  const site = `https://${lab.domain}:${relay?.port ?? lab.https}/`;
  const service = startService(
    { ...config, server: { host: '127.0.0.1', port: 0 }, auth: { keys: [KEY] }, quota: { credits: 1_000_000 } },
    { env },
  );
  try {
    const base = `http://${await service.listening}`;
    const rate = async () => {
      const t0 = performance.now();
      const res = await fetch(`${base}/api/v1/tls-rating?domain=${encodeURIComponent(site)}`, {
        headers: { 'x-api-key': KEY },
      });
      const body = (await res.json()) as { data: { durationMs: number } };
      if (res.status !== 200) throw new Error(`tls-rating: ${res.status}`);
      serviceRating.push(body.data.durationMs);
      return performance.now() - t0;
    };
    const serviceRating: number[] = [];
    await rate(); // the service's first request pays its warm-up; the figure is a warm service's
    // the command's first run writes its code cache (scripts/command-script.mjs): every run after it is measured
    await timed(['bin/netdiag.mjs', 'tls-rating', site, '--local', '--config', configFile, '--json'], env);
    serviceRating.length = 0;
    const inService: number[] = [];
    const nodeStart: number[] = [];
    const command: number[] = [];
    const commandRating: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      inService.push(await rate());
      nodeStart.push((await timed(['-e', '0'], {})).ms);
      const run = await timed(
        ['bin/netdiag.mjs', 'tls-rating', site, '--local', '--config', configFile, '--json'],
        env,
      );
      command.push(run.ms);
      commandRating.push((JSON.parse(run.stdout) as { durationMs: number }).durationMs);
    }
    const budget = median(inService) + median(nodeStart);
    console.log(
      `Node ${process.version}; lab: ${RTT_MS > 0 ? `site ${RTT_MS} ms round trip through a relay, DNS ${DNS_MS} ms` : 'bare loopback'}`,
    );
    console.log(
      `median of ${ROUNDS}: command ${median(command).toFixed(0)} ms; service ${median(inService).toFixed(0)} ms + node -e 0 ${median(nodeStart).toFixed(0)} ms = ${budget.toFixed(0)} ms`,
    );
    console.log(
      `the rating itself (its durationMs), median: in the command (a new process) ${median(commandRating).toFixed(0)} ms, in the service ${median(serviceRating).toFixed(0)} ms`,
    );
    console.log(`command / (service + start-up): ${(median(command) / budget).toFixed(2)}× (target ≤ 1.3×)`);
  } finally {
    service.child.kill('SIGTERM');
    await service.exited;
    await relay?.close();
    stop();
  }
}

if (process.argv[1]?.endsWith('cli.ts')) await benchCli();
