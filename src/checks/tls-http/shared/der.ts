/**
 * Just enough DER (ITU-T X.690) to read a certificate's outer signatureAlgorithm.
 * Node 20's X509Certificate has no `signatureAlgorithm` property (it arrived in
 * later Node lines), so we read the AlgorithmIdentifier ourselves:
 *
 *   Certificate ::= SEQUENCE {                      -- RFC 5280 §4.1
 *     tbsCertificate       TBSCertificate,          -- SEQUENCE
 *     signatureAlgorithm   AlgorithmIdentifier,     -- SEQUENCE { OID, params }
 *     signatureValue       BIT STRING }
 */

const TAG_SEQUENCE = 0x30;
const TAG_OID = 0x06;

interface DerElement {
  readonly tag: number;
  /** offset of the first content byte */
  readonly contentStart: number;
  /** offset just past the content: where the next sibling starts */
  readonly end: number;
}

export class DerError extends Error {}

/** Reads one tag-length-value element at `offset`, refusing anything that overruns `limit`. */
function readElement(der: Uint8Array, offset: number, limit: number): DerElement {
  if (offset + 2 > limit) throw new DerError(`DER element at ${offset} is truncated`);
  const tag = der[offset]!;
  // Tags of the high-tag-number form (low five bits all set) never occur in the
  // part of a certificate we read.
  if ((tag & 0x1f) === 0x1f) throw new DerError(`DER element at ${offset} uses an unsupported high tag number`);
  const first = der[offset + 1]!;
  let length: number;
  let contentStart = offset + 2;
  if (first < 0x80) {
    length = first;
  } else {
    const octets = first & 0x7f;
    // 0x80 is the indefinite form, which DER forbids (X.690 §10.1); four octets cover any certificate.
    if (octets === 0 || octets > 4) throw new DerError(`DER element at ${offset} has an invalid length form`);
    if (contentStart + octets > limit) throw new DerError(`DER element at ${offset} is truncated`);
    length = 0;
    for (let i = 0; i < octets; i++) length = length * 256 + der[contentStart + i]!;
    contentStart += octets;
  }
  const end = contentStart + length;
  if (end > limit) throw new DerError(`DER element at ${offset} overruns its container`);
  return { tag, contentStart, end };
}

function expectTag(element: DerElement, tag: number, what: string): DerElement {
  if (element.tag !== tag) {
    throw new DerError(`expected ${what} (tag 0x${tag.toString(16)}), found tag 0x${element.tag.toString(16)}`);
  }
  return element;
}

/** Decodes OBJECT IDENTIFIER content octets into dotted form (X.690 §8.19). */
export function decodeOid(content: Uint8Array): string {
  if (content.length === 0) throw new DerError('empty OBJECT IDENTIFIER');
  const arcs: bigint[] = [];
  let value = 0n;
  let pending = false;
  for (const byte of content) {
    value = (value << 7n) | BigInt(byte & 0x7f);
    pending = true;
    if ((byte & 0x80) === 0) {
      arcs.push(value);
      value = 0n;
      pending = false;
    }
  }
  if (pending) throw new DerError('OBJECT IDENTIFIER ends inside a sub-identifier');
  // The first sub-identifier packs the first two arcs as 40 * X + Y, X ∈ {0, 1, 2}.
  const head = arcs[0]!;
  const firstArc = head < 40n ? 0n : head < 80n ? 1n : 2n;
  return [firstArc, head - firstArc * 40n, ...arcs.slice(1)].join('.');
}

/** The dotted OID of a DER certificate's outer signatureAlgorithm. Throws DerError on malformed input. */
export function signatureAlgorithmOid(certificateDer: Uint8Array): string {
  const limit = certificateDer.length;
  const certificate = expectTag(readElement(certificateDer, 0, limit), TAG_SEQUENCE, 'Certificate SEQUENCE');
  const tbs = expectTag(
    readElement(certificateDer, certificate.contentStart, certificate.end),
    TAG_SEQUENCE,
    'TBSCertificate SEQUENCE',
  );
  const algorithm = expectTag(
    readElement(certificateDer, tbs.end, certificate.end),
    TAG_SEQUENCE,
    'AlgorithmIdentifier SEQUENCE',
  );
  const oid = expectTag(readElement(certificateDer, algorithm.contentStart, algorithm.end), TAG_OID, 'algorithm OID');
  return decodeOid(certificateDer.subarray(oid.contentStart, oid.end));
}

/**
 * Signature algorithm OIDs and the names OpenSSL prints for them (`openssl x509 -text`).
 * Sources: RFC 8017 App. C (RSA), RFC 5758 §3.2 and RFC 3279 §2.2.3 (ECDSA, DSA), RFC 8410 §3 (EdDSA).
 */
const SIGNATURE_ALGORITHM_NAMES: Readonly<Record<string, string>> = {
  '1.2.840.113549.1.1.4': 'md5WithRSAEncryption',
  '1.2.840.113549.1.1.5': 'sha1WithRSAEncryption',
  '1.2.840.113549.1.1.10': 'rsassaPss',
  '1.2.840.113549.1.1.11': 'sha256WithRSAEncryption',
  '1.2.840.113549.1.1.12': 'sha384WithRSAEncryption',
  '1.2.840.113549.1.1.13': 'sha512WithRSAEncryption',
  '1.2.840.113549.1.1.14': 'sha224WithRSAEncryption',
  '1.2.840.10045.4.1': 'ecdsa-with-SHA1',
  '1.2.840.10045.4.3.1': 'ecdsa-with-SHA224',
  '1.2.840.10045.4.3.2': 'ecdsa-with-SHA256',
  '1.2.840.10045.4.3.3': 'ecdsa-with-SHA384',
  '1.2.840.10045.4.3.4': 'ecdsa-with-SHA512',
  '1.3.101.112': 'ED25519',
  '1.3.101.113': 'ED448',
  '1.2.840.10040.4.3': 'dsaWithSHA1',
  '2.16.840.1.101.3.4.3.1': 'dsa_with_SHA224',
  '2.16.840.1.101.3.4.3.2': 'dsa_with_SHA256',
};

/** The certificate's signature algorithm by name ("sha256WithRSAEncryption"), or its dotted OID when unnamed. */
export function signatureAlgorithmName(certificateDer: Uint8Array): string {
  const oid = signatureAlgorithmOid(certificateDer);
  return SIGNATURE_ALGORITHM_NAMES[oid] ?? oid;
}
