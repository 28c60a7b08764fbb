/**
 * tls-configuration: its object types; the check is ./check.ts.
 */
import type { TlsFamilyEntry, TlsNegotiated, TlsSni, TlsTiming } from './configuration.js';
import type { ProtocolVerdict } from '../../../probes/tls/protocols.js';
import type { TlsConfigurationResult } from './run.js';
import { builder } from '../../../graphql/builder.js';
import { TlsCertificate } from '../shared/tls-types.js';

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
