/** smtp-starttls: object types and the query field (mail-transport.md). */
import { SMTP_PORT, runSmtpStarttls } from '../../checks/mail/starttls-run.js';
import type { SmtpStarttlsResult, StarttlsCertificate, StarttlsTls } from '../../checks/mail/starttls.js';
import { parseHostOrIp, parsePort } from '../../validation.js';
import { builder } from '../builder.js';
import { defineCheck } from '../checks.js';

/** An optional GraphQL Int port under the REST `port` rules, with the same messages; null gives `fallback`. */
export function optionalPortArgument(parameter: string, value: number | null | undefined, fallback: number): number {
  return value == null ? fallback : parsePort(parameter, String(value));
}

const StarttlsCertificateRef = builder.objectRef<StarttlsCertificate>('StarttlsCertificate').implement({
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

const StarttlsTlsRef = builder.objectRef<StarttlsTls>('StarttlsTls').implement({
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

builder.queryField('smtpStarttls', (t) =>
  t.field({
    nullable: true,
    type: SmtpStarttls,
    description:
      'Whether a mail server offers STARTTLS and with what certificate (REST: smtp-starttls). Connects to the first address of the host (port 25 unless told otherwise), reads the greeting, sends EHLO and STARTTLS, completes a TLS handshake with SNI = host, and closes: no mail is sent. Every outcome is a result (status); private and internal addresses are refused.',
    args: {
      host: t.arg.string({ required: true, description: 'MX host name or IP address.' }),
      port: t.arg.int({ description: 'TCP port, 1–65535; default 25 (587 for submission).' }),
    },
    resolve: defineCheck({
      field: 'smtpStarttls',
      tool: 'smtp-starttls',
      parse: (args: { host: string; port?: number | null }) => ({
        host: parseHostOrIp('host', args.host),
        port: optionalPortArgument('port', args.port, SMTP_PORT),
      }),
      run: (input, checks) => runSmtpStarttls(checks, input),
    }),
  }),
);
