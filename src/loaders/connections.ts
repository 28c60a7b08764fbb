/**
 * Per-request loaders of the connection probes (decisions §9): within one request each
 * distinct TLS handshake — (address, port, SNI, version range, ALPN) — and each TCP port
 * test — (address, port) — runs once, so a GraphQL operation that selects several TLS
 * checks, and the composite website-health-check, reuse the answers. These are live
 * measurements: nothing is kept beyond the request.
 *
 * Every question names an address the target guard has already returned; after the
 * TCP connect the probe re-checks the socket's remote address with the guard
 * (decisions §7) before it sends a byte (TLS) or gives a verdict (TCP). Each distinct
 * question spends one connection of the request's budget (connection-budget.ts).
 */
import { unobserved, type ObserveUpstream } from '../platform/metrics.js';
import { createRequestLoader, type RequestLoader } from './request-loader.js';
import type { SecureVersion } from 'node:tls';
import { probeTcpPort, type TcpPortProbeResult } from '../probes/tcp/connect.js';
import { tlsHandshake, type TlsHandshakeResult } from '../probes/tls/prober.js';
import type { ConnectionSettings } from '../probes/tls/settings.js';
import type { ClientHelloSpec } from '../probes/tls/client-hello.js';
import { probeServerHello, type HelloProbeResult } from '../probes/tls/hello-probe.js';
import { trustAnchors, verifyChain, type ChainVerdict } from '../probes/tls/chain-verify.js';
import type { ConnectionBudget } from './connection-budget.js';

export interface TlsQuestion {
  /** an address the target guard returned */
  readonly ip: string;
  readonly port: number;
  /** SNI to send; null sends none */
  readonly servername: string | null;
  /** default: Node's range (TLS 1.2 to 1.3) */
  readonly minVersion?: SecureVersion;
  readonly maxVersion?: SecureVersion;
  /** ALPN protocols to offer, in order; none when absent */
  readonly alpn?: readonly string[];
  /** OpenSSL cipher list (tls-rating offers one suite at a time); default the prober's */
  readonly ciphers?: string;
  /** key-exchange groups to offer, OpenSSL names joined by ":"; default Node's */
  readonly groups?: string;
  /** the target as the caller named it, for a refusal message; not part of the question */
  readonly target: string;
}

/** A hand-built ClientHello whose ServerHello is read and the connection closed (src/probes/tls/hello-probe.ts). */
export interface TlsHelloQuestion {
  /** an address the target guard returned */
  readonly ip: string;
  readonly port: number;
  readonly hello: ClientHelloSpec;
  /** the target as the caller named it, for a refusal message; not part of the question */
  readonly target: string;
}

export interface TcpQuestion {
  /** an address the target guard returned */
  readonly ip: string;
  readonly port: number;
  /** the target as the caller named it, for a refusal message; not part of the question */
  readonly target: string;
}

export interface ConnectionLoaders {
  /** one TLS handshake (see TlsQuestion); rejects with TlsProbeError, or the guard's TargetRefusedError */
  tlsHandshake(question: TlsQuestion): Promise<TlsHandshakeResult>;
  /** one TCP connection attempt (port-checker); rejects with ProbeError, or the guard's TargetRefusedError */
  tcpProbe(question: TcpQuestion): Promise<TcpPortProbeResult>;
  /** one hand-built ClientHello (tls-rating); rejects with TlsProbeError, or the guard's TargetRefusedError */
  tlsHello(question: TlsHelloQuestion): Promise<HelloProbeResult>;
  /** whether a chain (leaf first, DER) reaches one of the service's trust anchors now (no I/O) */
  verifyChain(chain: readonly Buffer[], now: Date): ChainVerdict;
}

/** The identity of a handshake: everything that can change what the server answers. */
export function tlsQuestionKey(q: TlsQuestion): string {
  return [
    q.ip,
    q.port,
    q.servername ?? '',
    q.minVersion ?? '',
    q.maxVersion ?? '',
    (q.alpn ?? []).join(','),
    q.ciphers ?? '',
    q.groups ?? '',
  ].join('|');
}

export function tlsHelloQuestionKey(q: TlsHelloQuestion): string {
  const { version, cipherSuites, servername, groups } = q.hello;
  return [q.ip, q.port, version, cipherSuites.join(','), servername ?? '', (groups ?? []).join(',')].join('|');
}

export function tcpQuestionKey(q: TcpQuestion): string {
  return `${q.ip}|${q.port}`;
}

/** No batching (each question is its own connection), only de-duplication; failures are kept per question. */
function connectionLoader<Q, R>(run: (q: Q) => Promise<R>, key: (q: Q) => string): RequestLoader<Q, R> {
  return createRequestLoader(run, key);
}

export function createConnectionLoaders(
  settings: ConnectionSettings,
  assertAllowed: (address: string, targetForMessage: string) => void,
  signal: AbortSignal,
  /** the request's connections to targets (connection-budget.ts): each distinct question spends one */
  budget: Pick<ConnectionBudget, 'spend'>,
  /** metrics: each distinct handshake or port test is observed once, where the loader runs it */
  observe: ObserveUpstream = unobserved,
): ConnectionLoaders {
  /** the question's connection is spent before it waits for its outbound slot: a refusal costs nothing */
  const spent = <Q extends { ip: string; port: number }, R>(what: string, run: (q: Q) => Promise<R>) => {
    return async (q: Q): Promise<R> => {
      budget.spend(`${what} with ${q.ip} port ${q.port}`);
      return run(q);
    };
  };
  const handshakes = connectionLoader<TlsQuestion, TlsHandshakeResult>(
    spent('a TLS handshake', (q) =>
      observe('tls', () =>
        tlsHandshake({
          ip: q.ip,
          port: q.port,
          servername: q.servername,
          ...(q.minVersion ? { minVersion: q.minVersion } : {}),
          ...(q.maxVersion ? { maxVersion: q.maxVersion } : {}),
          ...(q.alpn ? { alpn: q.alpn } : {}),
          ...(q.ciphers ? { ciphers: q.ciphers } : {}),
          ...(q.groups ? { ecdhCurve: q.groups } : {}),
          timeoutMs: settings.connectTimeoutMs,
          handshakeTimeoutMs: settings.handshakeTimeoutMs,
          signal,
          ...(settings.tlsCa !== undefined ? { ca: settings.tlsCa } : {}),
          assertRemote: (remoteAddress) => assertAllowed(remoteAddress, q.target),
        }),
      ),
    ),
    tlsQuestionKey,
  );
  const ports = connectionLoader<TcpQuestion, TcpPortProbeResult>(
    spent('a TCP connection', (q) =>
      // open, closed and filtered are all answers (port-checker results), told apart by outcome
      observe(
        'tcp',
        () =>
          probeTcpPort({
            ip: q.ip,
            port: q.port,
            timeoutMs: settings.connectTimeoutMs,
            signal,
            assertRemote: (remoteAddress) => assertAllowed(remoteAddress, q.target),
          }),
        (r) => r.state,
      ),
    ),
    tcpQuestionKey,
  );
  const hellos = connectionLoader<TlsHelloQuestion, HelloProbeResult>(
    spent('a ClientHello', (q) =>
      observe('tls', () =>
        probeServerHello({
          ip: q.ip,
          port: q.port,
          hello: q.hello,
          timeoutMs: settings.connectTimeoutMs,
          handshakeTimeoutMs: settings.handshakeTimeoutMs,
          signal,
          assertRemote: (remoteAddress) => assertAllowed(remoteAddress, q.target),
        }),
      ),
    ),
    tlsHelloQuestionKey,
  );
  return {
    tlsHandshake: (question) => handshakes.load(question),
    tcpProbe: (question) => ports.load(question),
    tlsHello: (question) => hellos.load(question),
    verifyChain: (chain, now) => verifyChain(chain, trustAnchors(settings.tlsCa), now),
  };
}
