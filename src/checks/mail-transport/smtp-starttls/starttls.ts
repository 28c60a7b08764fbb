/**
 * smtp-starttls: what one SMTP session with an MX host showed, judged (mail-transport.md). Pure: the
 * session (or why there is none) and the time in, the result out.
 *
 * status, the first that applies:
 *   unreachable          no session: refused, no answer, not SMTP, a 421/554 greeting, EHLO refused
 *   no-starttls          EHLO did not offer STARTTLS (RFC 3207 §4)
 *   tls-failed           offered, but the command was refused or the handshake failed
 *   certificate-problem  the handshake completed with a certificate ssl-checker would not call valid
 *                        (many MTAs deliver anyway: RFC 7435 opportunistic security)
 *   ok
 */
import type { ProbeError } from '../../../probes/errors.js';
import { SmtpProbeError, type SmtpSessionResult } from '../../../probes/smtp/session.js';
import { certificateDateToIso, displayName } from '../../../probes/tls/chain.js';
import { daysRemaining, hostnameVerdict, sslStatus, type SslStatus } from '../../tls-http/shared/certificate.js';

export type StarttlsStatus = 'ok' | 'certificate-problem' | 'tls-failed' | 'no-starttls' | 'unreachable';

export interface StarttlsCertificate {
  /** the leaf's CN, or its O when it has no CN */
  subject: string | null;
  issuer: string | null;
  validTo: string;
  daysRemaining: number;
  status: SslStatus;
}

export interface StarttlsTls {
  version: string;
  cipher: string;
  certificate: StarttlsCertificate;
}

export interface SmtpStarttlsResult {
  host: string;
  ip: string;
  port: number;
  /** the text of the 220 greeting; "" when none */
  banner: string;
  /** the EHLO reply's extension lines before STARTTLS, as sent */
  ehlo: string[];
  starttls: 'offered' | 'not-offered';
  tls: StarttlsTls | null;
  status: StarttlsStatus;
  error: string | null;
  responseTimeMs: number;
}

export interface StarttlsTarget {
  /** the host as asked (a name, or an IP literal) */
  host: string;
  /** the name the certificate must carry; the IP literal itself when the host is one */
  certificateName: string;
  ip: string;
  port: number;
}

/** The standard ports of SMTP relay (25): refusals there are often the network's, not the server's. */
const RELAY_PORT = 25;

/** Why there is no session, in words a user can act on (mail-transport.md: port 25 is often blocked on the way out). */
export function unreachableText(error: ProbeError, port: number): string {
  const atConnect = error instanceof SmtpProbeError && error.stage === 'connect';
  return atConnect && port === RELAY_PORT
    ? `${error.message}; outbound port 25 is blocked by many networks and cloud providers, so this may be the egress of this service rather than the mail server`
    : error.message;
}

export function starttlsUnreachable(target: StarttlsTarget, error: ProbeError, elapsedMs: number): SmtpStarttlsResult {
  return {
    host: target.host,
    ip: target.ip,
    port: target.port,
    banner: '',
    ehlo: [],
    starttls: 'not-offered',
    tls: null,
    status: 'unreachable',
    error: unreachableText(error, target.port),
    responseTimeMs: Math.round(elapsedMs * 10) / 10,
  };
}

export function starttlsResult(target: StarttlsTarget, session: SmtpSessionResult, now: Date): SmtpStarttlsResult {
  const handshake = session.starttls?.handshake ?? null;
  const tls = handshake === null ? null : tlsBlock(target.certificateName, handshake, now);
  const status: StarttlsStatus = !session.starttlsOffered
    ? 'no-starttls'
    : tls === null
      ? 'tls-failed'
      : tls.certificate.status === 'valid'
        ? 'ok'
        : 'certificate-problem';
  return {
    host: target.host,
    ip: session.remoteAddress,
    port: target.port,
    banner: session.greeting.lines.join('\n'),
    ehlo: [...session.extensions],
    starttls: session.starttlsOffered ? 'offered' : 'not-offered',
    tls,
    status,
    error: session.starttls?.error ?? null,
    responseTimeMs: session.totalMs,
  };
}

function tlsBlock(
  name: string,
  handshake: NonNullable<NonNullable<SmtpSessionResult['starttls']>['handshake']>,
  now: Date,
): StarttlsTls {
  const leaf = handshake.peerChain[0]!;
  return {
    version: handshake.protocol,
    cipher: handshake.cipher,
    certificate: {
      subject: displayName(leaf.subject),
      issuer: displayName(leaf.issuer),
      validTo: certificateDateToIso(leaf.validTo),
      daysRemaining: daysRemaining(leaf.validTo, now),
      status: sslStatus(handshake, hostnameVerdict(name, leaf), now),
    },
  };
}
