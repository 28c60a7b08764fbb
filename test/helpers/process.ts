/**
 * Starts the real entry point as `npm start` runs it (tsx, real ESM, a real socket) with a config
 * file written to a temp dir; resolves `listening` with the address from the "listening" log line.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '../..');
const tsx = join(root, 'node_modules/.bin/tsx');

export function startService(config: object | string) {
  const dir = mkdtempSync(join(tmpdir(), 'nd-main-'));
  const file = join(dir, 'config.json');
  writeFileSync(file, typeof config === 'string' ? config : JSON.stringify(config));
  const child = spawn(tsx, ['src/main.ts'], {
    cwd: root,
    env: { PATH: process.env.PATH, NETDIAG_CONFIG: file, NETDIAG_DATA_DIR: join(dir, 'data') },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (err += d));
  const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
  const listening = new Promise<string>((resolveAddress, reject) => {
    const timer = setInterval(() => {
      const line = out.split('\n').find((l) => l.includes('"listening"'));
      if (line) {
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
