/** smtp-starttls: its object types (mail-transport.md); the check is ./check.ts. */
import type { SmtpStarttlsResult, StarttlsCertificate, StarttlsTls } from './starttls.js';
import { parsePort } from '../../../validation.js';
import { builder } from '../../../graphql/builder.js';

/** An optional GraphQL Int port under the REST `port` rules, with the same messages; null gives `fallback`. */
export function optionalPortArgument(parameter: string, value: number | null | undefined, fallback: number): number {
  return value == null ? fallback : parsePort(parameter, String(value));
}

export const StarttlsCertificateRef = builder.objectRef<StarttlsCertificate>('StarttlsCertificate').implement({
  description: 'The certificate the MX presented after STARTTLS, judged for the host name as ssl-checker judges one.',
  fields: (t) => ({
    subject: t.exposeString('subject', { nullable: true, description: "The leaf's CN, or its O when it has no CN." }),
    issuer: t.exposeString('issuer', { nullable: true }),
    validTo: t.exposeString('validTo', { description: 'notAfter, ISO 8601 UTC.' }),
    daysRemaining: t.exposeInt('daysRemaining'),
    status: t.exposeString('status', {
      description:
        'As ssl-checker: "valid", "expired", "not-yet-valid", "hostname-mismatch" (not issued for the host; for an IP literal, no matching IP SAN) or "untrusted".',
    }),
  }),
});

export const StarttlsTlsRef = builder.objectRef<StarttlsTls>('StarttlsTls').implement({
  description: 'The TLS session STARTTLS led to.',
  fields: (t) => ({
    version: t.exposeString('version', { description: 'e.g. "TLSv1.3".' }),
    cipher: t.exposeString('cipher', { description: 'OpenSSL name of the negotiated cipher suite.' }),
    certificate: t.field({ type: StarttlsCertificateRef, resolve: (r) => r.certificate }),
  }),
});

export const SmtpStarttls = builder.objectRef<SmtpStarttlsResult>('SmtpStarttls').implement({
  description:
    'One SMTP session with a mail server: greeting, EHLO and, when offered, STARTTLS with a TLS handshake (RFC 3207). No mail is sent.',
  fields: (t) => ({
    host: t.exposeString('host', { description: 'The host as asked (lower case, no trailing dot).' }),
    ip: t.exposeString('ip', { description: 'The address talked to: the first IPv4 address, else the first IPv6.' }),
    port: t.exposeInt('port'),
    banner: t.exposeString('banner', { description: 'The text of the 220 greeting; "" when none came.' }),
    ehlo: t.exposeStringList('ehlo', {
      description: 'The extension lines of the EHLO reply before STARTTLS, as sent (e.g. "STARTTLS", "SIZE 10240000").',
    }),
    starttls: t.exposeString('starttls', { description: '"offered" or "not-offered" (in the EHLO reply).' }),
    tls: t.field({
      type: StarttlsTlsRef,
      nullable: true,
      description: 'Null when no handshake completed.',
      resolve: (r) => r.tls,
    }),
    status: t.exposeString('status', {
      description:
        'The first that applies: "unreachable" (refused, no answer, not SMTP, a 421/554 greeting or EHLO refused; `error` says which), "no-starttls", "tls-failed" (STARTTLS refused or the handshake failed; `error` says why), "certificate-problem" (the handshake completed, the certificate is not valid for the host — many MTAs still deliver), "ok".',
    }),
    error: t.exposeString('error', { nullable: true, description: 'Why the status is not ok; null otherwise.' }),
    responseTimeMs: t.exposeFloat('responseTimeMs', { description: 'The whole session, connect to handshake.' }),
  }),
});
