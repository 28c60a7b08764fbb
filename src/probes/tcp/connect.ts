/**
 * TCP connection attempts to an address the target guard has already checked.
 * Never resolves names: `ip` must be an IP literal. Used by port-checker
 * (probeTcpPort), as the first phase of the TLS probe and of the SMTP session, and by the
 * HTTP fetcher's connector (http/connection.ts): the one TCP connect of the service.
 */
import net from 'node:net';
import { performance } from 'node:perf_hooks';
import { portStateFromConnectError, type PortState } from './port-state.js';
import { ProbeError } from '../errors.js';

export type { PortState };

export interface TcpConnectOptions {
  /** an IP literal (v4 or v6), already checked against the target rules */
  readonly ip: string;
  readonly port: number;
  /** bound on the TCP handshake (decisions §8: 5 s) */
  readonly timeoutMs: number;
  readonly signal?: AbortSignal;
  /** disable Nagle's algorithm on the socket (a connection that will carry a request) */
  readonly noDelay?: boolean;
}

export type TcpConnectOutcome =
  | { readonly kind: 'connected'; readonly socket: net.Socket; readonly elapsedMs: number }
  | { readonly kind: 'failed'; readonly code: string; readonly message: string; readonly elapsedMs: number }
  | { readonly kind: 'timeout'; readonly elapsedMs: number };

/** "192.0.2.1:443", "[2001:db8::1]:443": how errors name the upstream. */
export function formatUpstream(ip: string, port: number): string {
  return net.isIPv6(ip) ? `[${ip}]:${port}` : `${ip}:${port}`;
}

/** Milliseconds since `start`, rounded to 0.01 ms. */
export function elapsedSince(start: number): number {
  return Math.round((performance.now() - start) * 100) / 100;
}

/** Refuses anything but an IP literal, so that no probe can trigger a DNS lookup (decisions §7: no second resolution). */
export function assertConnectTarget(ip: string, port: number): void {
  if (net.isIP(ip) === 0) throw new TypeError(`probe target must be an IP literal, got "${ip}"`);
  if (!Number.isInteger(port) || port < 1 || port > 65535)
    throw new TypeError(`probe port must be 1–65535, got ${port}`);
}

export function abortedError(upstream: string): ProbeError {
  return new ProbeError('ABORTED', upstream, `the request ended before ${upstream} answered`);
}

/**
 * One TCP connection attempt. Resolves with what happened; rejects only with
 * ProbeError ABORTED. On `connected` the caller owns the socket and must destroy
 * it; on every other outcome the socket is already destroyed and the timer cleared.
 */
export function connectTcp(opts: TcpConnectOptions): Promise<TcpConnectOutcome> {
  const { ip, port, timeoutMs, signal } = opts;
  assertConnectTarget(ip, port);
  const upstream = formatUpstream(ip, port);
  if (signal?.aborted) return Promise.reject(abortedError(upstream));

  return new Promise((resolve, reject) => {
    const start = performance.now();
    const socket = net.connect({ host: ip, port, ...(opts.noDelay ? { noDelay: true } : {}) });
    let settled = false;

    const settle = (keepSocket: boolean, action: () => void): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      socket.off('connect', onConnect);
      socket.off('error', onError);
      if (!keepSocket) socket.destroy();
      action();
    };
    const onConnect = (): void =>
      settle(true, () => resolve({ kind: 'connected', socket, elapsedMs: elapsedSince(start) }));
    const onError = (error: NodeJS.ErrnoException): void =>
      settle(false, () =>
        resolve({
          kind: 'failed',
          code: error.code ?? 'UNKNOWN',
          message: error.message,
          elapsedMs: elapsedSince(start),
        }),
      );
    const onAbort = (): void => settle(false, () => reject(abortedError(upstream)));
    const timer = setTimeout(
      () => settle(false, () => resolve({ kind: 'timeout', elapsedMs: elapsedSince(start) })),
      timeoutMs,
    );

    socket.once('connect', onConnect);
    socket.once('error', onError);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

export interface TcpPortProbeOptions extends TcpConnectOptions {
  /**
   * Called with socket.remoteAddress once connected, before the verdict (the target
   * guard's re-check, decisions §7); the socket is destroyed either way and whatever it
   * throws is passed on unchanged.
   */
  readonly assertRemote?: (remoteAddress: string) => void;
}

export interface TcpPortProbeResult {
  readonly state: PortState;
  readonly responseTimeMs: number;
  /** why the port counts as filtered ("no answer within 5000 ms", "EHOSTUNREACH"); null when open or closed */
  readonly error: string | null;
}

/**
 * port-checker: open = the TCP handshake completed (nothing is sent, the socket is
 * closed at once); closed = refused; filtered = no answer within `timeoutMs`, or an
 * ICMP unreachable (see portStateFromConnectError). Any other connect failure means
 * the check could not run: ProbeError UNREACHABLE. Abort: ProbeError ABORTED.
 * What `assertRemote` throws is passed on.
 */
export async function probeTcpPort(opts: TcpPortProbeOptions): Promise<TcpPortProbeResult> {
  const upstream = formatUpstream(opts.ip, opts.port);
  const outcome = await connectTcp(opts);
  switch (outcome.kind) {
    case 'connected': {
      const remoteAddress = outcome.socket.remoteAddress;
      try {
        if (remoteAddress !== undefined) opts.assertRemote?.(remoteAddress);
      } finally {
        outcome.socket.destroy();
      }
      return { state: 'open', responseTimeMs: outcome.elapsedMs, error: null };
    }
    case 'timeout':
      return { state: 'filtered', responseTimeMs: outcome.elapsedMs, error: `no answer within ${opts.timeoutMs} ms` };
    case 'failed': {
      const state = portStateFromConnectError(outcome.code);
      if (state === null) {
        throw new ProbeError('UNREACHABLE', upstream, `could not test ${upstream}: ${outcome.message}`);
      }
      return { state, responseTimeMs: outcome.elapsedMs, error: state === 'filtered' ? outcome.code : null };
    }
  }
}
