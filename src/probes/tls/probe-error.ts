/** The error of every TLS probe (the handshake, the hand-built ClientHello), with the phase it failed in. */
import { ProbeError, type ProbeErrorKind } from '../errors.js';

export type TlsProbePhase = 'tcp' | 'handshake';

/**
 * A TLS probe failure. `reason` keeps the machine-readable cause: the OpenSSL
 * code for TLS failures ("ERR_SSL_TLSV1_ALERT_PROTOCOL_VERSION"), the errno code
 * for socket failures ("ECONNRESET"), null for our own time-outs.
 */
export class TlsProbeError extends ProbeError {
  readonly phase: TlsProbePhase;
  readonly reason: string | null;
  constructor(
    kind: ProbeErrorKind,
    upstream: string,
    phase: TlsProbePhase,
    reason: string | null,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(kind, upstream, message, options);
    this.phase = phase;
    this.reason = reason;
  }
}
