/**
 * The tls-rating `data` (docs/contract/grades.md) from what the enumeration observed: the certificate's key and
 * signature, the suites with their properties, the grade and the Mozilla profile. Pure: run.ts
 * does the asking.
 */
import { X509Certificate } from 'node:crypto';
import { RATED_VERSIONS, type CipherSuite, type RatedVersion } from './cipher-suites.js';
import type { LeafIdentity, SslStatus } from '../shared/certificate.js';
import { signatureAlgorithmName } from '../shared/der.js';
import { gradeConfiguration, RATING_GUIDE, type Grade } from './grade.js';
import { mozillaConformance, type MozillaConformance, type MozillaGuidelines } from './mozilla.js';

export type RatedProtocolResult = 'supported' | 'not-supported' | 'unable-to-test';

export interface RatedProtocol {
  version: RatedVersion;
  result: RatedProtocolResult;
  /** why a version is `unable-to-test`; null otherwise */
  note: string | null;
}

export interface RatedSuite {
  version: RatedVersion;
  name: string;
  bits: number;
  keyExchange: string;
  authentication: string;
  forwardSecrecy: boolean;
  aead: boolean;
}

/**
 * The leaf certificate as ssl-checker names it (src/checks/tls-http/shared/certificate.ts LeafIdentity), and
 * its SHA-256 fingerprint: what monitors compare between runs and warn on before it expires.
 */
export interface CertificateIdentity extends LeafIdentity {
  /** SHA-256 of the leaf's DER, upper-case hex pairs joined by ":" (as Node's X509Certificate.fingerprint256) */
  fingerprint: string;
}

export interface RatedCertificate extends CertificateIdentity {
  keyType: string;
  keyBits: number;
  signatureAlgorithm: string;
  chainComplete: boolean;
  status: SslStatus;
}

export interface TlsRatingData {
  host: string;
  ip: string;
  port: number;
  durationMs: number;
  /** the bounds (handshakes or time) stopped the enumeration: what was learnt is graded */
  partial: boolean;
  /** connections made: TLS handshakes and hand-built hellos */
  handshakes: number;
  /**
   * website-health-check's light grade (run.ts TlsRatingInput.light): versions, each one's preferred
   * suite, the certificate and chain, HSTS; false for tls-rating's full enumeration
   */
  light: boolean;
  protocols: RatedProtocol[];
  cipherSuites: RatedSuite[];
  preferred: { version: RatedVersion; name: string }[];
  serverOrder: boolean | null;
  groups: string[];
  postQuantum: boolean | null;
  dhBits: number | null;
  certificate: RatedCertificate | null;
  hsts: { present: boolean; maxAge: number | null } | null;
  grade: Grade;
  ratingGuide: string;
  mozilla: MozillaConformance;
}

/** What the enumeration learnt about the certificate of the main handshake. */
export interface ObservedCertificate {
  readonly leafDer: Buffer;
  readonly identity: CertificateIdentity;
  /** the certificates the server sent (leaf first), to look for MD2/MD5 signatures */
  readonly sentDers: readonly Buffer[];
  readonly hostnameMatch: boolean;
  /** ssl-checker's status, judged on the chain after AIA completion */
  readonly status: SslStatus;
  readonly chainComplete: boolean;
}

export interface RatingObservations {
  readonly host: string;
  readonly ip: string;
  readonly port: number;
  readonly durationMs: number;
  readonly partial: boolean;
  readonly handshakes: number;
  readonly light: boolean;
  readonly protocols: Readonly<Record<RatedVersion, { result: RatedProtocolResult; note: string | null }>>;
  readonly accepted: readonly { readonly version: RatedVersion; readonly suite: CipherSuite }[];
  readonly preferred: readonly { readonly version: RatedVersion; readonly name: string }[];
  readonly serverOrder: boolean | null;
  readonly groups: readonly string[];
  readonly postQuantum: boolean | null;
  readonly dhBits: readonly number[];
  readonly certificate: ObservedCertificate | null;
  readonly hsts: { present: boolean; maxAge: number | null } | null;
}

export interface CertificateKey {
  /** RSA, RSA-PSS, EC, Ed25519, Ed448, DSA */
  readonly keyType: string;
  readonly keyBits: number;
  /** an EC key's curve as OpenSSL names it (prime256v1, secp384r1), else null */
  readonly curve: string | null;
  readonly lifespanDays: number;
}

const KEY_TYPES: Readonly<Record<string, string>> = {
  rsa: 'RSA',
  'rsa-pss': 'RSA-PSS',
  ec: 'EC',
  ed25519: 'Ed25519',
  ed448: 'Ed448',
  dsa: 'DSA',
};

const CURVE_BITS: Readonly<Record<string, number>> = {
  prime256v1: 256,
  secp384r1: 384,
  secp521r1: 521,
  secp224r1: 224,
  prime192v1: 192,
  secp256k1: 256,
};

const DAY_MS = 86_400_000;

export function certificateKey(leafDer: Buffer): CertificateKey {
  const certificate = new X509Certificate(leafDer);
  const key = certificate.publicKey;
  const type = key.asymmetricKeyType ?? 'unknown';
  const details = key.asymmetricKeyDetails ?? {};
  const curve = type === 'ec' ? (details.namedCurve ?? null) : null;
  let keyBits: number;
  if (type === 'ed25519') keyBits = 256;
  else if (type === 'ed448') keyBits = 448;
  else if (curve !== null) keyBits = CURVE_BITS[curve] ?? 0;
  else keyBits = details.modulusLength ?? 0;
  const lifespanMs = Date.parse(certificate.validTo) - Date.parse(certificate.validFrom);
  return { keyType: KEY_TYPES[type] ?? type, keyBits, curve, lifespanDays: Math.round(lifespanMs / DAY_MS) };
}

/** MD2 (RFC 3279 §2.2.1, OID 1.2.840.113549.1.1.2) or MD5 signatures: grades.md step 1 and the md5-signature cap. */
function signedWithMd5(der: Buffer): boolean {
  const name = signatureAlgorithmName(der);
  return /md5|md2/i.test(name) || name === '1.2.840.113549.1.1.2';
}

/** RFC 8446 §4.4.2: in TLS 1.3 the certificate alone authenticates; its key type names it. */
const TLS13_AUTHENTICATION: Readonly<Record<string, string>> = { RSA: 'RSA', 'RSA-PSS': 'RSA', EC: 'ECDSA' };

function ratedSuite(version: RatedVersion, suite: CipherSuite, keyType: string | null): RatedSuite {
  return {
    version,
    name: suite.name,
    bits: suite.bits,
    keyExchange: suite.keyExchange,
    authentication: suite.authentication ?? (keyType !== null ? (TLS13_AUTHENTICATION[keyType] ?? keyType) : 'any'),
    forwardSecrecy: suite.forwardSecrecy,
    aead: suite.aead,
  };
}

export function tlsRatingData(observed: RatingObservations, guidelines: MozillaGuidelines): TlsRatingData {
  const supportedVersions = RATED_VERSIONS.filter((v) => observed.protocols[v].result === 'supported');
  const observedCertificate = observed.certificate;
  const key = observedCertificate ? certificateKey(observedCertificate.leafDer) : null;
  const signatureAlgorithm = observedCertificate ? signatureAlgorithmName(observedCertificate.leafDer) : null;
  const accepted = [...observed.accepted].sort(
    (a, b) => RATED_VERSIONS.indexOf(b.version) - RATED_VERSIONS.indexOf(a.version) || a.suite.code - b.suite.code,
  );
  const cipherSuites = accepted.map((a) => ratedSuite(a.version, a.suite, key?.keyType ?? null));
  const dhBits = observed.dhBits.length > 0 ? Math.min(...observed.dhBits) : null;

  const certificate: RatedCertificate | null =
    observedCertificate && key && signatureAlgorithm
      ? {
          ...observedCertificate.identity,
          keyType: key.keyType,
          keyBits: key.keyBits,
          signatureAlgorithm,
          chainComplete: observedCertificate.chainComplete,
          status: observedCertificate.status,
        }
      : null;

  const grade = gradeConfiguration({
    supportedVersions,
    suites: accepted.map((a) => ({ version: a.version, ...a.suite })),
    groups: observed.groups,
    dhBits: observed.dhBits,
    certificate:
      observedCertificate && key
        ? {
            keyType: key.keyType,
            keyBits: key.keyBits,
            hostnameMatch: observedCertificate.hostnameMatch,
            // The gate's T: untrusted, expired or not yet valid (a mismatch is M, judged first).
            trusted: observedCertificate.status === 'valid' || observedCertificate.status === 'hostname-mismatch',
            md5Signature: observedCertificate.sentDers.some(signedWithMd5),
            chainComplete: observedCertificate.chainComplete,
          }
        : null,
    hsts: observed.hsts,
  });

  const mozilla = mozillaConformance(guidelines, {
    supportedVersions,
    suites: cipherSuites,
    groups: observed.groups,
    dhBits,
    certificate:
      certificate && key
        ? {
            keyType: key.keyType,
            keyBits: key.keyBits,
            curve: key.curve,
            signatureAlgorithm: certificate.signatureAlgorithm,
            lifespanDays: key.lifespanDays,
            status: certificate.status,
          }
        : null,
  });

  return {
    host: observed.host,
    ip: observed.ip,
    port: observed.port,
    durationMs: observed.durationMs,
    partial: observed.partial,
    handshakes: observed.handshakes,
    light: observed.light,
    protocols: RATED_VERSIONS.map((version) => ({ version, ...observed.protocols[version] })),
    cipherSuites,
    preferred: [...observed.preferred].sort(
      (a, b) => RATED_VERSIONS.indexOf(b.version) - RATED_VERSIONS.indexOf(a.version),
    ),
    serverOrder: observed.serverOrder,
    groups: [...observed.groups],
    postQuantum: observed.postQuantum,
    dhBits,
    certificate,
    hsts: observed.hsts,
    grade,
    ratingGuide: RATING_GUIDE,
    mozilla,
  };
}

/** RFC 6797 §6.1: the max-age directive of a Strict-Transport-Security value (quoted or not); null without one. */
export function hstsMaxAge(value: string): number | null {
  for (const directive of value.split(';')) {
    const match = /^\s*max-age\s*=\s*"?(\d+)"?\s*$/i.exec(directive);
    if (match) return Number(match[1]);
  }
  return null;
}
