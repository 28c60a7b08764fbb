/**
 * Per-version verdicts of tls-configuration `protocols` (decisions §4, §5), from
 * the outcome of one handshake pinned to each version (minVersion = maxVersion).
 */

/** api-v1.md order: newest first. */
export const TLS_PROTOCOL_VERSIONS = ['TLSv1.3', 'TLSv1.2', 'TLSv1.1', 'TLSv1'] as const;
export type TlsProtocolVersion = (typeof TLS_PROTOCOL_VERSIONS)[number];

export type ProtocolResult = 'supported' | 'not-supported' | 'unable-to-test';

export interface ProtocolVerdict {
  version: TlsProtocolVersion;
  result: ProtocolResult;
}

/**
 * Failure reasons that are a clean "no" from the server for the version offered.
 * The reason is the OpenSSL/Node error code the TLS probe keeps on its error.
 */
const SERVER_REFUSALS: ReadonlySet<string> = new Set([
  // The server answered our ClientHello with a protocol_version alert (RFC 8446 §6.2,
  // alert 70): it does not speak the version we offered.
  'ERR_SSL_TLSV1_ALERT_PROTOCOL_VERSION',
  // handshake_failure (alert 40): the server found nothing it accepts in what we
  // offered for this version (e.g. no cipher suite in common for TLS 1.0).
  'ERR_SSL_SSLV3_ALERT_HANDSHAKE_FAILURE',
  // The same alert as OpenSSL 3.5 (Node 24) names it: "ssl/tls alert" replaced "sslv3 alert".
  'ERR_SSL_SSL/TLS_ALERT_HANDSHAKE_FAILURE',
  // The server answered with a version we did not offer (our side then sends
  // protocol_version): it chose another version, so it does not do this one.
  'ERR_SSL_UNSUPPORTED_PROTOCOL',
]);

/**
 * Everything else is ambiguous and yields `unable-to-test`: a reset or close, a
 * time-out, an internal_error alert, a non-TLS answer (ERR_SSL_WRONG_VERSION_NUMBER),
 * and failures of this side's own policy (ERR_SSL_NO_PROTOCOLS_AVAILABLE,
 * ERR_SSL_LEGACY_SIGALG_DISALLOWED_OR_UNSUPPORTED), which say nothing about the server.
 */
function failureReason(error: unknown): string | null {
  if (typeof error !== 'object' || error === null) return null;
  const reason = (error as { reason?: unknown }).reason;
  return typeof reason === 'string' ? reason : null;
}

/**
 * @param locallyOffered whether this side can offer `version` at all (localTlsSupport)
 * @param outcome the settled handshake pinned to `version`; null when it was not attempted
 */
export function protocolVerdict(
  version: TlsProtocolVersion,
  locallyOffered: boolean,
  outcome: PromiseSettledResult<{ protocol: string }> | null,
): ProtocolResult {
  if (!locallyOffered || outcome === null) return 'unable-to-test';
  if (outcome.status === 'fulfilled') {
    // A handshake pinned to one version cannot legitimately negotiate another.
    return outcome.value.protocol === version ? 'supported' : 'unable-to-test';
  }
  const reason = failureReason(outcome.reason);
  return reason !== null && SERVER_REFUSALS.has(reason) ? 'not-supported' : 'unable-to-test';
}

/** All four verdicts in api-v1.md order. A version missing from `outcomes` was not attempted. */
export function protocolVerdicts(
  localSupport: Readonly<Record<TlsProtocolVersion, boolean>>,
  outcomes: Partial<Record<TlsProtocolVersion, PromiseSettledResult<{ protocol: string }>>>,
): ProtocolVerdict[] {
  return TLS_PROTOCOL_VERSIONS.map((version) => ({
    version,
    result: protocolVerdict(version, localSupport[version], outcomes[version] ?? null),
  }));
}
