/**
 * The TCP connect every TLS probe starts with (the handshake and the hand-built ClientHello): its
 * failures as TlsProbeErrors of the `tcp` phase, then the target guard's look at the address reached
 * (`assertRemote`) before any byte is sent.
 */
import type net from 'node:net';
import { ProbeError, type ProbeErrorKind } from '../errors.js';
import { abortedError, connectTcp } from '../tcp/connect.js';
import { TlsProbeError } from './probe-error.js';

export interface CheckedConnectOptions {
  /** IP literal (already checked by the target guard) */
  readonly ip: string;
  readonly port: number;
  /** bound on the TCP connect */
  readonly timeoutMs: number;
  readonly signal?: AbortSignal;
  /** disable Nagle's algorithm (a probe that writes one small record and waits) */
  readonly noDelay?: boolean;
  /** called with socket.remoteAddress right after the TCP connect, before any byte is sent; throw to stop */
  readonly assertRemote?: (remoteAddress: string) => void;
}

export interface CheckedConnection {
  readonly socket: net.Socket;
  readonly remoteAddress: string;
  readonly tcpMs: number;
  /**
   * A listener that keeps a socket error unhandled by nobody until the probe takes the socket over;
   * the probe removes it then (or leaves it: it does nothing).
   */
  readonly swallowLateError: () => void;
}

/**
 * Errors: TlsProbeError TIMEOUT, REFUSED, UNREACHABLE (also a connection closed right after it opened),
 * ABORTED, all of phase `tcp`; whatever `assertRemote` throws is passed on unchanged. On an error the
 * socket is destroyed; on success the caller owns it.
 */
export async function connectChecked(opts: CheckedConnectOptions, upstream: string): Promise<CheckedConnection> {
  const { ip, port, timeoutMs, signal } = opts;
  const connected = await connectTcp({
    ip,
    port,
    timeoutMs,
    ...(opts.noDelay ? { noDelay: true } : {}),
    ...(signal ? { signal } : {}),
  }).catch((error: unknown) => {
    throw error instanceof ProbeError && error.kind === 'ABORTED'
      ? new TlsProbeError('ABORTED', upstream, 'tcp', null, error.message)
      : error;
  });
  if (connected.kind === 'timeout')
    throw new TlsProbeError(
      'TIMEOUT',
      upstream,
      'tcp',
      null,
      `TCP connect to ${upstream} timed out after ${timeoutMs} ms`,
    );
  if (connected.kind === 'failed') {
    const kind: ProbeErrorKind = connected.code === 'ECONNREFUSED' ? 'REFUSED' : 'UNREACHABLE';
    throw new TlsProbeError(
      kind,
      upstream,
      'tcp',
      connected.code,
      `TCP connect to ${upstream} failed: ${connected.message}`,
    );
  }

  const socket = connected.socket;
  const swallowLateError = (): void => {};
  socket.on('error', swallowLateError);
  const remoteAddress = socket.remoteAddress;
  try {
    if (remoteAddress === undefined)
      throw new TlsProbeError(
        'UNREACHABLE',
        upstream,
        'tcp',
        null,
        `the connection to ${upstream} closed right after it opened`,
      );
    opts.assertRemote?.(remoteAddress);
    if (signal?.aborted) throw new TlsProbeError('ABORTED', upstream, 'tcp', null, abortedError(upstream).message);
  } catch (error) {
    socket.destroy();
    throw error;
  }
  return { socket, remoteAddress, tcpMs: connected.elapsedMs, swallowLateError };
}
