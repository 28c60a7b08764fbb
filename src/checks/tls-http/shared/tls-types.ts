/** ssl-checker, tls-configuration and port-checker: object types (the checks themselves are in ../definitions/). */
import type { ChainEntry, TlsCertificateBlock } from './certificate.js';
import type { TlsFamilyEntry, TlsNegotiated, TlsSni, TlsTiming } from '../tls-configuration/configuration.js';
import type { ProtocolVerdict } from '../../../probes/tls/protocols.js';
import type { PortCheckerResult, SslCheckerResult, TlsConfigurationResult } from './tls-run.js';
import { parsePort } from '../../../validation.js';
import { builder } from '../../../graphql/builder.js';

/** A GraphQL Int port under the REST `port` rules (decisions §6: 1–65535), with the same messages. */
export function portArgument(parameter: string, value: number): number {
  return parsePort(parameter, String(value));
}

/* ------------------------------------------------------------ ssl-checker */

export const SSL_STATUS_RULES =
  'One of, the first that applies: "expired" (the leaf\'s notAfter is past, or the verified chain holds an expired certificate); ' +
  '"not-yet-valid" (the leaf\'s notBefore is in the future); "hostname-mismatch" (the certificate is not issued for the domain, ' +
  'RFC 6125 rules: wildcard in the left-most label only, CN only without DNS SANs); "untrusted" (the chain does not lead to a ' +
  'root of the service\'s trust store: self-signed, missing intermediate, unknown CA); "valid" (none of these).';

export const SslChainEntry = builder.objectRef<ChainEntry>('SslChainEntry').implement({
  description:
    'One certificate of the chain, as presented (completed with the trust-store root when the chain leads to one).',
  fields: (t) => ({
    commonName: t.exposeString('commonName', {
      nullable: true,
      description: 'Subject CN; null when the certificate has none.',
    }),
    issuer: t.exposeString('issuer', { nullable: true, description: "Issuer's CN, or its O when it has no CN." }),
    validFrom: t.exposeString('validFrom', { description: 'notBefore, ISO 8601 UTC with milliseconds.' }),
    validTo: t.exposeString('validTo', { description: 'notAfter, ISO 8601 UTC with milliseconds.' }),
  }),
});

export const SslChecker = builder.objectRef<SslCheckerResult>('SslChecker').implement({
  fields: (t) => ({
    domain: t.exposeString('domain'),
    status: t.exposeString('status', { description: SSL_STATUS_RULES }),
    commonName: t.exposeString('commonName', {
      nullable: true,
      description: "The leaf's subject CN; null when it has none (CN is optional, RFC 6125).",
    }),
    subjectAlternativeNames: t.exposeStringList('subjectAlternativeNames', {
      description: 'DNS names and IP addresses of the leaf, without prefixes.',
    }),
    issuer: t.exposeString('issuer', {
      nullable: true,
      description: "The leaf issuer's CN, or its O when it has no CN.",
    }),
    validFrom: t.exposeString('validFrom', { description: 'ISO 8601 UTC with milliseconds.' }),
    expiryDate: t.exposeString('expiryDate', { description: 'ISO 8601 UTC with milliseconds.' }),
    daysRemaining: t.exposeInt('daysRemaining', {
      description: 'Whole days until expiryDate, rounded down; negative once expired.',
    }),
    signatureAlgorithm: t.exposeString('signatureAlgorithm', {
      description: 'The algorithm the issuer signed the leaf with, e.g. "sha256WithRSAEncryption".',
    }),
    chain: t.field({ type: [SslChainEntry], description: 'Leaf first.', resolve: (r) => r.chain }),
    ip: t.exposeString('ip', {
      description: 'The address connected to: the first IPv4 address of the domain, else its first IPv6 address.',
    }),
    port: t.exposeInt('port', {
      description: 'The port connected to (443 unless the GraphQL port argument says otherwise).',
    }),
  }),
});
/* ------------------------------------------------------ tls-configuration */

export const TlsFamilyStatus = builder.enumType('TlsFamilyStatus', {
  description: "ok: the handshake over this family completed; error: it did not (the entry's error says why).",
  values: ['ok', 'error'] as const,
});

export const TlsFamily = builder.objectRef<TlsFamilyEntry>('TlsFamily').implement({
  description:
    'The main handshake over one IP family (the first address of that family). The other fields are null when status is error.',
  fields: (t) => ({
    family: t.exposeInt('family', { description: '4 or 6.' }),
    ip: t.exposeString('ip'),
    status: t.field({ type: TlsFamilyStatus, resolve: (f) => f.status }),
    version: t.exposeString('version', { nullable: true }),
    cipher: t.exposeString('cipher', { nullable: true, description: 'OpenSSL name of the cipher suite.' }),
    alpn: t.exposeString('alpn', { nullable: true, description: 'ALPN protocol the server selected; null when none.' }),
    certFingerprint: t.exposeString('certFingerprint', {
      nullable: true,
      description: "SHA-256 of the leaf's DER, upper-case colon-separated hex.",
    }),
    totalMs: t.exposeFloat('totalMs', {
      nullable: true,
      description: 'Milliseconds from TCP connect to handshake done.',
    }),
    error: t.exposeString('error', { nullable: true }),
  }),
});

export const TlsProtocolVerdict = builder.objectRef<ProtocolVerdict>('TlsProtocolVerdict').implement({
  description: 'The outcome of a handshake pinned to one version (minimum = maximum = that version).',
  fields: (t) => ({
    version: t.exposeString('version', { description: 'TLSv1.3, TLSv1.2, TLSv1.1 or TLSv1.' }),
    result: t.exposeString('result', {
      description:
        '"supported": the pinned handshake completed with that version. "not-supported": the server refused it cleanly (protocol_version or handshake_failure alert, or it chose another version). "unable-to-test": no clean verdict — this side cannot offer the version (local TLS policy), or the attempt was reset, closed, timed out or failed otherwise.',
    }),
  }),
});

export const TlsNegotiatedRef = builder.objectRef<TlsNegotiated>('TlsNegotiated').implement({
  description: 'What the main handshake (default version range, SNI, ALPN offering h2 and http/1.1) settled on.',
  fields: (t) => ({
    version: t.exposeString('version'),
    cipher: t.exposeString('cipher', { description: 'OpenSSL name of the cipher suite.' }),
    alpn: t.exposeString('alpn', {
      nullable: true,
      description: 'ALPN protocol the server selected; null when it selected none.',
    }),
    http2: t.exposeBoolean('http2', { description: 'Whether the server selected h2.' }),
  }),
});

export const TlsSniRef = builder.objectRef<TlsSni>('TlsSni').implement({
  fields: (t) => ({
    sent: t.exposeBoolean('sent', {
      description: 'Whether the main handshake carried SNI (always, as domain is a name).',
    }),
    required: t.exposeBoolean('required', {
      description:
        'True when the same handshake without SNI fails or presents a certificate that does not match the domain. False when it succeeds with a matching certificate, and when the main handshake itself failed (nothing to compare).',
    }),
  }),
});

export const TlsCertificate = builder.objectRef<TlsCertificateBlock>('TlsCertificate').implement({
  fields: (t) => ({
    ok: t.exposeBoolean('ok', {
      description: 'True exactly when ssl-checker would say "valid": in its dates, issued for the domain, trusted.',
    }),
    subject: t.exposeString('subject', { nullable: true, description: "The leaf's CN, or its O when it has no CN." }),
    issuer: t.exposeString('issuer', { nullable: true }),
    validFrom: t.exposeString('validFrom', { description: 'ISO 8601 UTC with milliseconds.' }),
    expiryDate: t.exposeString('expiryDate', { description: 'ISO 8601 UTC with milliseconds.' }),
    daysRemaining: t.exposeInt('daysRemaining'),
    hostnameMatch: t.exposeBoolean('hostnameMatch'),
    hostnameMismatchReason: t.exposeString('hostnameMismatchReason', { nullable: true }),
    chainLength: t.exposeInt('chainLength', {
      description: 'Certificates sent by the server plus the trust-store root the chain was completed with.',
    }),
    trusted: t.exposeBoolean('trusted', {
      description: 'Whether the chain leads to a root of the trust store (the name is not part of this).',
    }),
    trustError: t.exposeString('trustError', {
      nullable: true,
      description: 'OpenSSL verify code, e.g. CERT_HAS_EXPIRED, UNABLE_TO_GET_ISSUER_CERT_LOCALLY.',
    }),
  }),
});

export const TlsTimingRef = builder.objectRef<TlsTiming>('TlsTiming').implement({
  description: 'Of the main handshake, in milliseconds.',
  fields: (t) => ({
    tcpMs: t.exposeFloat('tcpMs', { description: 'TCP connect.' }),
    tlsHandshakeMs: t.exposeFloat('tlsHandshakeMs', { description: 'From TCP connected to handshake done.' }),
    totalMs: t.exposeFloat('totalMs'),
  }),
});

export const TlsConfiguration = builder.objectRef<TlsConfigurationResult>('TlsConfiguration').implement({
  fields: (t) => ({
    domain: t.exposeString('domain', { description: 'The hostname (a URL is reduced to its host).' }),
    ip: t.exposeString('ip', {
      description: 'Address of the main handshake: the first IPv4 address, else the first IPv6 address.',
    }),
    port: t.exposeInt('port'),
    families: t.field({
      type: [TlsFamily],
      description: 'One entry per IP family the domain has addresses in, IPv4 first.',
      resolve: (r) => r.families,
    }),
    protocols: t.field({
      type: [TlsProtocolVerdict],
      description: 'All four versions, newest first.',
      resolve: (r) => r.protocols,
    }),
    negotiated: t.field({
      type: TlsNegotiatedRef,
      nullable: true,
      description: 'Null when the main handshake failed (see connectionError).',
      resolve: (r) => r.negotiated,
    }),
    sni: t.field({ type: TlsSniRef, resolve: (r) => r.sni }),
    certificate: t.field({
      type: TlsCertificate,
      nullable: true,
      description: 'Null when the main handshake failed.',
      resolve: (r) => r.certificate,
    }),
    timing: t.field({
      type: TlsTimingRef,
      nullable: true,
      description: 'Null when the main handshake failed.',
      resolve: (r) => r.timing,
    }),
    connectionError: t.exposeString('connectionError', {
      nullable: true,
      description: 'Why the main handshake failed; null when it completed.',
    }),
  }),
});
/* ----------------------------------------------------------- port-checker */

export const PortStatus = builder.enumType('PortStatus', {
  description:
    'open: the TCP handshake completed (nothing is sent, the connection is closed at once). closed: the host refused it (RST). filtered: no answer within the connect bound (5 s), or an ICMP unreachable came back (a firewall in the way).',
  values: ['open', 'closed', 'filtered'] as const,
});

export const PortChecker = builder.objectRef<PortCheckerResult>('PortChecker').implement({
  fields: (t) => ({
    host: t.exposeString('host', {
      description: 'The host as checked: a lower-case hostname or a canonical IP address.',
    }),
    port: t.exposeInt('port'),
    status: t.field({ type: PortStatus, resolve: (r) => r.status }),
    responseTime: t.exposeFloat('responseTime', {
      description: 'Milliseconds until the verdict (for filtered, the time waited).',
    }),
    ip: t.exposeString('ip', {
      description: 'The address tested: the host itself, or its first IPv4 address, else its first IPv6 address.',
    }),
    reason: t.exposeString('reason', {
      nullable: true,
      description: 'Why the port counts as filtered (the time-out, or the ICMP error code); null when open or closed.',
    }),
  }),
});
