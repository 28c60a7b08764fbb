/**
 * bench/cpu-time.ts: the CPU time the load benchmark reads of the service, its lab and itself (Linux /proc).
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { cpuSeconds, processTree } from '../../../bench/cpu-time.js';

const onLinux = process.platform === 'linux';

describe.runIf(onLinux)('bench cpu-time', () => {
  it('finds a child process in the tree and counts the CPU it has used', async () => {
    // a child that keeps a core busy for a fixed amount of work, says so, then waits to be ended
    const child = spawn(
      process.execPath,
      [
        '-e',
        'let x = 0; for (let i = 0; i < 3e8; i++) x += i; process.stdout.write(String(x > 0)); setInterval(() => {}, 1000);',
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    try {
      await once(child.stdout!, 'data');
      expect(processTree(process.pid)).toContain(child.pid);
      const used = cpuSeconds([child.pid!]);
      // 3e8 additions take well over 50 ms of CPU on any machine this runs on; /proc counts in 10 ms ticks
      expect(used).toBeGreaterThan(0.05);
      // a tree counts at least what its members do
      expect(cpuSeconds(processTree(process.pid))!).toBeGreaterThanOrEqual(used!);
    } finally {
      child.kill();
      await once(child, 'exit');
    }
  });

  it('counts nothing for a process that is gone', async () => {
    const child = spawn(process.execPath, ['-e', ''], { stdio: 'ignore' });
    await once(child, 'exit');
    expect(cpuSeconds([child.pid!])).toBeNull();
    expect(processTree(child.pid!)).toEqual([child.pid]);
  });
});
