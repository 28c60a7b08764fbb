/**
 * The node flags of the service (docs/operations.md "Memory": the young generation's size, the GC helper
 * threads, the heap growth) are the same wherever it is launched: `npm start`, the container recipe and the
 * systemd unit.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
const read = (file: string) => readFileSync(resolve(root, file), 'utf8');

function flagsOf(command: readonly string[], entry: string): string[] {
  expect(command[0]).toMatch(/(^|\/)node$/);
  expect(command.at(-1)).toBe(entry);
  return command.slice(1, -1);
}

describe('node flags', () => {
  const npmStart = flagsOf(
    (JSON.parse(read('package.json')) as { scripts: { start: string } }).scripts.start.split(/\s+/),
    'scripts/start.mjs',
  );

  it('bound the young generation, the GC helper threads and the heap growth in npm start', () => {
    expect(npmStart).toContain('--max-semi-space-size=8');
    expect(npmStart).toContain('--v8-pool-size=2');
    expect(npmStart).toContain('--heap-growing-percent=30');
  });

  it('are the same in the container recipe', () => {
    const cmd = /^CMD (\[.*\])$/m.exec(read('Dockerfile'))![1]!;
    expect(flagsOf(JSON.parse(cmd) as string[], 'dist/main.js')).toEqual(npmStart);
  });

  it('are the same in the systemd unit', () => {
    const exec = /^ExecStart=(.*)$/m.exec(read('deploy/netdiag.service'))![1]!;
    expect(flagsOf(exec.split(/\s+/), 'dist/main.js')).toEqual(npmStart);
  });
});
