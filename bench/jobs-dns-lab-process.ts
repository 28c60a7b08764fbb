/** bench/jobs-dns-lab.ts in a child process, as an upstream resolver would be: its port, and a way to stop it. */
import { spawn } from 'node:child_process';
import { join } from 'node:path';

export async function startJobsDnsLab(names: number): Promise<{ port: number; close(): void }> {
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
  return { port, close: () => child.stdin.end() };
}
