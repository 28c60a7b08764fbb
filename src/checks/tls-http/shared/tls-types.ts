/**
 * What the TLS checks' object types share (the certificate, the chain), and the port argument of the
 * checks that take one.
 */
import type { ChainEntry, LeafIdentity, TlsCertificateBlock } from './certificate.js';
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

/**
 * The leaf's names and dates, in ssl-checker's and tls-rating's object types alike (LeafIdentity); resolved
 * rather than exposed, since exposing takes a concrete parent type.
 */
export const leafIdentityFields = <T extends LeafIdentity>(
  t: PothosSchemaTypes.ObjectFieldBuilder<typeof builder.$inferSchemaTypes, T>,
) => ({
  commonName: t.string({
    nullable: true,
    description: "The leaf's subject CN; null when it has none (CN is optional, RFC 6125).",
    resolve: (leaf) => leaf.commonName,
  }),
  subjectAlternativeNames: t.stringList({
    description: 'DNS names and IP addresses of the leaf, without prefixes.',
    resolve: (leaf) => leaf.subjectAlternativeNames,
  }),
  issuer: t.string({
    nullable: true,
    description: "The leaf issuer's CN, or its O when it has no CN.",
    resolve: (leaf) => leaf.issuer,
  }),
  validFrom: t.string({ description: 'ISO 8601 UTC with milliseconds.', resolve: (leaf) => leaf.validFrom }),
  expiryDate: t.string({ description: 'ISO 8601 UTC with milliseconds.', resolve: (leaf) => leaf.expiryDate }),
  daysRemaining: t.int({
    description: 'Whole days until expiryDate, rounded down; negative once expired.',
    resolve: (leaf) => leaf.daysRemaining,
  }),
});

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
