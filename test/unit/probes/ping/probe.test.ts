import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { UnavailableError } from '../../../../src/errors.js';
import { ProbeError } from '../../../../src/probes/errors.js';
import { pingArguments, runPing } from '../../../../src/probes/ping/pinger.js';

const scratch = mkdtempSync(join(tmpdir(), 'netdiag-ping-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A stand-in ping: a shell script the probe runs as its executable (the probe itself uses no shell). */
function fakePing(name: string, body: string): string {
  const path = join(scratch, name);
  writeFileSync(path, `#!/bin/sh\n${body}\n`);
  chmodSync(path, 0o755);
  return path;
}

function realPingInstalled(): boolean {
  try {
    execFileSync('ping', ['-V'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (e) {
    return e;
  }
  throw new Error('expected a rejection');
}

const LOSS_TRANSCRIPT = `PING 192.0.2.1 (192.0.2.1) 56(84) bytes of data.

--- 192.0.2.1 ping statistics ---
4 packets transmitted, 0 received, 100% packet loss, time 3062ms
`;

describe('pingArguments', () => {
  it('builds the iputils command line for the checked IP', () => {
    expect(pingArguments({ ip: '127.0.0.1', family: 4, count: 4, timeoutMs: 5000 })).toEqual([
      '-n',
      '-c',
      '4',
      '-w',
      '5',
      '-W',
      '5',
      '-i',
      '1',
      '-4',
      '127.0.0.1',
    ]);
    expect(pingArguments({ ip: '::1', family: 6, count: 10, timeoutMs: 2500 })).toEqual([
      '-n',
      '-c',
      '10',
      '-w',
      '3',
      '-W',
      '3',
      '-i',
      '0.2',
      '-6',
      '::1',
    ]);
  });

  it('refuses anything but an IP address of the stated family', () => {
    expect(() => pingArguments({ ip: 'example.com', family: 4, count: 4, timeoutMs: 5000 })).toThrow(TypeError);
    expect(() => pingArguments({ ip: '-f', family: 4, count: 4, timeoutMs: 5000 })).toThrow(TypeError);
    expect(() => pingArguments({ ip: '::1', family: 4, count: 4, timeoutMs: 5000 })).toThrow(TypeError);
  });
});

describe('runPing with a stand-in executable', () => {
  it('passes the arguments without a shell and parses exit status 1 as a result', async () => {
    const argsFile = join(scratch, 'args');
    const pingPath = fakePing(
      'loss',
      `printf '%s\\n' "$@" > '${argsFile}'\ncat <<'OUT'\n${LOSS_TRANSCRIPT}OUT\nexit 1`,
    );
    const result = await runPing({ ip: '127.0.0.1', family: 4, count: 4, timeoutMs: 5000, pingPath });
    expect(result).toMatchObject({ sent: 4, received: 0, status: 'Offline', average: null });
    expect(readFileSync(argsFile, 'utf8').trim().split('\n')).toEqual(
      pingArguments({ ip: '127.0.0.1', family: 4, count: 4, timeoutMs: 5000 }),
    );
  });

  it("reports exit status 2 as UNREACHABLE with ping's message", async () => {
    const pingPath = fakePing('error', `echo 'ping: connect: Network is unreachable' >&2\nexit 2`);
    const error = await rejection(runPing({ ip: '127.0.0.1', family: 4, count: 4, timeoutMs: 5000, pingPath }));
    expect(error).toBeInstanceOf(ProbeError);
    expect((error as ProbeError).kind).toBe('UNREACHABLE');
    expect((error as ProbeError).message).toContain('Network is unreachable');
  });

  it('reports a transcript without statistics as MALFORMED', async () => {
    const pingPath = fakePing('garbage', `echo 'something else'\nexit 0`);
    const error = await rejection(runPing({ ip: '127.0.0.1', family: 4, count: 4, timeoutMs: 5000, pingPath }));
    expect((error as ProbeError).kind).toBe('MALFORMED');
  });

  it('kills a ping that outlives its deadline and reports TIMEOUT', async () => {
    const pidFile = join(scratch, 'hang.pid');
    const pingPath = fakePing('hang', `echo $$ > '${pidFile}'\nexec sleep 30`);
    const started = performance.now();
    const error = await rejection(runPing({ ip: '127.0.0.1', family: 4, count: 1, timeoutMs: 100, pingPath }));
    expect((error as ProbeError).kind).toBe('TIMEOUT');
    expect(performance.now() - started).toBeLessThan(2 * (100 + 2000));
    const pid = Number(readFileSync(pidFile, 'utf8'));
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(isRunning(pid)).toBe(false);
  });

  it('kills ping and reports ABORTED when the caller aborts', async () => {
    const pingPath = fakePing('abort', 'exec sleep 30');
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const error = await rejection(
      runPing({ ip: '127.0.0.1', family: 4, count: 1, timeoutMs: 5000, pingPath, signal: controller.signal }),
    );
    expect((error as ProbeError).kind).toBe('ABORTED');
  });

  it('stops reading past 64 KiB of output', async () => {
    const pingPath = fakePing('chatty', 'exec yes');
    const error = await rejection(runPing({ ip: '127.0.0.1', family: 4, count: 1, timeoutMs: 5000, pingPath }));
    expect((error as ProbeError).kind).toBe('TOO_LARGE');
  });

  it('reports a missing executable as the service being unavailable', async () => {
    const error = await rejection(
      runPing({ ip: '127.0.0.1', family: 4, count: 1, timeoutMs: 1000, pingPath: join(scratch, 'no-such-ping') }),
    );
    expect(error).toBeInstanceOf(UnavailableError);
  });
});

// Only loopback may be pinged (common.md); this file runs inside a loopback-only namespace.
describe.skipIf(!realPingInstalled())('runPing with the real ping, loopback only', () => {
  it('pings 127.0.0.1', async () => {
    const result = await runPing({ ip: '127.0.0.1', family: 4, count: 2, timeoutMs: 3000 });
    expect(result).toMatchObject({ sent: 2, received: 2, lost: 0, lossPercent: 0, status: 'Online' });
    expect(result.min!).toBeLessThanOrEqual(result.average!);
    expect(result.average!).toBeLessThanOrEqual(result.max!);
    expect(result.text).toContain('--- 127.0.0.1 ping statistics ---');
  });

  it('pings ::1', async () => {
    const result = await runPing({ ip: '::1', family: 6, count: 2, timeoutMs: 3000 });
    expect(result).toMatchObject({ sent: 2, received: 2, status: 'Online' });
    expect(result.text).toContain('--- ::1 ping statistics ---');
  });
});
