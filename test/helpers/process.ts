/**
 * Starts the real entry point as `npm start` runs it (scripts/start.mjs: the compiled dist/main.js under
 * plain node — this node, so a run on Node 24 starts the service on Node 24 — and a real socket) with a
 * config file written to a temp dir; resolves `listening` with the address from the primary's
 * "listening" log line (the port opens once a worker is ready to answer), and `metricsListening` with
 * the metrics listener's address.
 * dist/ is built (when stale) once before the suite, by test/global-setup.ts.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '../..');

/**
 * One worker unless a test asks for more, and the metrics listener on any free port (files run in
 * parallel: the default port would be taken by the first).
 */
function withTestDefaults(config: Record<string, any>): object {
  return {
    ...config,
    server: { workers: 1, ...(config.server ?? {}) },
    metrics: { port: 0, ...(config.metrics ?? {}) },
  };
}

/**
 * `env`: variables added to the service's environment (PATH, NETDIAG_CONFIG and NETDIAG_DATA_DIR are set);
 * `nodeFlags`: node flags before the entry script, as an operator's launch command puts them.
 */
export function startService(
  config: Record<string, any> | string,
  options: { env?: Record<string, string>; nodeFlags?: readonly string[] } = {},
) {
  const dir = mkdtempSync(join(tmpdir(), 'nd-main-'));
  const file = join(dir, 'config.json');
  writeFileSync(file, typeof config === 'string' ? config : JSON.stringify(withTestDefaults(config)));
  const child = spawn(process.execPath, [...(options.nodeFlags ?? []), 'scripts/start.mjs'], {
    cwd: root,
    env: { PATH: process.env.PATH, NETDIAG_CONFIG: file, NETDIAG_DATA_DIR: join(dir, 'data'), ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (err += d));
  const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
  /** The address of the first log line of this event, once it is written. */
  const addressOf = (event: string) => {
    const address = new Promise<string>((resolveAddress, reject) => {
      const timer = setInterval(() => {
        const line = out.split('\n').find((l) => l.includes(`"event":"${event}"`));
        if (line) {
          clearInterval(timer);
          resolveAddress(JSON.parse(line).address);
        }
      }, 50);
      void exited.then(() => {
        clearInterval(timer);
        reject(new Error(`exited before ${event}: ${err}`));
      });
    });
    address.catch(() => undefined); // only awaited by tests that expect a start
    return address;
  };
  const listening = addressOf('listening');
  const metricsListening = addressOf('metrics_listening');
  return { child, exited, listening, metricsListening, output: () => out, errors: () => err };
}

/** The processes whose parent is `pid`, read from /proc (field 4 of /proc/<pid>/stat, after the name). */
function childrenOf(pid: number): number[] {
  const children: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // the name is in parentheses and may hold spaces: the fields after its last ')' are split
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (parent === pid) children.push(Number(entry));
    } catch {
      // the process ended while the list was read
    }
  }
  return children;
}

/** SIGKILL for a service and its workers at once: a crash, nothing written on the way out. */
export function killHard(pid: number): void {
  for (const child of childrenOf(pid)) process.kill(child, 'SIGKILL');
  process.kill(pid, 'SIGKILL');
}

/** the job worker: the primary's child whose environment marks it (src/cluster/job-worker-process.ts) */
export function jobWorkerOf(primary: number): number | null {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) !== primary) continue;
      if (readFileSync(`/proc/${entry}/environ`, 'utf8').includes('NETDIAG_JOB_WORKER=1')) return Number(entry);
    } catch {
      // a process that ended meanwhile
    }
  }
  return null;
}
