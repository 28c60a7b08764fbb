/**
 * Starts the real entry point as `npm start` runs it (scripts/start.mjs: the compiled dist/main.js under
 * plain node — this node, so a run on Node 24 starts the service on Node 24 — and a real socket) with a
 * config file written to a temp dir; resolves `listening` with the address from the "listening" log line
 * once the "ready" line says the app serves.
 * dist/ is built (when stale) once before the suite, by test/global-setup.ts.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '../..');

/**
 * One process unless a test asks for workers, and (as in test/helpers/app.ts) no shedding on a late
 * event loop of a busy test machine unless a test asks for it.
 */
function withTestDefaults(config: Record<string, any>): object {
  return {
    ...config,
    server: { workers: 1, ...(config.server ?? {}) },
    admission: { maxEventLoopDelayMs: 0, ...(config.admission ?? {}) },
  };
}

export function startService(config: Record<string, any> | string) {
  const dir = mkdtempSync(join(tmpdir(), 'nd-main-'));
  const file = join(dir, 'config.json');
  writeFileSync(file, typeof config === 'string' ? config : JSON.stringify(withTestDefaults(config)));
  const child = spawn(process.execPath, ['scripts/start.mjs'], {
    cwd: root,
    env: { PATH: process.env.PATH, NETDIAG_CONFIG: file, NETDIAG_DATA_DIR: join(dir, 'data') },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (err += d));
  const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
  // the port opens before the app is loaded (main.ts): resolve once the "ready" line follows "listening"
  const listening = new Promise<string>((resolveAddress, reject) => {
    const timer = setInterval(() => {
      const lines = out.split('\n');
      const line = lines.find((l) => l.includes('"listening"'));
      if (line && lines.some((l) => l.includes('"event":"ready"'))) {
        clearInterval(timer);
        resolveAddress(JSON.parse(line).address);
      }
    }, 50);
    void exited.then(() => {
      clearInterval(timer);
      reject(new Error(`exited before listening: ${err}`));
    });
  });
  listening.catch(() => undefined); // only awaited by tests that expect a start
  return { child, exited, listening, output: () => out, errors: () => err };
}
