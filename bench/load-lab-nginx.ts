/**
 * The HTTP and TLS servers of the load lab as nginx (Debian's `nginx-light`), when it is installed: the
 * lab shares the machine's cores with the service it measures: for the mix's ~900 new connections a
 * second (two workers, two cores), node's TLS and HTTP servers took 20 % of a core and nginx takes 14 %,
 * which left the two workers 1.57× instead of 1.46× one worker's answers per second.
 * The same pages as test/lab/http-server.ts's /ok and the same certificate as test/lab/tls-server.ts's,
 * so the checks see the same answers. Loopback only: nginx listens on 127.0.0.1 and nothing else.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SECURITY_HEADER_VALUES } from '../test/lab/http-server.js';
import type { LabLeaf } from '../test/lab/pki.js';
import { unusedPort } from '../test/lab/tcp-server.js';

export interface NginxLab {
  httpPort: number;
  /** whether it serves TLS on 127.0.0.1:443 (the port ssl-checker asks; taken when free) */
  tls: boolean;
  close(): Promise<void>;
}

/** The nginx binary, or null when it is not installed. */
export function nginxBinary(): string | null {
  for (const path of ['/usr/sbin/nginx', 'nginx']) {
    const probe = spawnSync(path, ['-v'], { stdio: 'ignore' });
    if (probe.status === 0) return path;
  }
  return null;
}

function portTaken(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

async function waitForPort(port: number, child: ChildProcess): Promise<void> {
  const end = Date.now() + 10_000;
  while (!(await portTaken(port))) {
    if (child.exitCode !== null) throw new Error(`nginx exited (${child.exitCode}) before it listened`);
    if (Date.now() > end) throw new Error(`nginx did not listen on 127.0.0.1:${port} within 10 s`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

function configOf(dir: string, httpPort: number, tls: boolean): string {
  const headers = Object.entries(SECURITY_HEADER_VALUES)
    .map(([name, value]) => `      add_header ${name} "${value.replaceAll('"', '\\"')}" always;`)
    .join('\n');
  // ssl-checker asks 443; sessions are not kept (the probes never resume one either)
  const tlsListener = `
    listen 127.0.0.1:443 ssl;
    ssl_certificate ${join(dir, 'chain.pem')};
    ssl_certificate_key ${join(dir, 'key.pem')};
    ssl_protocols TLSv1.2 TLSv1.3;
    ssl_session_cache off;
    ssl_session_tickets off;`;
  return `
daemon off;
master_process off;
worker_processes 1;
pid ${join(dir, 'nginx.pid')};
error_log ${join(dir, 'error.log')} warn;
events { worker_connections 4096; }
http {
  access_log off;
  client_body_temp_path ${join(dir, 'body')};
  proxy_temp_path ${join(dir, 'proxy')};
  fastcgi_temp_path ${join(dir, 'fastcgi')};
  uwsgi_temp_path ${join(dir, 'uwsgi')};
  scgi_temp_path ${join(dir, 'scgi')};
  server_tokens off;
  server {
    listen 127.0.0.1:${httpPort};
${tls ? tlsListener : ''}
    location = /ok {
      default_type "text/html; charset=utf-8";
${headers}
      return 200 "<title>ok</title>";
    }
    location / { return 404; }
  }
}
`;
}

/**
 * Starts nginx with the lab's /ok page on a free port and, when 443 is free and may be bound (ports below
 * 1024 need root), TLS with `leaf`; without TLS when it cannot have 443.
 */
export async function startNginxLab(binary: string, leaf: LabLeaf): Promise<NginxLab> {
  if (!(await portTaken(443))) {
    try {
      return await startNginx(binary, leaf, true);
    } catch {
      // e.g. not root: 443 cannot be bound; ssl-checker is left out of the mix, as with node's servers
    }
  }
  return startNginx(binary, leaf, false);
}

async function startNginx(binary: string, leaf: LabLeaf, tls: boolean): Promise<NginxLab> {
  const dir = mkdtempSync(join(tmpdir(), 'netdiag-load-nginx-'));
  writeFileSync(join(dir, 'chain.pem'), leaf.chain);
  writeFileSync(join(dir, 'key.pem'), leaf.key, { mode: 0o600 });
  // nginx takes no port 0: one free now (only the lab listens on this namespace's loopback)
  const httpPort = await unusedPort();
  writeFileSync(join(dir, 'nginx.conf'), configOf(dir, httpPort, tls));
  // -e: the start-up log goes to the lab's directory too, not to the system's (which needs root)
  const child = spawn(binary, ['-p', dir, '-e', join(dir, 'error.log'), '-c', join(dir, 'nginx.conf')], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  try {
    await waitForPort(httpPort, child);
    if (tls) await waitForPort(443, child);
  } catch (error) {
    child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    httpPort,
    tls,
    async close() {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
