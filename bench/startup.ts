/**
 * Start-up of the built service (`node dist/main.js`, as `npm start` runs it after the build): time to
 * the first /healthz answer (the primary opens the port once the first worker is ready) and to /readyz
 * 200 (a worker serves). Loopback only; the service is stopped after each run.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');

async function until(url: string, ok: (status: number) => boolean, deadline: number): Promise<number> {
  for (;;) {
    try {
      const res = await fetch(url);
      if (ok(res.status)) return performance.now();
    } catch {
      // not listening yet
    }
    if (performance.now() > deadline) throw new Error(`${url} did not answer in time`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

export async function benchStartup(runs = 3): Promise<void> {
  console.log('\n## start-up of the built service (node dist/main.js)');
  console.log('| run | first /healthz (ms) | /readyz 200 (ms) |');
  console.log('|---|---|---|');
  for (let run = 1; run <= runs; run++) {
    const port = 18_400 + run;
    const dir = mkdtempSync(join(tmpdir(), 'nd-start-'));
    // no metrics listener: its default port may be another instance's on this machine
    writeFileSync(join(dir, 'config.json'), JSON.stringify({ metrics: { port: null } }));
    const started = performance.now();
    const child = spawn(process.execPath, ['dist/main.js'], {
      cwd: root,
      env: {
        PATH: process.env.PATH,
        HOST: '127.0.0.1',
        PORT: String(port),
        NETDIAG_CONFIG: join(dir, 'config.json'),
        NETDIAG_DATA_DIR: join(dir, 'data'),
      },
      stdio: 'ignore',
    });
    try {
      const live = await until(`http://127.0.0.1:${port}/healthz`, (s) => s === 200, started + 20_000);
      const ready = await until(`http://127.0.0.1:${port}/readyz`, (s) => s === 200, started + 20_000);
      console.log(`| ${run} | ${Math.round(live - started)} | ${Math.round(ready - started)} |`);
    } finally {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    }
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await benchStartup();
