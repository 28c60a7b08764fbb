/**
 * The certificate chain a server presented, reduced to plain data that the pure
 * evaluators (certificate.ts, configuration.ts) read. The TLS probe builds it
 * from `getPeerCertificate(true)`; tests can build it from PEM files.
 */
import { createHash } from 'node:crypto';
import type { DetailedPeerCertificate } from 'node:tls';
import ipaddr from 'ipaddr.js';

/** A distinguished name as Node reports it: attribute short name → value(s). */
export type DistinguishedName = Readonly<Record<string, string | readonly string[] | undefined>>;

export interface PeerCertificateSummary {
  readonly subject: DistinguishedName;
  readonly issuer: DistinguishedName;
  /** Node's `subjectaltname` text ("DNS:a.example, IP Address:192.0.2.1"), null without the extension */
  readonly subjectAltName: string | null;
  /** Node's date text ("Mar  1 00:00:00 2026 GMT") */
  readonly validFrom: string;
  readonly validTo: string;
  readonly serialNumber: string;
  readonly isCA: boolean;
  readonly der: Buffer;
}

/** What a finished handshake tells about the certificate: the evaluators need no more. */
export interface CertificateEvidence {
  /** leaf first */
  readonly peerChain: readonly PeerCertificateSummary[];
  /** the chain verdict of OpenSSL against the trust store (hostname not included) */
  readonly authorized: boolean;
  /** OpenSSL's verify code when not authorized, e.g. "CERT_HAS_EXPIRED" */
  readonly authorizationError: string | null;
}

/** Upper bound on chain entries kept: real chains have 2–5; a loop or a hostile server gets cut here. */
export const MAX_CHAIN_LENGTH = 10;

/** A Node peer certificate object with no certificate in it is `{}`. */
function isPresent(cert: DetailedPeerCertificate | undefined): cert is DetailedPeerCertificate {
  return cert !== undefined && cert !== null && Buffer.isBuffer(cert.raw) && cert.raw.length > 0;
}

export function summarizeCertificate(cert: DetailedPeerCertificate): PeerCertificateSummary {
  return {
    subject: { ...cert.subject },
    issuer: { ...cert.issuer },
    subjectAltName: cert.subjectaltname ?? null,
    validFrom: cert.valid_from,
    validTo: cert.valid_to,
    serialNumber: cert.serialNumber,
    isCA: cert.ca === true,
    der: Buffer.from(cert.raw),
  };
}

/**
 * Walks `getPeerCertificate(true)` from the leaf through `issuerCertificate`.
 * Node links a self-issued root to itself, and completes the chain from the
 * trust store when it can, so the walk stops at a certificate already seen.
 */
export function summarizePeerChain(leaf: DetailedPeerCertificate | undefined): PeerCertificateSummary[] {
  const chain: PeerCertificateSummary[] = [];
  const seen = new Set<string>();
  let current: DetailedPeerCertificate | undefined = leaf;
  while (isPresent(current) && chain.length < MAX_CHAIN_LENGTH) {
    const fingerprint = sha256Fingerprint(current.raw);
    if (seen.has(fingerprint)) break;
    seen.add(fingerprint);
    chain.push(summarizeCertificate(current));
    current = current.issuerCertificate;
  }
  return chain;
}

/** SHA-256 of the DER encoding as upper-case colon-separated hex, the form browsers and OpenSSL show. */
export function sha256Fingerprint(der: Uint8Array): string {
  const hex = createHash('sha256').update(der).digest('hex').toUpperCase();
  return hex.match(/../g)!.join(':');
}

/** First value of a DN attribute (an attribute may repeat, e.g. several OU). */
export function nameAttribute(name: DistinguishedName, attribute: string): string | null {
  const value = name[attribute];
  if (value === undefined) return null;
  if (typeof value === 'string') return value;
  return value[0] ?? null;
}

/** How a certificate names an entity for people: its CN, or its O when it has no CN (some roots). */
export function displayName(name: DistinguishedName): string | null {
  return nameAttribute(name, 'CN') ?? nameAttribute(name, 'O') ?? nameAttribute(name, 'OU');
}

/** Node's certificate date text → ISO 8601 UTC with milliseconds. */
export function certificateDateToIso(text: string): string {
  const time = Date.parse(text);
  if (Number.isNaN(time)) throw new RangeError(`unreadable certificate date "${text}"`);
  return new Date(time).toISOString();
}

export interface SubjectAltNameEntry {
  /** Node's label: "DNS", "IP Address", "email", "URI", "DirName", "othername", ... */
  readonly type: string;
  readonly value: string;
}

/**
 * Parses Node's `subjectaltname` text. Entries are joined by ", "; since Node 17
 * a value holding a separator or quote is written as a JSON string literal, so
 * a comma inside a name cannot forge a second entry.
 */
export function parseSubjectAltName(text: string | null): SubjectAltNameEntry[] {
  if (text === null || text === '') return [];
  const entries: SubjectAltNameEntry[] = [];
  let i = 0;
  while (i < text.length) {
    const colon = text.indexOf(':', i);
    if (colon < 0) break;
    const type = text.slice(i, colon);
    let value: string;
    let next: number;
    if (text[colon + 1] === '"') {
      const close = findClosingQuote(text, colon + 2);
      value = JSON.parse(text.slice(colon + 1, close + 1)) as string;
      next = close + 1;
    } else {
      const separator = text.indexOf(', ', colon + 1);
      next = separator < 0 ? text.length : separator;
      value = text.slice(colon + 1, next);
    }
    entries.push({ type, value });
    i = next + 2; // skip ", "
  }
  return entries;
}

function findClosingQuote(text: string, from: number): number {
  for (let i = from; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === '"') return i;
  }
  throw new RangeError('unterminated quoted subjectAltName value');
}

/**
 * The DNS names and IP addresses a certificate is issued for, without the
 * "DNS:" / "IP Address:" prefixes. IPv6 addresses, which Node prints fully
 * expanded in upper case, are given in RFC 5952 form ("2001:db8::1").
 */
export function dnsAndIpAltNames(text: string | null): string[] {
  const names: string[] = [];
  for (const entry of parseSubjectAltName(text)) {
    if (entry.type === 'DNS') names.push(entry.value);
    else if (entry.type === 'IP Address')
      names.push(ipaddr.isValid(entry.value) ? ipaddr.parse(entry.value).toString() : entry.value);
  }
  return names;
}
