/**
 * The connection of one hop of the guarded fetcher (fetcher.ts): TCP to an address the
 * target guard returned (the next one when an address refuses, is unreachable or
 * does not answer within the connect bound), the after-connect re-check of the
 * socket's remote address, then for https a TLS handshake with SNI, ALPN and the
 * certificate checked against the hostname (or the IP literal).
 *
 * TCP and TLS are the probes' own (tcp/connect.ts, tls/prober.ts secureSocket). The handshake
 * never rejects a certificate by itself: `authorized` and `authorizationError` carry the verdict
 * (chain and name, as Node computes them), and certificateErrors 'fail' turns a bad verdict into
 * ProbeError TLS. A failed handshake (alert, no common version, not TLS at all) is ProbeError TLS
 * with OpenSSL's code.
 */
import type net from 'node:net';
import { performance } from 'node:perf_hooks';
import { isProbeError, ProbeError, type ProbeErrorKind } from '../errors.js';
import { connectTcp as connectOnce } from '../tcp/connect.js';
import { secureSocket, TlsProbeError, type SecuredSocket } from '../tls/prober.js';
import type { ResolvedAddress, TargetGuard } from '../guard.js';

/** The fetch's end-to-end bound as the connection sees it. */
export interface FetchBound {
  readonly signal: AbortSignal;
  remainingMs(): number;
  /** TIMEOUT or ABORTED, whichever ended the fetch */
  error(upstream: string): ProbeError;
}

export interface HopTls {
  protocol: string | null;
  cipher: string | null;
  alpn: string | null;
  /** the chain is trusted and the certificate matches the host */
  authorized: boolean;
  authorizationError: string | null;
}

/** connect failures after which the next checked address is tried */
const NEXT_ADDRESS_KINDS: ReadonlySet<ProbeErrorKind> = new Set(['REFUSED', 'UNREACHABLE', 'TIMEOUT']);

const ignore = (): void => {};

export interface ConnectParameters {
  /** the addresses the target guard returned, tried in order */
  addresses: readonly ResolvedAddress[];
  port: number;
  /** "host:port" for errors */
  upstream: string;
  secure: boolean;
  /** SNI and certificate name; null for IP literals (RFC 6066 §3 forbids them in SNI) */
  servername: string | null;
  targetForMessage: string;
  guard: Pick<TargetGuard, 'assertAllowed'>;
  /** the request's connection budget: each connect attempt spends one (throws when none is left) */
  connections?: { spend(what: string): void };
  bound: FetchBound;
  connectTimeoutMs: number;
  tlsTimeoutMs: number;
  ca: string | Buffer | Array<string | Buffer> | undefined;
  http2: boolean;
  certificateErrors: 'report' | 'fail';
}

export interface OpenedConnection {
  socket: net.Socket;
  remoteAddress: string;
  tcpMs: number;
  tlsMs: number;
  tls: HopTls | null;
}

/** Connects to the first checked address that accepts, re-checks it, and secures it for https. */
export async function openConnection(p: ConnectParameters): Promise<OpenedConnection> {
  // Made only when it is thrown: an error captures a stack trace, which every fetch would pay for.
  let lastFailure: unknown = null;
  for (const address of p.addresses) {
    const tcpStarted = performance.now();
    const connectTimeoutMs = Math.min(p.connectTimeoutMs, p.bound.remainingMs());
    p.connections?.spend(`a TCP connection to ${address.address} port ${p.port}`);
    let socket: net.Socket;
    try {
      socket = await connectTcp(address, p.port, p.upstream, connectTimeoutMs, p.bound);
    } catch (e) {
      if (e instanceof ProbeError && NEXT_ADDRESS_KINDS.has(e.kind) && !p.bound.signal.aborted) {
        lastFailure = e;
        continue;
      }
      throw e;
    }
    const tcpMs = performance.now() - tcpStarted;
    const remoteAddress = socket.remoteAddress ?? address.address;
    try {
      // Defence in depth: the socket must really be talking to an allowed address.
      p.guard.assertAllowed(remoteAddress, p.targetForMessage);
      if (!p.secure) return { socket, remoteAddress, tcpMs, tlsMs: 0, tls: null };
      const tlsStarted = performance.now();
      const secured = await handshake(socket, address.address, p);
      const { protocol, cipher, alpn, authorized, authorizationError } = secured;
      return {
        socket: secured.socket,
        remoteAddress,
        tcpMs,
        tlsMs: performance.now() - tlsStarted,
        tls: { protocol, cipher, alpn, authorized, authorizationError },
      };
    } catch (e) {
      socket.destroy();
      throw e;
    }
  }
  throw lastFailure ?? new ProbeError('UNREACHABLE', p.upstream, `no address to connect to for ${p.upstream}`);
}

/** One connect attempt (tcp/connect.ts), its outcome as the fetcher's errors; the bound's end is its error. */
async function connectTcp(
  address: ResolvedAddress,
  port: number,
  upstream: string,
  timeoutMs: number,
  bound: FetchBound,
): Promise<net.Socket> {
  const what = `TCP connection to ${address.address} port ${port}`;
  const outcome = await connectOnce({
    ip: address.address,
    port,
    timeoutMs,
    signal: bound.signal,
    noDelay: true,
  }).catch((e: unknown) => {
    throw isProbeError(e) && e.kind === 'ABORTED' ? bound.error(upstream) : e;
  });
  switch (outcome.kind) {
    case 'connected':
      // Errors after the hand-over are seen by undici's own listener; this one keeps an error in
      // between from becoming an uncaught exception.
      outcome.socket.on('error', ignore);
      return outcome.socket;
    case 'timeout':
      throw new ProbeError('TIMEOUT', upstream, `${what} not established within ${Math.round(timeoutMs)} ms`);
    case 'failed':
      if (outcome.code === 'ECONNREFUSED') throw new ProbeError('REFUSED', upstream, `${what} refused`);
      if (outcome.code === 'ETIMEDOUT') throw new ProbeError('TIMEOUT', upstream, `${what} timed out`);
      throw new ProbeError(
        'UNREACHABLE',
        upstream,
        `${what} failed: ${outcome.code === 'UNKNOWN' ? outcome.message : outcome.code}`,
      );
  }
}

/**
 * The TLS handshake of an https hop, on the TLS probe's handshake (tls/prober.ts secureSocket): SNI,
 * ALPN, Node's chain and name verdict. Every handshake failure is a ProbeError TLS (TIMEOUT for our
 * bound; the fetch's own end is its error); certificateErrors 'fail' turns a bad verdict into TLS too.
 */
async function handshake(socket: net.Socket, ip: string, p: ConnectParameters): Promise<SecuredSocket> {
  const peer = p.servername ?? ip;
  let secured: SecuredSocket;
  try {
    secured = await secureSocket(socket, {
      ip,
      port: p.port,
      servername: p.servername,
      alpn: p.http2 ? ['h2', 'http/1.1'] : ['http/1.1'],
      ...(p.ca !== undefined ? { ca: p.ca } : {}),
      handshakeTimeoutMs: Math.min(p.tlsTimeoutMs, p.bound.remainingMs()),
      signal: p.bound.signal,
    });
  } catch (e) {
    if (!(e instanceof TlsProbeError)) throw e;
    if (e.kind === 'ABORTED') throw p.bound.error(p.upstream);
    throw new ProbeError(e.kind === 'TIMEOUT' ? 'TIMEOUT' : 'TLS', p.upstream, e.message, { cause: e });
  }
  if (p.certificateErrors === 'fail' && !secured.authorized) {
    secured.socket.destroy();
    throw new ProbeError('TLS', p.upstream, `certificate of ${peer} not accepted: ${secured.authorizationError}`);
  }
  return secured;
}
