/**
 * Whether a chain (leaf first, as the server sent it plus issuers fetched through AIA) reaches a trust
 * anchor, checked as a browser path check does at its core (RFC 5280 §6.1, reduced): every certificate
 * is issued and signed by the next, within its dates, each issuer is a CA, and the last one is an anchor
 * or is issued and signed by one. Used by tls-rating after AIA completion (docs/contract/grades.md step 1), where
 * the TLS handshake's own verdict saw only what the server sent.
 *
 * The anchors: the configured `ca` (tests: the lab root), else Node's bundled store plus the file
 * NODE_EXTRA_CA_CERTS names, which is the store the TLS probe verifies against.
 */
import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import tls from 'node:tls';

const PEM_CERTIFICATE = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

export type TrustAnchorSource = string | Buffer | readonly (string | Buffer)[] | undefined;

function pemBlocks(source: string | Buffer | readonly (string | Buffer)[]): string[] {
  const texts = Array.isArray(source) ? source : [source];
  return texts.flatMap((t) => String(t).match(PEM_CERTIFICATE) ?? []);
}

function parseAll(pems: readonly string[]): X509Certificate[] {
  return pems.flatMap((pem) => {
    try {
      return [new X509Certificate(pem)];
    } catch {
      return [];
    }
  });
}

let defaultAnchors: X509Certificate[] | undefined;

function nodeDefaultAnchors(): X509Certificate[] {
  if (defaultAnchors) return defaultAnchors;
  const pems = [...tls.rootCertificates];
  const extra = process.env.NODE_EXTRA_CA_CERTS;
  if (extra) {
    try {
      pems.push(...pemBlocks(readFileSync(extra, 'utf8')));
    } catch {
      // Node itself only warns about an unreadable file; the bundled store stands.
    }
  }
  defaultAnchors = parseAll(pems);
  return defaultAnchors;
}

/** The configured anchors are one value for the life of the process (tests: one per app): parsed once. */
const parsedAnchors = new WeakMap<object, X509Certificate[]>();
let lastText: { text: string; anchors: X509Certificate[] } | undefined;

export function trustAnchors(ca: TrustAnchorSource): X509Certificate[] {
  if (ca === undefined) return nodeDefaultAnchors();
  if (typeof ca === 'string') {
    if (lastText?.text !== ca) lastText = { text: ca, anchors: parseAll(pemBlocks(ca)) };
    return lastText.anchors;
  }
  let anchors = parsedAnchors.get(ca);
  if (!anchors) {
    anchors = parseAll(pemBlocks(ca));
    parsedAnchors.set(ca, anchors);
  }
  return anchors;
}

function withinDates(certificate: X509Certificate, now: Date): boolean {
  const t = now.getTime();
  return Date.parse(certificate.validFrom) <= t && t <= Date.parse(certificate.validTo);
}

function signs(issuer: X509Certificate, subject: X509Certificate): boolean {
  try {
    return subject.checkIssued(issuer) && subject.verify(issuer.publicKey);
  } catch {
    return false;
  }
}

export interface ChainVerdict {
  readonly trusted: boolean;
  /** why not, for people; null when trusted */
  readonly reason: string | null;
}

export function verifyChain(chain: readonly Buffer[], anchors: readonly X509Certificate[], now: Date): ChainVerdict {
  const certificates = chain.map((der) => new X509Certificate(der));
  if (certificates.length === 0) return { trusted: false, reason: 'no certificate' };
  for (let i = 0; i < certificates.length; i++) {
    const certificate = certificates[i]!;
    if (!withinDates(certificate, now))
      return { trusted: false, reason: `${certificate.subject} is outside its dates` };
    const anchor = anchors.find((a) => a.fingerprint256 === certificate.fingerprint256 || signs(a, certificate));
    if (anchor) return { trusted: true, reason: null };
    const issuer = certificates[i + 1];
    if (issuer === undefined) break;
    if (!issuer.ca || !signs(issuer, certificate))
      return { trusted: false, reason: `${issuer.subject} did not issue ${certificate.subject}` };
  }
  return { trusted: false, reason: 'the chain does not reach a trust anchor' };
}
