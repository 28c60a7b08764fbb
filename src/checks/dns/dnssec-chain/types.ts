/** dnssec-chain: its object types (docs/contract/dnssec-chain.md); the check is ./check.ts. */
import type {
  AnswerSignature,
  BrokenLink,
  ChainAnswer,
  ChainLink,
  DenialEntry,
  DnskeyEntry,
  DnssecChainResult,
  DsEntry,
  Finding,
  SignatureEntry,
  VerificationSummary,
} from './result.js';
import { CHAIN_ERROR_CODES, CHAIN_WARNING_CODES } from './result.js';
import { builder } from '../../../graphql/builder.js';

// Values with a hyphen ("not-yet-valid", "signed-by-trusted", …) are Strings, not enums, so that REST
// and GraphQL both carry them as the contract writes them.

export const DnssecChainStatus = builder.enumType('DnssecChainStatus', {
  description: 'RFC 4033 §5 states of a chain, a zone or an answer.',
  values: {
    secure: { description: 'Every link from the trust anchor verifies.' },
    insecure: {
      description: 'A proven unsigned delegation (or only DS records this side cannot check) ends the chain.',
    },
    bogus: { description: 'A link does not verify: `brokenLink` says which and why.' },
    indeterminate: { description: 'Data is missing or servers fail: `errors` say which.' },
  } as const,
});

export const DnssecChainErrorCode = builder.enumType('DnssecChainErrorCode', {
  description: 'The fixed list of dnssec-chain error codes (docs/contract/dnssec-chain.md).',
  values: CHAIN_ERROR_CODES,
});

export const DnssecChainWarningCode = builder.enumType('DnssecChainWarningCode', {
  description: 'The fixed list of dnssec-chain warning codes (docs/contract/dnssec-chain.md).',
  values: CHAIN_WARNING_CODES,
});

const DnssecChainError = builder.objectRef<Finding<(typeof CHAIN_ERROR_CODES)[number]>>('DnssecChainError').implement({
  fields: (t) => ({
    code: t.field({ type: DnssecChainErrorCode, resolve: (f) => f.code }),
    message: t.exposeString('message'),
  }),
});

const DnssecChainWarning = builder
  .objectRef<Finding<(typeof CHAIN_WARNING_CODES)[number]>>('DnssecChainWarning')
  .implement({
    fields: (t) => ({
      code: t.field({ type: DnssecChainWarningCode, resolve: (f) => f.code }),
      message: t.exposeString('message'),
    }),
  });

const DnssecChainDs = builder.objectRef<DsEntry>('DnssecChainDs').implement({
  fields: (t) => ({
    keyTag: t.exposeInt('keyTag'),
    algorithm: t.exposeInt('algorithm'),
    digestType: t.exposeInt('digestType'),
    digest: t.exposeString('digest', { description: 'Upper-case hex.' }),
    status: t.exposeString('status', {
      description:
        'valid (matches a DNSKEY of the zone) | no-matching-dnskey | invalid-digest (a DNSKEY with that tag and algorithm exists, the digest differs) | unsupported (digest type or algorithm this side cannot check).',
    }),
  }),
});

const DnssecChainDnskey = builder.objectRef<DnskeyEntry>('DnssecChainDnskey').implement({
  fields: (t) => ({
    keyTag: t.exposeInt('keyTag'),
    algorithm: t.exposeInt('algorithm'),
    flags: t.exposeInt('flags'),
    sep: t.exposeBoolean('sep', { description: 'Flag bit 15 (Secure Entry Point).' }),
    revoked: t.exposeBoolean('revoked', { description: 'Flag bit 8 (REVOKE, RFC 5011).' }),
    bits: t.exposeInt('bits', {
      nullable: true,
      description:
        'RSA modulus bits; the curve size for ECDSA and EdDSA (256, 384, 255, 448); null for other algorithms.',
    }),
    status: t.exposeString('status', {
      description:
        'trusted (a valid DS or anchor points at it) | signed-by-trusted (covered by a valid RRSIG of a trusted key) | unused.',
    }),
  }),
});

const SIGNATURE_STATUS =
  'valid | expired | not-yet-valid | invalid-signature | no-matching-key | unsupported-algorithm.';

const DnssecChainSignature = builder.objectRef<SignatureEntry>('DnssecChainSignature').implement({
  fields: (t) => ({
    keyTag: t.exposeInt('keyTag'),
    algorithm: t.exposeInt('algorithm'),
    inception: t.exposeString('inception', { description: 'ISO 8601 UTC.' }),
    expiration: t.exposeString('expiration', { description: 'ISO 8601 UTC.' }),
    status: t.exposeString('status', { description: SIGNATURE_STATUS }),
  }),
});

const DnssecChainAnswerSignature = builder.objectRef<AnswerSignature>('DnssecChainAnswerSignature').implement({
  fields: (t) => ({
    signer: t.exposeString('signer'),
    keyTag: t.exposeInt('keyTag'),
    algorithm: t.exposeInt('algorithm'),
    inception: t.exposeString('inception', { description: 'ISO 8601 UTC.' }),
    expiration: t.exposeString('expiration', { description: 'ISO 8601 UTC.' }),
    status: t.exposeString('status', {
      description: `${SIGNATURE_STATUS} A signature that verifies with a key of a zone that is itself bogus is still valid (the zone's status carries the verdict).`,
    }),
  }),
});

const DnssecChainLink = builder.objectRef<ChainLink>('DnssecChainLink').implement({
  description: 'One zone cut, from the root (or the anchor zone) down to the zone holding the name.',
  fields: (t) => ({
    zone: t.exposeString('zone', { description: 'The zone apex, "." for the root.' }),
    status: t.field({ type: DnssecChainStatus, resolve: (l) => l.status }),
    ds: t.field({
      type: [DnssecChainDs],
      description: "The parent's DS records for this zone; for the anchor zone, the trust anchors.",
      resolve: (l) => [...l.ds],
    }),
    dnskeys: t.field({ type: [DnssecChainDnskey], resolve: (l) => [...l.dnskeys] }),
    dnskeySignatures: t.field({
      type: [DnssecChainSignature],
      description: 'The RRSIGs over the DNSKEY set.',
      resolve: (l) => [...l.dnskeySignatures],
    }),
    errors: t.field({ type: [DnssecChainError], resolve: (l) => [...l.errors] }),
    warnings: t.field({ type: [DnssecChainWarning], resolve: (l) => [...l.warnings] }),
  }),
});

const DnssecChainDenial = builder.objectRef<DenialEntry>('DnssecChainDenial').implement({
  fields: (t) => ({
    kind: t.exposeString('kind', { description: 'nsec | nsec3.' }),
    status: t.exposeString('status', { description: 'valid | invalid | missing.' }),
    iterations: t.exposeInt('iterations', { nullable: true, description: 'NSEC3 extra iterations.' }),
    optOut: t.exposeBoolean('optOut', {
      nullable: true,
      description: 'NSEC3: an Opt-Out record took part in the proof.',
    }),
  }),
});

const DnssecChainAnswer = builder.objectRef<ChainAnswer>('DnssecChainAnswer').implement({
  fields: (t) => ({
    name: t.exposeString('name'),
    type: t.exposeString('type'),
    rcode: t.exposeString('rcode', {
      nullable: true,
      description: 'NOERROR or NXDOMAIN; null when the question failed.',
    }),
    records: t.exposeStringList('records', { description: 'The answer section in presentation format, RRSIGs aside.' }),
    signatures: t.field({ type: [DnssecChainAnswerSignature], resolve: (a) => [...a.signatures] }),
    status: t.field({ type: DnssecChainStatus, resolve: (a) => a.status }),
    denial: t.field({
      type: DnssecChainDenial,
      nullable: true,
      description: 'For NXDOMAIN or NODATA: the NSEC/NSEC3 proof; null otherwise.',
      resolve: (a) => a.denial,
    }),
  }),
});

const DnssecChainBrokenLink = builder.objectRef<BrokenLink>('DnssecChainBrokenLink').implement({
  fields: (t) => ({
    zone: t.exposeString('zone'),
    code: t.field({ type: DnssecChainErrorCode, resolve: (b) => b.code }),
    message: t.exposeString('message'),
  }),
});

const DnssecChainVerification = builder.objectRef<VerificationSummary>('DnssecChainVerification').implement({
  fields: (t) => ({
    signaturesVerified: t.exposeInt('signaturesVerified'),
    cpuMs: t.exposeFloat('cpuMs', { description: 'CPU milliseconds spent verifying signatures.' }),
  }),
});

export const DnssecChain = builder.objectRef<DnssecChainResult>('DnssecChain').implement({
  fields: (t) => ({
    domain: t.exposeString('domain'),
    type: t.exposeString('type'),
    status: t.field({ type: DnssecChainStatus, resolve: (r) => r.status }),
    brokenLink: t.field({
      type: DnssecChainBrokenLink,
      nullable: true,
      description:
        'null when secure or insecure; else the first link from the root whose failure decides, with its most specific code.',
      resolve: (r) => r.brokenLink,
    }),
    chain: t.field({ type: [DnssecChainLink], resolve: (r) => [...r.chain] }),
    answer: t.field({ type: DnssecChainAnswer, resolve: (r) => r.answer }),
    source: t.exposeString('source', { description: 'resolver | authoritative (config dnssec.source).' }),
    questions: t.exposeInt('questions', { description: 'DNS questions the chain took.' }),
    verification: t.field({ type: DnssecChainVerification, resolve: (r) => r.verification }),
  }),
});
