/**
 * A real `redis-server` (the Debian package CI installs) on 127.0.0.1 and a free port, with no
 * persistence and a private temp dir. `stop()` and `start()` again on the same port let a test take
 * Redis away mid-run and bring it back; `close()` stops it for good and removes the dir.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Absolute path of redis-server, or null when it is not installed (suites skip with a message). */
export const redisServerPath: string | null = (() => {
  const found = spawnSync('sh', ['-c', 'command -v redis-server'], { encoding: 'utf8' });
  const path = found.stdout.trim();
  return found.status === 0 && path ? path : null;
})();

export const REDIS_MISSING_MESSAGE =
  'redis-server is not installed: the Redis suites are skipped (CI installs the Debian package redis-server)';

export interface RedisLab {
  readonly port: number;
  /** redis://127.0.0.1:<port> */
  readonly url: string;
  /** whether the server process is running */
  readonly running: boolean;
  /** stop the server (SIGTERM, then wait for the exit); the port stays reserved for start() */
  stop(): Promise<void>;
  /** start it again on the same port (empty: nothing is persisted) */
  start(): Promise<void>;
  /** freeze the process (SIGSTOP): connections stay open, nothing answers — a hung server */
  pause(): void;
  /** let a paused server run again (SIGCONT) */
  resume(): void;
  /** stop for good and remove the temp dir */
  close(): Promise<void>;
}

const READY_TIMEOUT_MS = 10_000;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen({ host: '127.0.0.1', port: 0, exclusive: true }, () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** One PING over a raw socket: true when the server answers +PONG. Always destroys the socket. */
function pingOnce(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    const done = (ok: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(ok);
    };
    const timer = setTimeout(() => done(false), 500);
    let reply = '';
    socket.on('connect', () => socket.write('PING\r\n'));
    socket.on('data', (chunk) => {
      reply += chunk.toString('latin1');
      if (reply.includes('\r\n')) done(reply.startsWith('+PONG'));
      else if (reply.length > 256) done(false);
    });
    socket.on('error', () => done(false));
  });
}

export async function startRedisLab(): Promise<RedisLab> {
  if (!redisServerPath) throw new Error(REDIS_MISSING_MESSAGE);
  const binary = redisServerPath;
  const dir = mkdtempSync(join(tmpdir(), 'netdiag-redis-'));
  let port = 0;
  let child: ChildProcess | null = null;
  let exited: Promise<void> = Promise.resolve();

  const launch = async (): Promise<boolean> => {
    const args = [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--save',
      '',
      '--appendonly',
      'no',
      '--dir',
      dir,
      '--loglevel',
      'warning',
    ];
    const proc = spawn(binary, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    proc.stderr?.on('data', (d) => (stderr += d));
    let gone = false;
    exited = new Promise<void>((resolve) =>
      proc.once('exit', () => {
        gone = true;
        resolve();
      }),
    );
    child = proc;
    const deadline = Date.now() + READY_TIMEOUT_MS;
    while (Date.now() < deadline) {
      if (gone) {
        child = null;
        if (/in use/i.test(stderr)) return false; // someone took the port between freePort() and bind: pick another
        throw new Error(`redis-server exited before answering PING: ${stderr.trim()}`);
      }
      if (await pingOnce(port)) return true;
      await new Promise((r) => setTimeout(r, 25));
    }
    proc.kill('SIGKILL');
    await exited;
    child = null;
    throw new Error(`redis-server on port ${port} did not answer PING within ${READY_TIMEOUT_MS} ms`);
  };

  const stop = async () => {
    const proc = child;
    if (!proc) return;
    child = null;
    proc.kill('SIGCONT'); // a paused server acts on SIGTERM only once continued
    proc.kill('SIGTERM');
    await exited;
  };

  for (let attempt = 0; ; attempt++) {
    port = await freePort();
    if (await launch()) break;
    if (attempt >= 4) throw new Error('redis-server could not bind a free loopback port');
  }

  return {
    get port() {
      return port;
    },
    get url() {
      return `redis://127.0.0.1:${port}`;
    },
    get running() {
      return child !== null;
    },
    stop,
    async start() {
      if (child) return;
      if (!(await launch())) throw new Error(`redis-server could not bind port ${port} again`);
    },
    pause() {
      child?.kill('SIGSTOP');
    },
    resume() {
      child?.kill('SIGCONT');
    },
    async close() {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
