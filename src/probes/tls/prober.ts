/**
 * One TLS handshake with an address the target guard has already checked, and
 * what it showed: version, cipher, ALPN, the chain verdict and the chain itself.
 * The hostname is used only for SNI; this module never resolves names.
 *
 * Time bounds (decisions §8): the TCP connect is bounded by `timeoutMs` and the
 * TLS handshake that follows by `handshakeTimeoutMs` (default: `timeoutMs`), so
 * with the 5 s defaults a dead server costs at most 5 s per phase.
 *
 * Reads are bounded by OpenSSL itself: the handshake stops at its certificate-list
 * limit (100 KiB), and the socket is destroyed as soon as the handshake ends.
 *
 * The same handshake serves the SMTP session's STARTTLS (tlsHandshakeOverSocket) and the HTTP
 * fetcher's https connections (secureSocket, which hands the socket over open): one TLS stack.
 */
import net from 'node:net';
import { performance } from 'node:perf_hooks';
import tls from 'node:tls';
import { clientSecureContext } from './client-contexts.js';
import { summarizePeerChain, type CertificateEvidence, type PeerCertificateSummary } from './chain.js';
import { TLS_PROTOCOL_VERSIONS, type TlsProtocolVersion } from './protocols.js';
import { abortedError, elapsedSince, formatUpstream } from '../tcp/connect.js';
import { capturedClientHello } from './captured-hello.js';
import { connectChecked } from './checked-connect.js';
import { TlsProbeError, type TlsProbePhase } from './probe-error.js';

export interface TlsHandshakeOptions {
  /** IP literal to connect to (already checked by the target guard) */
  readonly ip: string;
  readonly port: number;
  /** SNI to send; null sends none. An IP literal is never sent (RFC 6066 §3 forbids it). */
  readonly servername: string | null;
  /** default: Node's (TLSv1.2) */
  readonly minVersion?: tls.SecureVersion;
  /** default: Node's (TLSv1.3) */
  readonly maxVersion?: tls.SecureVersion;
  /** ALPN protocols to offer, e.g. ["h2", "http/1.1"]; none offered when absent */
  readonly alpn?: readonly string[];
  /** bound on the TCP connect */
  readonly timeoutMs: number;
  /** bound on the TLS handshake once connected; default `timeoutMs` */
  readonly handshakeTimeoutMs?: number;
  readonly signal?: AbortSignal;
  /** trust anchors; default Node's bundled store plus NODE_EXTRA_CA_CERTS (tests inject the lab root) */
  readonly ca?: string | Buffer | readonly (string | Buffer)[];
  /** OpenSSL cipher list; default legacyAwareCiphers(minVersion) */
  readonly ciphers?: string;
  /** the key-exchange groups to offer, OpenSSL names joined by ":" ("X25519:P-256"); default Node's */
  readonly ecdhCurve?: string;
  /** called with socket.remoteAddress right after the TCP connect, before any TLS byte is sent; throw to stop */
  readonly assertRemote?: (remoteAddress: string) => void;
  /** sent inside TLS once the handshake completed, before closing (SMTP: "QUIT\r\n", RFC 5321 §4.1.1.10) */
  readonly farewell?: string;
}

/** The facts of one completed handshake that the result needs (the TLS probe's result has them all). */
export interface HandshakeFacts extends CertificateEvidence {
  readonly protocol: string;
  readonly cipher: string;
  readonly alpn: string | null;
  readonly leafDer: Buffer;
  readonly tcpMs: number;
  readonly tlsMs: number;
  readonly totalMs: number;
}

export interface TlsHandshakeResult extends HandshakeFacts {
  /** "TLSv1.3" */
  readonly protocol: string;
  /** OpenSSL name of the negotiated cipher suite */
  readonly cipher: string;
  /** ALPN protocol selected by the server; null when none */
  readonly alpn: string | null;
  /** chain verdict only: the hostname is not part of it */
  readonly authorized: boolean;
  /** OpenSSL verify code when not authorized ("CERT_HAS_EXPIRED", "DEPTH_ZERO_SELF_SIGNED_CERT", ...) */
  readonly authorizationError: string | null;
  /** leaf first, as Node reports it (completed from the trust store when possible) */
  readonly peerChain: PeerCertificateSummary[];
  readonly leafDer: Buffer;
  readonly tcpMs: number;
  /** from TCP connected to handshake finished */
  readonly tlsMs: number;
  readonly totalMs: number;
  readonly remoteAddress: string;
  /** whether SNI was sent */
  readonly sniSent: boolean;
  /** the IANA name of the negotiated suite ("TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256") */
  readonly cipherStandardName?: string;
  /** the ephemeral key exchange as Node's getEphemeralKeyInfo() gives it (type ECDH with the curve's name, or DH with the group's size); null for none (RSA key transport) */
  readonly ephemeralKey?: EphemeralKey | null;
}

export interface EphemeralKey {
  readonly type: string;
  readonly name: string | null;
  readonly size: number;
}

// The error has a module of its own so that checked-connect.ts can raise it without an import cycle;
// the TLS probe's callers keep importing it from here.
export { TlsProbeError, type TlsProbePhase };

const VERSION_RANK: Readonly<Record<tls.SecureVersion, number>> = {
  TLSv1: 1,
  'TLSv1.1': 2,
  'TLSv1.2': 3,
  'TLSv1.3': 4,
};

/**
 * OpenSSL 3 refuses the SHA-1/MD5 signatures that TLS 1.0 and 1.1 rely on unless
 * the security level is 0 (ERR_SSL_LEGACY_SIGALG_DISALLOWED_OR_UNSUPPORTED), so a
 * range that reaches below TLS 1.2 gets "DEFAULT:@SECLEVEL=0". Otherwise Node's
 * defaults stand, so that modern handshakes judge keys as modern clients do.
 */
export function legacyAwareCiphers(minVersion: tls.SecureVersion | undefined): string | undefined {
  return minVersion !== undefined && VERSION_RANK[minVersion] < VERSION_RANK['TLSv1.2']
    ? 'DEFAULT:@SECLEVEL=0'
    : undefined;
}

function authorizationCode(socket: tls.TLSSocket): string | null {
  if (socket.authorized) return null;
  // Node documents an Error but hands over OpenSSL's verify code as a string.
  const value: unknown = socket.authorizationError;
  if (typeof value === 'string') return value;
  if (value instanceof Error) return (value as NodeJS.ErrnoException).code ?? value.message;
  return 'UNKNOWN_VERIFY_ERROR';
}

function handshakeFailure(
  upstream: string,
  error: NodeJS.ErrnoException & { reason?: string; library?: string },
): TlsProbeError {
  const code = error.code ?? null;
  const isTls =
    error.library !== undefined || (code !== null && (code.startsWith('ERR_SSL_') || code.startsWith('ERR_TLS_')));
  if (isTls) {
    const detail = error.reason ?? error.message.split('\n')[0];
    return new TlsProbeError(
      'TLS',
      upstream,
      'handshake',
      code,
      `TLS handshake with ${upstream} failed: ${code ?? 'TLS error'} (${detail})`,
      {
        cause: error,
      },
    );
  }
  const what =
    code === 'ECONNRESET' ? 'the connection was reset or closed' : `the connection failed (${code ?? error.message})`;
  return new TlsProbeError(
    'UNREACHABLE',
    upstream,
    'handshake',
    code,
    `TLS handshake with ${upstream} failed: ${what} before the handshake completed`,
    {
      cause: error,
    },
  );
}

/**
 * Connects, calls `assertRemote`, then runs one TLS handshake and closes.
 * Errors: TlsProbeError with kind TIMEOUT (phase tcp or handshake), REFUSED,
 * UNREACHABLE (reset, closed, unreachable network), TLS (alerts and other OpenSSL
 * failures, code kept in `reason` and the message), ABORTED. Whatever
 * `assertRemote` throws is passed on unchanged.
 */
export async function tlsHandshake(opts: TlsHandshakeOptions): Promise<TlsHandshakeResult> {
  const upstream = formatUpstream(opts.ip, opts.port);
  const start = performance.now();
  const { socket, remoteAddress, tcpMs, swallowLateError } = await connectChecked(opts, upstream);
  return runHandshake(opts, socket, { upstream, start, tcpMs, remoteAddress, swallowLateError });
}

/**
 * A TLS handshake over a TCP connection another probe opened, checked and already talked on (SMTP
 * STARTTLS, RFC 3207): the same handshake, verdicts and errors as `tlsHandshake`, bounded by
 * `handshakeTimeoutMs` (default `timeoutMs`). The socket is the handshake's from here on: it is
 * destroyed when the handshake ends, whatever the outcome. `startedAt` (performance.now() of the
 * TCP connect's start) and `tcpMs` are the caller's, for the timings.
 */
export function tlsHandshakeOverSocket(
  opts: TlsHandshakeOptions,
  socket: net.Socket,
  timing: { startedAt: number; tcpMs: number },
): Promise<TlsHandshakeResult> {
  const upstream = formatUpstream(opts.ip, opts.port);
  const swallowLateError = (): void => {};
  socket.on('error', swallowLateError);
  const remoteAddress = socket.remoteAddress ?? opts.ip;
  return runHandshake(opts, socket, {
    upstream,
    start: timing.startedAt,
    tcpMs: timing.tcpMs,
    remoteAddress,
    swallowLateError,
  });
}

function runHandshake(
  opts: TlsHandshakeOptions,
  socket: net.Socket,
  context: { upstream: string; start: number; tcpMs: number; remoteAddress: string; swallowLateError: () => void },
): Promise<TlsHandshakeResult> {
  const { upstream, start, tcpMs, remoteAddress } = context;
  const sni = opts.servername !== null && net.isIP(opts.servername) === 0 ? opts.servername : null;
  const ciphers = opts.ciphers ?? legacyAwareCiphers(opts.minVersion);
  const connectedAt = performance.now();
  return handshakeOver(
    socket,
    {
      ...(sni !== null ? { servername: sni } : {}),
      ...(opts.minVersion ? { minVersion: opts.minVersion } : {}),
      ...(opts.maxVersion ? { maxVersion: opts.maxVersion } : {}),
      ...(ciphers ? { ciphers } : {}),
      ...(opts.ecdhCurve ? { ecdhCurve: opts.ecdhCurve } : {}),
      ...(opts.alpn ? { ALPNProtocols: [...opts.alpn] } : {}),
      ...(opts.ca !== undefined ? { ca: opts.ca as string | Buffer | (string | Buffer)[] } : {}),
      // Chain and name are judged apart (src/checks/tls-http/shared/certificate.ts), so the
      // handshake must neither fail on an untrusted chain nor on a name mismatch.
      rejectUnauthorized: false,
      checkServerIdentity: () => undefined,
    },
    {
      upstream,
      timeoutMs: opts.handshakeTimeoutMs ?? opts.timeoutMs,
      signal: opts.signal,
      rawErrorListener: context.swallowLateError,
    },
  ).then((tlsSocket) => {
    // The handshake's facts are read before the sockets close.
    const release = (): void => {
      tlsSocket.destroy();
      socket.destroy();
      socket.off('error', context.swallowLateError);
    };
    try {
      const peerChain = summarizePeerChain(tlsSocket.getPeerCertificate(true));
      const leaf = peerChain[0];
      if (leaf === undefined) {
        throw new TlsProbeError(
          'TLS',
          upstream,
          'handshake',
          'NO_PEER_CERTIFICATE',
          `${upstream} completed the TLS handshake without a certificate`,
        );
      }
      const alpn = tlsSocket.alpnProtocol;
      return {
        protocol: tlsSocket.getProtocol() ?? 'unknown',
        cipher: tlsSocket.getCipher().name,
        alpn: typeof alpn === 'string' && alpn !== '' ? alpn : null,
        authorized: tlsSocket.authorized,
        authorizationError: authorizationCode(tlsSocket),
        peerChain,
        leafDer: leaf.der,
        tcpMs,
        tlsMs: elapsedSince(connectedAt),
        totalMs: elapsedSince(start),
        remoteAddress,
        sniSent: sni !== null,
        cipherStandardName: tlsSocket.getCipher().standardName,
        ephemeralKey: ephemeralKeyOf(tlsSocket),
      };
    } finally {
      // `farewell`: the last words inside TLS, then close; a peer that does not close its side is cut
      // off after FAREWELL_MS
      if (opts.farewell === undefined) release();
      else {
        tlsSocket.end(opts.farewell);
        const cutOff = setTimeout(release, FAREWELL_MS);
        cutOff.unref();
        tlsSocket.once('close', () => {
          clearTimeout(cutOff);
          release();
        });
      }
    }
  });
}

/** Node gives `{}` when the key exchange had no ephemeral key (RSA key transport). */
function ephemeralKeyOf(socket: tls.TLSSocket): EphemeralKey | null {
  const info = socket.getEphemeralKeyInfo() as { type?: string; name?: string; size?: number } | null;
  if (!info || info.type === undefined || info.size === undefined) return null;
  return { type: info.type, name: info.name ?? null, size: info.size };
}

/**
 * One TLS handshake over a connected socket, bounded by `timeoutMs` and `signal`: the TLS socket once
 * it is secure — still open, the caller's from here on (an error listener that ignores is left on it,
 * so a late error cannot go unhandled) — or a TlsProbeError, with both sockets destroyed.
 */
function handshakeOver(
  socket: net.Socket,
  options: tls.ConnectionOptions,
  bounds: { upstream: string; timeoutMs: number; signal: AbortSignal | undefined; rawErrorListener?: () => void },
): Promise<tls.TLSSocket> {
  const { upstream, timeoutMs, signal } = bounds;
  return new Promise((resolve, reject) => {
    let tlsSocket: tls.TLSSocket;
    try {
      tlsSocket = tls.connect({ ...options, secureContext: clientSecureContext(options), socket });
    } catch (error) {
      // e.g. an unreadable `ca` or cipher list: a caller's mistake, but the socket must not leak
      socket.destroy();
      if (bounds.rawErrorListener) socket.off('error', bounds.rawErrorListener);
      reject(error);
      return;
    }
    let settled = false;
    const settle = (outcome: () => void, failed: boolean): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      tlsSocket.off('secureConnect', onSecure);
      tlsSocket.off('error', onError);
      tlsSocket.off('close', onClose);
      tlsSocket.on('error', ignoreLateError);
      if (failed) {
        tlsSocket.destroy();
        socket.destroy();
        if (bounds.rawErrorListener) socket.off('error', bounds.rawErrorListener);
      }
      outcome();
    };
    const fail = (error: unknown): void => settle(() => reject(error), true);
    const onSecure = (): void => settle(() => resolve(tlsSocket), false);
    const onError = (error: Error): void => fail(handshakeFailure(upstream, error));
    const onClose = (): void =>
      fail(
        new TlsProbeError(
          'UNREACHABLE',
          upstream,
          'handshake',
          'ECONNRESET',
          `TLS handshake with ${upstream} failed: the connection closed before the handshake completed`,
        ),
      );
    const onAbort = (): void =>
      fail(new TlsProbeError('ABORTED', upstream, 'handshake', null, abortedError(upstream).message));
    const timer = setTimeout(
      () =>
        fail(
          new TlsProbeError(
            'TIMEOUT',
            upstream,
            'handshake',
            null,
            `TLS handshake with ${upstream} timed out after ${Math.round(timeoutMs)} ms`,
          ),
        ),
      timeoutMs,
    );
    tlsSocket.once('secureConnect', onSecure);
    tlsSocket.on('error', onError);
    tlsSocket.once('close', onClose);
    if (signal?.aborted) onAbort();
    else signal?.addEventListener('abort', onAbort, { once: true });
  });
}

const ignoreLateError = (): void => {};

export interface SecureSocketOptions {
  /** the address the socket is connected to: the certificate is checked against it when there is no servername */
  readonly ip: string;
  readonly port: number;
  /** SNI and the name the certificate must be valid for; null for an IP literal (RFC 6066 §3: no SNI) */
  readonly servername: string | null;
  readonly alpn?: readonly string[];
  readonly ca?: string | Buffer | readonly (string | Buffer)[];
  readonly handshakeTimeoutMs: number;
  readonly signal?: AbortSignal;
}

export interface SecuredSocket {
  /** open: the caller talks through it and closes it */
  readonly socket: tls.TLSSocket;
  readonly protocol: string | null;
  readonly cipher: string | null;
  readonly alpn: string | null;
  /** the chain is trusted and the certificate is valid for the name (or the IP literal), as Node judges it */
  readonly authorized: boolean;
  readonly authorizationError: string | null;
}

/**
 * A TLS session to talk through (the HTTP fetcher's connections): the same handshake as the probe's,
 * over a socket the caller connected and checked, but with Node's own name check folded into
 * `authorized`, and the socket handed over open. Never rejects a certificate by itself.
 */
export async function secureSocket(socket: net.Socket, opts: SecureSocketOptions): Promise<SecuredSocket> {
  const secured = await handshakeOver(
    socket,
    {
      // With no servername Node checks the certificate against `host`, the IP literal.
      host: opts.ip,
      ...(opts.servername !== null ? { servername: opts.servername } : {}),
      ...(opts.alpn ? { ALPNProtocols: [...opts.alpn] } : {}),
      ...(opts.ca !== undefined ? { ca: opts.ca as string | Buffer | (string | Buffer)[] } : {}),
      rejectUnauthorized: false,
    },
    { upstream: formatUpstream(opts.ip, opts.port), timeoutMs: opts.handshakeTimeoutMs, signal: opts.signal },
  );
  return {
    socket: secured,
    protocol: secured.getProtocol(),
    cipher: secured.getCipher()?.name ?? null,
    alpn: typeof secured.alpnProtocol === 'string' ? secured.alpnProtocol : null,
    authorized: secured.authorized,
    authorizationError: authorizationCode(secured),
  };
}

/** How long a peer gets to close after the farewell before the socket is destroyed. */
const FAREWELL_MS = 1000;

const TLS_RECORD_HANDSHAKE = 0x16; // RFC 8446 §5.1 ContentType.handshake

/**
 * Whether this side can offer `version` at all under OpenSSL's policy (security
 * level, configuration): a client pinned to that version writes a ClientHello
 * into an in-memory stream, or fails at once with "no protocols available" (then
 * it writes an alert, or nothing). No packet leaves the process.
 */
export async function clientCanOffer(
  version: TlsProtocolVersion,
  ciphers = legacyAwareCiphers(version),
  boundMs = 2000,
): Promise<boolean> {
  const hello = await capturedClientHello(
    { minVersion: version, maxVersion: version, ...(ciphers ? { ciphers } : {}) },
    boundMs,
  );
  return hello?.[0] === TLS_RECORD_HANDSHAKE;
}

let localSupport: Promise<Record<TlsProtocolVersion, boolean>> | undefined;

/**
 * Which versions this side can offer (decisions §5: a version it cannot offer is
 * `unable-to-test`). Decided once per process; the policy does not change at run time.
 */
export function localTlsSupport(): Promise<Record<TlsProtocolVersion, boolean>> {
  localSupport ??= Promise.all(TLS_PROTOCOL_VERSIONS.map((v) => clientCanOffer(v))).then(
    (offered) =>
      Object.fromEntries(TLS_PROTOCOL_VERSIONS.map((v, i) => [v, offered[i] === true])) as Record<
        TlsProtocolVersion,
        boolean
      >,
  );
  return localSupport;
}
