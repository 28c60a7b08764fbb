/**
 * `npm start` builds dist/ in its own process before serving from it (scripts/start.mjs): the build must
 * leave no process behind (esbuild's service would otherwise live under the server for its whole life).
 * Built into a temporary directory, so that the dist/ other tests run is untouched.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');

it('builds and leaves no child process running', async () => {
  const outDir = join(mkdtempSync(join(tmpdir(), 'nd-build-')), 'dist');
  try {
    const script = `
      const { buildIfStale } = await import(${JSON.stringify(join(root, 'scripts/build-if-stale.mjs'))});
      await buildIfStale({ quiet: true, always: true, outDir: ${JSON.stringify(outDir)} });
      process.stdout.write('built\\n');
      setInterval(() => {}, 1000); // stays alive, as the server does after the build
    `;
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    try {
      await new Promise<void>((done, fail) => {
        child.stdout.on('data', (d) => String(d).includes('built') && done());
        child.on('exit', (code) => fail(new Error(`the build process exited with ${code}`)));
      });
      expect(existsSync(join(outDir, 'main.js'))).toBe(true);
      // the command's script, ASCII only: V8 holds it with one byte a character (scripts/build-if-stale.mjs asciiOnly)
      const command = readFileSync(join(outDir, 'cli.cjs'), 'latin1');
      expect(command).toContain('main:()=>main');
      expect(command).not.toMatch(/[^\0-\x7f]/);
      // esbuild.stop() signals its service to end; it is gone (and reaped) a moment later
      const children = () => {
        // (ps exits 1 when it lists nothing, so its output is read whatever the status)
        const ps = spawnSync('ps', ['--ppid', String(child.pid), '-o', 'pid=,comm='], { encoding: 'utf8' });
        if (ps.error) throw ps.error;
        return ps.stdout.trim();
      };
      await expect.poll(children, { timeout: 10_000, interval: 50 }).toBe('');
    } finally {
      child.kill();
    }
  } finally {
    rmSync(join(outDir, '..'), { recursive: true, force: true });
  }
}, 60_000);
