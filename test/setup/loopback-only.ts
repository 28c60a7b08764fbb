/**
 * The loopback rule, enforced inside every test process (docs/development.md "Tests"): a TCP connection or a UDP
 * datagram to anything but loopback (127.0.0.0/8, ::1, "localhost") fails as if the network were
 * unreachable — the same outcome as CI's loopback-only network namespace, so that a slip (a lab record
 * pointing at a public address, a default that was not overridden) is the same failure on a developer's
 * machine and never a packet on the wire.
 */
import dgram from 'node:dgram';
import net from 'node:net';

function isLoopback(host: string): boolean {
  if (host === 'localhost') return true;
  const bare = host.replace(/^\[|\]$/g, '');
  if (net.isIPv4(bare)) return bare.startsWith('127.');
  if (net.isIPv6(bare)) return bare === '::1' || /^::ffff:127\./i.test(bare);
  return false;
}

function unreachable(host: string, port: unknown): NodeJS.ErrnoException {
  const error: NodeJS.ErrnoException = new Error(
    `connect ENETUNREACH ${host}:${String(port)} (tests may only reach loopback: test/setup/loopback-only.ts)`,
  );
  error.code = 'ENETUNREACH';
  error.errno = -101;
  error.syscall = 'connect';
  return error;
}

/** The host of a Socket#connect call, whatever its form; null for a Unix socket path. */
function connectTarget(args: unknown[]): { host: string; port: unknown } | null {
  const [first, second] = args;
  if (Array.isArray(first)) return connectTarget(first as unknown[]);
  if (typeof first === 'object' && first !== null) {
    const options = first as { path?: string; host?: string; port?: unknown };
    if (options.path !== undefined) return null;
    return { host: options.host ?? 'localhost', port: options.port };
  }
  if (typeof first === 'string' && Number.isNaN(Number(first))) return null; // a path
  return { host: typeof second === 'string' ? second : 'localhost', port: first };
}

/**
 * Installed once per process: with `isolate: false` (vitest.config.ts) a test process runs this file
 * before each of its test files, and a second wrapping would only stack the same check.
 */
const INSTALLED = Symbol.for('netdiag.loopback-only');
const registry = globalThis as { [INSTALLED]?: true };
if (!registry[INSTALLED]) {
  registry[INSTALLED] = true;
  installGuards();
}

function installGuards(): void {
  const connect = net.Socket.prototype.connect;
  net.Socket.prototype.connect = function guardedConnect(this: net.Socket, ...args: unknown[]) {
    const target = connectTarget(args);
    if (target !== null && !isLoopback(target.host)) {
      const error = unreachable(target.host, target.port);
      process.nextTick(() => this.destroy(error));
      return this;
    }
    return (connect as (...a: unknown[]) => net.Socket).apply(this, args);
  } as typeof net.Socket.prototype.connect;

  const udpConnect = dgram.Socket.prototype.connect;
  dgram.Socket.prototype.connect = function guardedUdpConnect(this: dgram.Socket, ...args: unknown[]) {
    const [port, address, callback] = args as [number, string | (() => void) | undefined, (() => void) | undefined];
    const host = typeof address === 'string' ? address : 'localhost';
    if (!isLoopback(host)) {
      const done = typeof address === 'function' ? address : callback;
      const error = unreachable(host, port);
      process.nextTick(() => (done ? (done as (e: Error) => void)(error) : this.emit('error', error)));
      return;
    }
    return (udpConnect as (...a: unknown[]) => void).apply(this, args);
  } as typeof dgram.Socket.prototype.connect;

  const udpSend = dgram.Socket.prototype.send;
  dgram.Socket.prototype.send = function guardedSend(this: dgram.Socket, ...args: unknown[]) {
    // send(msg, [offset, length,] port, address, callback): the address is the string after a port
    const portAt = args.findIndex((a, i) => i > 0 && typeof a === 'number' && typeof args[i + 1] === 'string');
    const host = portAt > 0 ? (args[portAt + 1] as string) : null;
    if (host !== null && !isLoopback(host)) {
      const callback = args.find((a) => typeof a === 'function') as ((e: Error) => void) | undefined;
      const error = unreachable(host, args[portAt]);
      process.nextTick(() => (callback ? callback(error) : this.emit('error', error)));
      return;
    }
    return (udpSend as (...a: unknown[]) => void).apply(this, args);
  } as typeof dgram.Socket.prototype.send;
}
