/**
 * nginx on loopback for the labs (tls-rating's graded servers, the load benchmark's pages): finding the
 * binary, the part of a configuration every lab nginx shares (everything in a directory of its own, no
 * daemon, no system paths: it runs without root), and starting it until its ports accept.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';

/** The nginx binary (Debian's `nginx-light`), or null when it is not installed. */
export function nginxBinary(): string | null {
  for (const path of ['/usr/sbin/nginx', 'nginx']) {
    if (spawnSync(path, ['-v'], { stdio: 'ignore' }).status === 0) return path;
  }
  return null;
}

/** Whether something accepts connections on 127.0.0.1:`port`. */
export function portTaken(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/**
 * The start of a configuration kept in `dir`: one process, its pid, error log and temporary files in
 * `dir`; the `http` block is left open for the caller's `server` blocks and its closing brace.
 */
export function nginxConfigStart(dir: string, options: { errorLogLevel: string; workerConnections: number }): string {
  return `
daemon off;
master_process off;
worker_processes 1;
pid ${join(dir, 'nginx.pid')};
error_log ${join(dir, 'error.log')} ${options.errorLogLevel};
events { worker_connections ${options.workerConnections}; }
http {
  access_log off;
  client_body_temp_path ${join(dir, 'body')};
  proxy_temp_path ${join(dir, 'proxy')};
  fastcgi_temp_path ${join(dir, 'fastcgi')};
  uwsgi_temp_path ${join(dir, 'uwsgi')};
  scgi_temp_path ${join(dir, 'scgi')};`;
}

export interface RunningNginx {
  /** stops nginx and removes its directory */
  close(): Promise<void>;
}

/**
 * Runs nginx on `dir`/nginx.conf until every port of `ports` accepts (10 s at most); on failure nginx is
 * killed and `dir` removed. `-e`: the start-up log goes to `dir` too, not to the system's (which needs root).
 */
export async function runNginx(binary: string, dir: string, ports: readonly number[]): Promise<RunningNginx> {
  const child = spawn(binary, ['-p', dir, '-e', join(dir, 'error.log'), '-c', join(dir, 'nginx.conf')], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    for (const port of ports) await untilListening(port, child);
  } catch (error) {
    child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    async close() {
      if (child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function untilListening(port: number, child: ChildProcess): Promise<void> {
  const end = Date.now() + 10_000;
  while (!(await portTaken(port))) {
    if (child.exitCode !== null) throw new Error(`nginx exited (${child.exitCode}) before it listened`);
    if (Date.now() > end) throw new Error(`nginx did not listen on 127.0.0.1:${port} within 10 s`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
