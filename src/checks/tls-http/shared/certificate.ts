/**
 * Pure evaluation of the certificate a server presented: the ssl-checker result
 * and the `certificate` block of tls-configuration (api-v1.md), from the chain
 * the probe read, the name that was asked for and the current time.
 */
import { checkServerIdentity, type PeerCertificate } from 'node:tls';
import {
  certificateDateToIso,
  displayName,
  dnsAndIpAltNames,
  nameAttribute,
  type CertificateEvidence,
  type PeerCertificateSummary,
} from '../../../probes/tls/chain.js';
import { signatureAlgorithmName } from './der.js';

const DAY_MS = 86_400_000;

/** decisions §4: the complete value set of ssl-checker `status`. */
export type SslStatus = 'valid' | 'expired' | 'not-yet-valid' | 'hostname-mismatch' | 'untrusted';

export interface ChainEntry {
  commonName: string | null;
  issuer: string | null;
  validFrom: string;
  validTo: string;
}

/** What ssl-checker says of the leaf, under its names: tls-rating says it with the same ones. */
export interface LeafIdentity {
  /** the leaf's subject CN; null when it has none (CN is optional since RFC 6125 and some CAs omit it) */
  commonName: string | null;
  subjectAlternativeNames: string[];
  /** the issuer's CN, or its O when it has no CN */
  issuer: string | null;
  validFrom: string;
  expiryDate: string;
  daysRemaining: number;
}

export interface SslCheckerData extends LeafIdentity {
  domain: string;
  status: SslStatus;
  signatureAlgorithm: string;
  chain: ChainEntry[];
}

export interface TlsCertificateBlock {
  /** true when the ssl-checker status would be `valid` */
  ok: boolean;
  /** the leaf's CN, or its O when it has no CN */
  subject: string | null;
  issuer: string | null;
  validFrom: string;
  expiryDate: string;
  daysRemaining: number;
  hostnameMatch: boolean;
  hostnameMismatchReason: string | null;
  /** certificates in `chain`: those the server sent plus the trust-store root Node completed it with */
  chainLength: number;
  trusted: boolean;
  trustError: string | null;
}

export interface HostnameVerdict {
  match: boolean;
  /** Node's explanation, e.g. "Host: a.example. is not in the cert's altnames: DNS:b.example" */
  reason: string | null;
}

function leafOf(evidence: CertificateEvidence): PeerCertificateSummary {
  const leaf = evidence.peerChain[0];
  if (leaf === undefined) throw new RangeError('the peer chain is empty: there is no certificate to evaluate');
  return leaf;
}

/**
 * RFC 6125 name check of the leaf, with Node's rules (wildcard in the left-most
 * label only, CN consulted only when there is no DNS SAN, IP literals only against
 * IP SANs). Kept apart from the chain verdict on purpose: the probe connects with
 * `checkServerIdentity: () => undefined` so that the two verdicts do not mask each other.
 */
export function hostnameVerdict(hostname: string, leaf: PeerCertificateSummary): HostnameVerdict {
  // checkServerIdentity reads only `subject` and `subjectaltname` of its certificate argument.
  const certificate = {
    subject: leaf.subject,
    subjectaltname: leaf.subjectAltName ?? undefined,
  } as unknown as PeerCertificate;
  const error = checkServerIdentity(hostname, certificate) as (Error & { reason?: string }) | undefined;
  if (error === undefined) return { match: true, reason: null };
  return { match: false, reason: error.reason ?? error.message };
}

export function daysRemaining(validTo: string, now: Date): number {
  return Math.floor((Date.parse(validTo) - now.getTime()) / DAY_MS);
}

/**
 * One status, the most urgent problem first:
 *   1. expired / 2. not-yet-valid — every client refuses the certificate whatever the
 *      name or the chain, and the fix (renew, fix the clock) is unambiguous. The leaf's
 *      dates decide, and so does OpenSSL's verdict, which also covers an expired
 *      intermediate on the verified path.
 *   3. hostname-mismatch — the certificate belongs to another site, so whether its chain
 *      is trusted does not help the user of this name.
 *   4. untrusted — the chain does not lead to a trusted root (self-signed, missing
 *      intermediate, unknown CA).
 *   5. valid.
 */
export function sslStatus(evidence: CertificateEvidence, hostname: HostnameVerdict, now: Date): SslStatus {
  const leaf = leafOf(evidence);
  const nowMs = now.getTime();
  if (Date.parse(leaf.validTo) < nowMs || evidence.authorizationError === 'CERT_HAS_EXPIRED') return 'expired';
  if (Date.parse(leaf.validFrom) > nowMs || evidence.authorizationError === 'CERT_NOT_YET_VALID')
    return 'not-yet-valid';
  if (!hostname.match) return 'hostname-mismatch';
  if (!evidence.authorized) return 'untrusted';
  return 'valid';
}

export function chainEntries(chain: readonly PeerCertificateSummary[]): ChainEntry[] {
  return chain.map((certificate) => ({
    commonName: nameAttribute(certificate.subject, 'CN'),
    issuer: displayName(certificate.issuer),
    validFrom: certificateDateToIso(certificate.validFrom),
    validTo: certificateDateToIso(certificate.validTo),
  }));
}

/** The leaf's names and dates as ssl-checker (and tls-rating) answer them. */
export function leafIdentity(leaf: PeerCertificateSummary, now: Date): LeafIdentity {
  return {
    commonName: nameAttribute(leaf.subject, 'CN'),
    subjectAlternativeNames: dnsAndIpAltNames(leaf.subjectAltName),
    issuer: displayName(leaf.issuer),
    validFrom: certificateDateToIso(leaf.validFrom),
    expiryDate: certificateDateToIso(leaf.validTo),
    daysRemaining: daysRemaining(leaf.validTo, now),
  };
}

/** The ssl-checker `data` for `domain` (the name the caller asked about, also the name checked). */
export function sslCheckerData(domain: string, evidence: CertificateEvidence, now: Date): SslCheckerData {
  const leaf = leafOf(evidence);
  return {
    domain,
    status: sslStatus(evidence, hostnameVerdict(domain, leaf), now),
    ...leafIdentity(leaf, now),
    signatureAlgorithm: signatureAlgorithmName(leaf.der),
    chain: chainEntries(evidence.peerChain),
  };
}

/** The tls-configuration `certificate` block for `hostname`. */
export function tlsCertificateBlock(hostname: string, evidence: CertificateEvidence, now: Date): TlsCertificateBlock {
  const leaf = leafOf(evidence);
  const name = hostnameVerdict(hostname, leaf);
  return {
    ok: sslStatus(evidence, name, now) === 'valid',
    subject: displayName(leaf.subject),
    issuer: displayName(leaf.issuer),
    validFrom: certificateDateToIso(leaf.validFrom),
    expiryDate: certificateDateToIso(leaf.validTo),
    daysRemaining: daysRemaining(leaf.validTo, now),
    hostnameMatch: name.match,
    hostnameMismatchReason: name.reason,
    chainLength: evidence.peerChain.length,
    trusted: evidence.authorized,
    trustError: evidence.authorized ? null : evidence.authorizationError,
  };
}
