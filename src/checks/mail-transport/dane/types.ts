/** dane: its object types (mail-transport.md); the check is ./check.ts. */
import type { DaneResult, TlsaEntry } from './dane.js';
import { builder } from '../../../graphql/builder.js';

export const TlsaRecord = builder.objectRef<TlsaEntry>('TlsaRecord').implement({
  description: 'One TLSA record (RFC 6698 §2.1) and whether it matches the chain the server presented.',
  fields: (t) => ({
    usage: t.exposeInt('usage', {
      description: '0 PKIX-TA, 1 PKIX-EE, 2 DANE-TA, 3 DANE-EE; for SMTP only 2 and 3 are usable (RFC 7672 §3.1.3).',
    }),
    selector: t.exposeInt('selector', { description: '0 the full certificate, 1 its SubjectPublicKeyInfo.' }),
    matchingType: t.exposeInt('matchingType', { description: '0 exact, 1 SHA-256, 2 SHA-512.' }),
    data: t.exposeString('data', { description: 'The certificate association data, hex, lower case.' }),
    matches: t.exposeBoolean('matches', {
      description:
        'This record matches the presented chain: usages 1 and 3 against the leaf, 0 and 2 against the issuers. False when no chain was obtained.',
    }),
  }),
});

export const Dane = builder.objectRef<DaneResult>('Dane').implement({
  description:
    'DANE for a mail server (RFC 6698, RFC 7672): its TLSA records, their DNSSEC state, and whether they match.',
  fields: (t) => ({
    host: t.exposeString('host'),
    port: t.exposeInt('port'),
    name: t.exposeString('name', { description: 'The TLSA owner name asked: _<port>._tcp.<host>.' }),
    tlsa: t.field({ type: [TlsaRecord], resolve: (r) => r.tlsa }),
    dnssec: t.exposeString('dnssec', {
      description:
        '"secure" (the validating resolver authenticated the answer, AD), "insecure" (not authenticated), "bogus" (the records do not validate).',
    }),
    status: t.exposeString('status', {
      description:
        'The first that applies: "no-tlsa" (no TLSA record), "error" (bogus records, or no chain to match; `error` says why), "insecure" (records not authenticated: senders ignore them), "unusable" (secure, but no DANE-TA/DANE-EE record), "valid" (a usable record matches), "mismatch" (none matches: DANE-aware senders will not deliver).',
    }),
    error: t.exposeString('error', {
      nullable: true,
      description: 'Why the chain could not be obtained or the records are bogus; null otherwise.',
    }),
  }),
});
