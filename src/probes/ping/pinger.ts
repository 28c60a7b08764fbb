/**
 * The ping probe: runs Debian's ping (iputils-ping, which works through the cap_net_raw
 * file capability) without a shell, against an IP address the target guard checked —
 * never a name, so ping resolves nothing.
 *
 *   ping -n -c <count> -w <deadline s> -W <deadline s> -i <interval s> -4|-6 <ip>
 *
 * -w ends ping after the deadline whatever happened; the interval is shortened (not
 * below 0.2 s, the smallest iputils allows an unprivileged user) so that `count`
 * packets fit in the deadline. A timer kills ping if it outlives the deadline by
 * KILL_MARGIN_MS. The C locale keeps the transcript in the format the parser reads.
 *
 * Outcomes: exit 0 (every reply) and exit 1 (no reply, or fewer than count before the
 * deadline) are results; exit 2 is ping's "error" (no route, sendmsg refused, …) and a
 * ProbeError UNREACHABLE; a missing or unrunnable ping binary is UnavailableError (503).
 */
import { spawn } from 'node:child_process';
import net from 'node:net';
import { UnavailableError } from '../../errors.js';
import { parsePingOutput, type PingStatistics } from './parse.js';
import { ProbeError } from '../errors.js';

export interface PingOptions {
  /** an IP address the target guard returned */
  ip: string;
  family: 4 | 6;
  /** config ping.count */
  count: number;
  /** config ping.timeoutMs: ping's own deadline, rounded up to whole seconds */
  timeoutMs: number;
  signal?: AbortSignal;
  /** the ping executable (default 'ping', found through the default PATH) */
  pingPath?: string;
}

export const MAX_PING_OUTPUT_BYTES = 64 * 1024;
const MAX_STDERR_BYTES = 4 * 1024;
const KILL_MARGIN_MS = 2000;
const MIN_INTERVAL_S = 0.2;

/** ping's argument list (pure). */
export function pingArguments(opts: Pick<PingOptions, 'ip' | 'family' | 'count' | 'timeoutMs'>): string[] {
  if (net.isIP(opts.ip) !== opts.family)
    throw new TypeError(`ping needs an IPv${opts.family} address, got "${opts.ip}"`);
  if (!Number.isInteger(opts.count) || opts.count < 1)
    throw new TypeError(`ping count must be a positive integer, got ${opts.count}`);
  const deadlineS = Math.max(1, Math.ceil(opts.timeoutMs / 1000));
  // Leave the last second of the deadline for the last reply.
  const intervalS = Math.min(1, Math.max(MIN_INTERVAL_S, (deadlineS - 1) / opts.count));
  return [
    '-n',
    '-c',
    String(opts.count),
    '-w',
    String(deadlineS),
    '-W',
    String(deadlineS),
    '-i',
    String(Math.round(intervalS * 100) / 100),
    opts.family === 6 ? '-6' : '-4',
    opts.ip,
  ];
}

export function runPing(opts: PingOptions): Promise<PingStatistics> {
  const args = pingArguments(opts);
  const upstream = opts.ip;
  return new Promise((resolve, reject) => {
    if (opts.signal?.aborted) {
      reject(new ProbeError('ABORTED', upstream, `ping ${opts.ip} was aborted`));
      return;
    }
    const child = spawn(opts.pingPath ?? 'ping', args, {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { LC_ALL: 'C' },
      shell: false,
    });
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    let stdoutBytes = 0;
    let stderrBytes = 0;
    let settled = false;

    const settle = (): void => {
      settled = true;
      clearTimeout(killTimer);
      opts.signal?.removeEventListener('abort', onAbort);
    };
    const failAndKill = (e: unknown): void => {
      if (settled) return;
      settle();
      child.kill('SIGKILL');
      reject(e);
    };
    const onAbort = (): void => failAndKill(new ProbeError('ABORTED', upstream, `ping ${opts.ip} was aborted`));
    const killTimer = setTimeout(
      () =>
        failAndKill(
          new ProbeError(
            'TIMEOUT',
            upstream,
            `ping ${opts.ip} did not finish within ${opts.timeoutMs + KILL_MARGIN_MS} ms`,
          ),
        ),
      opts.timeoutMs + KILL_MARGIN_MS,
    );
    opts.signal?.addEventListener('abort', onAbort, { once: true });

    child.stdout.on('data', (chunk: Buffer) => {
      if (settled) return;
      stdoutBytes += chunk.length;
      if (stdoutBytes > MAX_PING_OUTPUT_BYTES) {
        failAndKill(
          new ProbeError('TOO_LARGE', upstream, `ping ${opts.ip} printed more than ${MAX_PING_OUTPUT_BYTES} bytes`),
        );
        return;
      }
      stdout.push(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      if (stderrBytes < MAX_STDERR_BYTES) stderr.push(chunk.subarray(0, MAX_STDERR_BYTES - stderrBytes));
      stderrBytes += chunk.length;
    });
    child.on('error', (e) => {
      if (settled) return;
      settle();
      child.kill('SIGKILL');
      reject(new UnavailableError(`ping cannot be run on this server: ${e.message}`, { cause: e }));
    });
    child.on('close', (code) => {
      if (settled) return;
      settle();
      const transcript = Buffer.concat(stdout).toString('utf8');
      if (code === 0 || code === 1) {
        const statistics = parsePingOutput(transcript);
        if (statistics) resolve(statistics);
        else
          reject(new ProbeError('MALFORMED', upstream, `ping ${opts.ip} printed no statistics (exit status ${code})`));
        return;
      }
      const reason = Buffer.concat(stderr).toString('utf8').trim().split('\n')[0] || `exit status ${code}`;
      reject(new ProbeError('UNREACHABLE', upstream, `ping ${opts.ip} failed: ${reason}`));
    });
  });
}
