/**
 * Assembles the tls-configuration `data` (api-v1.md) from handshakes that the
 * caller ran (in parallel) and passes in settled form. Nothing here awaits or
 * touches the network. Problems of a family or of the connection are findings
 * inside a successful result (api-v1.md Errors 6–7), never thrown.
 */
import { sha256Fingerprint } from '../../../probes/tls/chain.js';
import { hostnameVerdict, tlsCertificateBlock, type TlsCertificateBlock } from '../shared/certificate.js';
import type { ProtocolVerdict } from '../../../probes/tls/protocols.js';
import type { HandshakeFacts } from '../../../probes/tls/prober.js';

export interface FamilyProbe {
  readonly family: 4 | 6;
  readonly ip: string;
  readonly outcome: PromiseSettledResult<HandshakeFacts>;
}

export interface TlsFamilyEntry {
  family: 4 | 6;
  ip: string;
  /** `ok` when the handshake completed, `error` otherwise (then the fields below are null and `error` says why) */
  status: 'ok' | 'error';
  version: string | null;
  cipher: string | null;
  alpn: string | null;
  certFingerprint: string | null;
  totalMs: number | null;
  error: string | null;
}

export interface TlsNegotiated {
  version: string;
  cipher: string;
  /** the ALPN protocol the server selected; null when it selected none */
  alpn: string | null;
  http2: boolean;
}

export interface TlsSni {
  sent: boolean;
  required: boolean;
}

export interface TlsTiming {
  tcpMs: number;
  tlsHandshakeMs: number;
  totalMs: number;
}

export interface TlsConfigurationData {
  domain: string;
  ip: string;
  families: TlsFamilyEntry[];
  protocols: ProtocolVerdict[];
  /** null when the main handshake failed (see connectionError); likewise certificate and timing */
  negotiated: TlsNegotiated | null;
  sni: TlsSni;
  certificate: TlsCertificateBlock | null;
  timing: TlsTiming | null;
  connectionError: string | null;
}

export interface TlsConfigurationParts {
  /** the name asked about: checked against the certificate and sent as SNI when it is not an IP literal */
  readonly domain: string;
  /** the address of the main handshake */
  readonly ip: string;
  /** the main handshake: default version range, SNI when `sniSent`, ALPN offered */
  readonly primary: PromiseSettledResult<HandshakeFacts>;
  /** whether the main handshake carried SNI (false for an IP literal: RFC 6066 §3 forbids it) */
  readonly sniSent: boolean;
  /** the same handshake without SNI; null when not attempted (always when !sniSent) */
  readonly withoutSni: PromiseSettledResult<HandshakeFacts> | null;
  /** one per address family tested, in the order to report */
  readonly families: readonly FamilyProbe[];
  readonly protocols: readonly ProtocolVerdict[];
  readonly now: Date;
}

/** The message of a rejection, for the result's error fields. */
export function failureMessage(reason: unknown): string {
  if (reason instanceof Error) return reason.message;
  return String(reason);
}

export function familyEntry(probe: FamilyProbe): TlsFamilyEntry {
  const { family, ip, outcome } = probe;
  if (outcome.status === 'rejected') {
    return {
      family,
      ip,
      status: 'error',
      version: null,
      cipher: null,
      alpn: null,
      certFingerprint: null,
      totalMs: null,
      error: failureMessage(outcome.reason),
    };
  }
  const h = outcome.value;
  return {
    family,
    ip,
    status: 'ok',
    version: h.protocol,
    cipher: h.cipher,
    alpn: h.alpn,
    certFingerprint: sha256Fingerprint(h.leafDer),
    totalMs: h.totalMs,
    error: null,
  };
}

/**
 * decisions §5: SNI is required when a handshake without it fails or presents a
 * certificate that does not match the name. Only judged when the handshake with
 * SNI succeeded: if both fail, the failure says nothing about SNI.
 */
export function sniRequired(
  domain: string,
  primary: PromiseSettledResult<HandshakeFacts>,
  withoutSni: PromiseSettledResult<HandshakeFacts> | null,
): boolean {
  if (primary.status !== 'fulfilled' || withoutSni === null) return false;
  if (withoutSni.status === 'rejected') return true;
  const leaf = withoutSni.value.peerChain[0];
  return leaf === undefined || !hostnameVerdict(domain, leaf).match;
}

export function tlsConfigurationData(parts: TlsConfigurationParts): TlsConfigurationData {
  const { domain, ip, primary, now } = parts;
  const sni: TlsSni = {
    sent: parts.sniSent,
    required: parts.sniSent && sniRequired(domain, primary, parts.withoutSni),
  };
  const families = parts.families.map(familyEntry);
  const protocols = parts.protocols.map((p) => ({ ...p }));
  if (primary.status === 'rejected') {
    return {
      domain,
      ip,
      families,
      protocols,
      negotiated: null,
      sni,
      certificate: null,
      timing: null,
      connectionError: failureMessage(primary.reason),
    };
  }
  const h = primary.value;
  return {
    domain,
    ip,
    families,
    protocols,
    negotiated: { version: h.protocol, cipher: h.cipher, alpn: h.alpn, http2: h.alpn === 'h2' },
    sni,
    certificate: tlsCertificateBlock(domain, h, now),
    timing: { tcpMs: h.tcpMs, tlsHandshakeMs: h.tlsMs, totalMs: h.totalMs },
    connectionError: null,
  };
}
