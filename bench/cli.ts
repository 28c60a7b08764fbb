/**
 * `netdiag tls-rating` in process against its target (issue 33; docs/cli.md "Performance"): the rating a
 * running service answers plus Node's start-up, with the margin the issue allows. The same lab server rated three ways, medians of ROUNDS: the command
 * (`bin/netdiag.mjs --local`, a child process: start-up, the service's code and configuration, the rating),
 * the REST call to a running service (warm), and `node -e 0`. Loopback only.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startService } from '../test/helpers/process.js';
import { startReportLab } from '../test/lab/report-lab.js';
import { median } from './report-app.js';

const ROUNDS = 5;
const KEY = 'bench-cli-key-0123456789';
const root = resolve(import.meta.dirname, '..');

function timed(args: readonly string[], env: Record<string, string>): Promise<number> {
  const t0 = performance.now();
  const child = spawn(process.execPath, args, { cwd: root, env: { PATH: process.env.PATH, ...env }, stdio: 'ignore' });
  return new Promise((done, fail) =>
    child.on('close', (code) =>
      code === 0 ? done(performance.now() - t0) : fail(new Error(`${args.join(' ')}: exit ${code}`)),
    ),
  );
}

export async function benchCli(): Promise<void> {
  console.log('\n## netdiag tls-rating --local vs the rating of a running service plus Node start-up');
  const lab = await startReportLab();
  const dir = mkdtempSync(join(tmpdir(), 'netdiag-bench-cli-'));
  const configFile = join(dir, 'config.json');
  writeFileSync(configFile, JSON.stringify({ ...lab.config, server: { dataDir: join(dir, 'data') } }));
  const env = { NODE_EXTRA_CA_CERTS: lab.rootFile };
  const site = `https://${lab.domain}:${lab.https}/`;
  const service = startService(
    { ...lab.config, server: { host: '127.0.0.1', port: 0 }, auth: { keys: [KEY] }, quota: { credits: 1_000_000 } },
    { env },
  );
  try {
    const base = `http://${await service.listening}`;
    const rate = async () => {
      const t0 = performance.now();
      const res = await fetch(`${base}/api/v1/tls-rating?domain=${encodeURIComponent(site)}`, {
        headers: { 'x-api-key': KEY },
      });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`tls-rating: ${res.status}`);
      return performance.now() - t0;
    };
    await rate(); // the service's first request pays its warm-up; the figure is a warm service's
    const inService: number[] = [];
    const nodeStart: number[] = [];
    const command: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      inService.push(await rate());
      nodeStart.push(await timed(['-e', '0'], {}));
      command.push(
        await timed(['bin/netdiag.mjs', 'tls-rating', site, '--local', '--config', configFile, '--json'], env),
      );
    }
    const budget = median(inService) + median(nodeStart);
    console.log(
      `median of ${ROUNDS}: command ${median(command).toFixed(0)} ms; service ${median(inService).toFixed(0)} ms + node -e 0 ${median(nodeStart).toFixed(0)} ms = ${budget.toFixed(0)} ms`,
    );
    console.log(`command / (service + start-up): ${(median(command) / budget).toFixed(2)}× (target ≤ 1.3×)`);
  } finally {
    service.child.kill('SIGTERM');
    await service.exited;
    await lab.close();
  }
}

if (process.argv[1]?.endsWith('cli.ts')) await benchCli();
