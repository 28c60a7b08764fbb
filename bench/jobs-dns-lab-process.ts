/** bench/jobs-dns-lab.ts in a child process, as an upstream resolver would be: its port, and a way to stop it. */
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { setPriority } from 'node:os';
import { join } from 'node:path';

/**
 * `niceness`: the lab's threads' CPU priority. The lab answering a job's questions stands for resolvers on
 * other machines; at the API workers' priority it would take their CPU on this one, which a real
 * resolver does not.
 */
export async function startJobsDnsLab(names: number, niceness = 0): Promise<{ port: number; close(): void }> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(import.meta.dirname, 'jobs-dns-lab.ts'), String(names)],
    {
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  );
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
      const m = /port (\d+)/.exec(out);
      if (m) resolve(Number(m[1]));
    });
    child.on('exit', (code) => reject(new Error(`the DNS lab exited (${code})`)));
  });
  if (niceness !== 0)
    for (const thread of readdirSync(`/proc/${child.pid}/task`)) setPriority(Number(thread), niceness);
  return { port, close: () => child.stdin.end() };
}
