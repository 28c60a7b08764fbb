/** tls-rating: its object types (docs/contract/grades.md); the check is ./check.ts. */
import type { Grade, GradeCap, GradeWarning } from './grade.js';
import type { MozillaConformance } from './mozilla.js';
import type { RatedCertificate, RatedProtocol, RatedSuite, TlsRatingData } from './rating.js';
import { leafIdentityFields, SSL_STATUS_RULES } from '../shared/tls-types.js';
import { builder } from '../../../graphql/builder.js';

export const TlsRatingProtocol = builder.objectRef<RatedProtocol>('TlsRatingProtocol').implement({
  fields: (t) => ({
    version: t.exposeString('version', { description: 'SSLv3, TLSv1, TLSv1.1, TLSv1.2 or TLSv1.3.' }),
    result: t.exposeString('result', {
      description:
        '"supported", "not-supported" (the server refused it or chose another version), or "unable-to-test" (this side cannot offer it, or no clean answer; `note` says why).',
    }),
    note: t.exposeString('note', { nullable: true }),
  }),
});

export const TlsRatingSuite = builder.objectRef<RatedSuite>('TlsRatingSuite').implement({
  description: 'A cipher suite the server accepted with one version.',
  fields: (t) => ({
    version: t.exposeString('version'),
    name: t.exposeString('name', { description: 'IANA name, e.g. TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256.' }),
    bits: t.exposeInt('bits', { description: 'Symmetric strength (3DES counts 112, NULL 0).' }),
    keyExchange: t.exposeString('keyExchange', { description: 'ECDHE, DHE, RSA, PSK, anonymous or TLS1.3.' }),
    authentication: t.exposeString('authentication', {
      description: 'RSA, ECDSA, DSS, none; for TLS 1.3 suites the certificate key type.',
    }),
    forwardSecrecy: t.exposeBoolean('forwardSecrecy'),
    aead: t.exposeBoolean('aead'),
  }),
});

export const TlsRatingPreferred = builder.objectRef<{ version: string; name: string }>('TlsRatingPreferred').implement({
  description: 'The suite the server picks, per version, when offered everything this side can offer.',
  fields: (t) => ({ version: t.exposeString('version'), name: t.exposeString('name') }),
});

export const TlsRatingCertificate = builder.objectRef<RatedCertificate>('TlsRatingCertificate').implement({
  // no description of the type: the contract baseline has none, and a description once given is kept
  fields: (t) => ({
    ...leafIdentityFields(t),
    fingerprint: t.exposeString('fingerprint', {
      description:
        'SHA-256 of the leaf certificate (DER), upper-case hex pairs joined by ":"; a new certificate has a new one.',
    }),
    keyType: t.exposeString('keyType', { description: 'RSA, EC, Ed25519, …' }),
    keyBits: t.exposeInt('keyBits'),
    signatureAlgorithm: t.exposeString('signatureAlgorithm'),
    chainComplete: t.exposeBoolean('chainComplete', {
      description: 'The server sent what is needed to reach a trust anchor (false when AIA had to complete it).',
    }),
    status: t.exposeString('status', { description: `Judged on the chain after AIA completion. ${SSL_STATUS_RULES}` }),
  }),
});

export const TlsRatingHsts = builder.objectRef<{ present: boolean; maxAge: number | null }>('TlsRatingHsts').implement({
  fields: (t) => ({
    present: t.exposeBoolean('present'),
    maxAge: t.exposeFloat('maxAge', { nullable: true, description: 'Seconds; null without a max-age directive.' }),
  }),
});

export const TlsGradeCap = builder.objectRef<GradeCap>('TlsGradeCap').implement({
  fields: (t) => ({
    code: t.exposeString('code', { description: 'grades.md step 4, e.g. sweet32, tls10, incomplete-chain.' }),
    cap: t.exposeString('cap', { description: 'The highest letter it allows: B, C or F.' }),
    reason: t.exposeString('reason'),
  }),
});

export const TlsGradeWarning = builder.objectRef<GradeWarning>('TlsGradeWarning').implement({
  fields: (t) => ({
    code: t.exposeString('code', { description: 'no-tls13 or hsts-short.' }),
    reason: t.exposeString('reason'),
  }),
});

export const TlsGrade = builder.objectRef<Grade>('TlsGrade').implement({
  description: 'The SSL Labs method (rating guide 2009r), grades.md "The grade (the contract)".',
  fields: (t) => ({
    letter: t.exposeString('letter', {
      description: 'A+, A, A-, B, C, D, E, F, T (not trusted) or M (name mismatch).',
    }),
    letterIgnoringTrust: t.exposeString('letterIgnoringTrust'),
    score: t.exposeInt('score'),
    protocolScore: t.exposeFloat('protocolScore'),
    keyExchangeScore: t.exposeFloat('keyExchangeScore'),
    cipherScore: t.exposeFloat('cipherScore'),
    caps: t.field({ type: [TlsGradeCap], resolve: (g) => g.caps }),
    warnings: t.field({ type: [TlsGradeWarning], resolve: (g) => g.warnings }),
  }),
});

export const MozillaViolations = builder.objectRef<MozillaConformance['violations']>('MozillaViolations').implement({
  fields: (t) => ({
    modern: t.exposeStringList('modern'),
    intermediate: t.exposeStringList('intermediate'),
    old: t.exposeStringList('old'),
  }),
});

export const MozillaProfile = builder.objectRef<MozillaConformance>('MozillaProfile').implement({
  description: "Conformance to Mozilla's server-side TLS guidelines 5.7.",
  fields: (t) => ({
    profile: t.exposeString('profile', {
      description: 'The strictest satisfied of modern, intermediate, old; else none.',
    }),
    violations: t.field({ type: MozillaViolations, resolve: (m) => m.violations }),
  }),
});

export const TlsRating = builder.objectRef<TlsRatingData>('TlsRating').implement({
  fields: (t) => ({
    host: t.exposeString('host'),
    ip: t.exposeString('ip', {
      description: 'The address rated: the first IPv4 address, else the first IPv6 address.',
    }),
    port: t.exposeInt('port'),
    durationMs: t.exposeFloat('durationMs'),
    partial: t.exposeBoolean('partial', {
      description:
        "True when the rating's bounds (handshakes, 30 s) stopped the enumeration: what was learnt is graded.",
    }),
    handshakes: t.exposeInt('handshakes', { description: 'Connections made (TLS handshakes and hand-built hellos).' }),
    light: t.exposeBoolean('light', {
      description:
        "True for website-health-check's light grade: the versions, each one's preferred suite, the certificate and chain, the groups those handshakes used and HSTS, in a handful of handshakes, graded by the same rules over what it saw. The full enumeration of suites and groups (serverOrder, every accepted suite) is tls-rating's, where this is false.",
    }),
    protocols: t.field({ type: [TlsRatingProtocol], resolve: (r) => r.protocols }),
    cipherSuites: t.field({ type: [TlsRatingSuite], resolve: (r) => r.cipherSuites }),
    preferred: t.field({ type: [TlsRatingPreferred], resolve: (r) => r.preferred }),
    serverOrder: t.exposeBoolean('serverOrder', {
      nullable: true,
      description:
        'True when the server picks by its own order, false when it follows the client, null with fewer than two suites.',
    }),
    groups: t.exposeStringList('groups', {
      description: 'Key-exchange groups accepted (x25519, secp256r1, ffdhe2048, …).',
    }),
    postQuantum: t.exposeBoolean('postQuantum', {
      nullable: true,
      description: 'Whether X25519MLKEM768 is accepted; null when this side cannot offer it.',
    }),
    dhBits: t.exposeInt('dhBits', { nullable: true, description: 'Smallest DH group of an accepted DHE suite.' }),
    certificate: t.field({
      type: TlsRatingCertificate,
      nullable: true,
      description: 'Null when no handshake completed.',
      resolve: (r) => r.certificate,
    }),
    hsts: t.field({
      type: TlsRatingHsts,
      nullable: true,
      description: 'From GET https://host[:port]/ (no redirect followed); null when that fails.',
      resolve: (r) => r.hsts,
    }),
    grade: t.field({ type: TlsGrade, resolve: (r) => r.grade }),
    ratingGuide: t.exposeString('ratingGuide'),
    mozilla: t.field({ type: MozillaProfile, resolve: (r) => r.mozilla }),
  }),
});
