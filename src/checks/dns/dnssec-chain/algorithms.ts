/**
 * DNSSEC signing algorithms verified with node:crypto (IANA "DNS Security Algorithm Numbers"):
 * RSA with PKCS #1 v1.5 (RFC 3110, RFC 5702), ECDSA with signatures as r‖s (RFC 6605) and EdDSA
 * (RFC 8080). Keys come as DNSKEY public key fields and are turned into JWKs, which node:crypto
 * imports without ASN.1.
 */
import { createPublicKey, verify, type KeyObject } from 'node:crypto';

interface AlgorithmSpec {
  /** the digest node:crypto applies, or null for EdDSA (which hashes internally) */
  readonly hash: string | null;
  readonly family: 'rsa' | 'ecdsa' | 'eddsa';
  /** the JWK curve of ECDSA and EdDSA keys */
  readonly curve?: string;
  /** octets of an ECDSA coordinate or an EdDSA key */
  readonly size?: number;
  /** what `bits` reports for curve keys (RFC 8080 §3: Ed25519 is 255, Ed448 448) */
  readonly curveBits?: number;
}

const ALGORITHMS: Readonly<Record<number, AlgorithmSpec>> = {
  5: { hash: 'sha1', family: 'rsa' },
  7: { hash: 'sha1', family: 'rsa' },
  8: { hash: 'sha256', family: 'rsa' },
  10: { hash: 'sha512', family: 'rsa' },
  13: { hash: 'sha256', family: 'ecdsa', curve: 'P-256', size: 32, curveBits: 256 },
  14: { hash: 'sha384', family: 'ecdsa', curve: 'P-384', size: 48, curveBits: 384 },
  15: { hash: null, family: 'eddsa', curve: 'Ed25519', size: 32, curveBits: 255 },
  16: { hash: null, family: 'eddsa', curve: 'Ed448', size: 57, curveBits: 448 },
};

const ed448Available = probeEd448();

/** The algorithms this build verifies (Ed448 only where node:crypto has it). */
export function isSupportedAlgorithm(algorithm: number): boolean {
  if (algorithm === 16) return ed448Available;
  return ALGORITHMS[algorithm] !== undefined;
}

/**
 * The key's size as the contract reports it: RSA modulus bits, or the curve's size; null when the
 * algorithm is not one of ours or the key field does not parse.
 */
export function keyBits(algorithm: number, publicKey: Buffer): number | null {
  const spec = ALGORITHMS[algorithm];
  if (spec === undefined) return null;
  if (spec.family !== 'rsa') return spec.curveBits ?? null;
  const parts = rsaParts(publicKey);
  if (parts === null) return null;
  const modulus = stripLeadingZeros(parts.modulus);
  if (modulus.length === 0) return 0;
  return (modulus.length - 1) * 8 + (32 - Math.clz32(modulus[0]!));
}

/** The public key as node:crypto's KeyObject, or null when it is malformed or of an unsupported algorithm. */
export function importPublicKey(algorithm: number, publicKey: Buffer): KeyObject | null {
  const spec = ALGORITHMS[algorithm];
  if (spec === undefined || !isSupportedAlgorithm(algorithm)) return null;
  try {
    if (spec.family === 'rsa') {
      const parts = rsaParts(publicKey);
      if (parts === null) return null;
      return createPublicKey({
        key: {
          kty: 'RSA',
          n: base64url(stripLeadingZeros(parts.modulus)),
          e: base64url(stripLeadingZeros(parts.exponent)),
        },
        format: 'jwk',
      });
    }
    if (spec.family === 'ecdsa') {
      // RFC 6605 §4: Q as x ‖ y, without the uncompressed-point prefix
      if (publicKey.length !== 2 * spec.size!) return null;
      return createPublicKey({
        key: {
          kty: 'EC',
          crv: spec.curve!,
          x: base64url(publicKey.subarray(0, spec.size)),
          y: base64url(publicKey.subarray(spec.size)),
        },
        format: 'jwk',
      });
    }
    if (publicKey.length !== spec.size) return null;
    return createPublicKey({ key: { kty: 'OKP', crv: spec.curve!, x: base64url(publicKey) }, format: 'jwk' });
  } catch {
    return null;
  }
}

/** Checks `signature` over `data`; false for a malformed signature as for a wrong one. */
export function verifySignature(algorithm: number, key: KeyObject, data: Buffer, signature: Buffer): boolean {
  const spec = ALGORITHMS[algorithm];
  if (spec === undefined) return false;
  try {
    if (spec.family === 'ecdsa') {
      // RFC 6605 §4: r ‖ s, each the size of a coordinate (IEEE P1363), not DER
      if (signature.length !== 2 * spec.size!) return false;
      return verify(spec.hash, data, { key, dsaEncoding: 'ieee-p1363' }, signature);
    }
    return verify(spec.hash, data, key, signature);
  } catch {
    return false;
  }
}

/** RFC 3110 §2: a one-octet exponent length (or zero and two octets), the exponent, the modulus. */
function rsaParts(publicKey: Buffer): { exponent: Buffer; modulus: Buffer } | null {
  if (publicKey.length < 3) return null;
  let offset = 1;
  let exponentLength = publicKey[0]!;
  if (exponentLength === 0) {
    exponentLength = publicKey.readUInt16BE(1);
    offset = 3;
  }
  if (exponentLength === 0 || offset + exponentLength >= publicKey.length) return null;
  return {
    exponent: publicKey.subarray(offset, offset + exponentLength),
    modulus: publicKey.subarray(offset + exponentLength),
  };
}

function stripLeadingZeros(bytes: Buffer): Buffer {
  let i = 0;
  while (i < bytes.length - 1 && bytes[i] === 0) i++;
  return bytes.subarray(i);
}

function base64url(bytes: Buffer): string {
  return bytes.toString('base64url');
}

/** Ed448 came to node:crypto with OpenSSL 1.1.1; a build without it reads algorithm 16 as unsupported. */
function probeEd448(): boolean {
  try {
    createPublicKey({ key: { kty: 'OKP', crv: 'Ed448', x: base64url(Buffer.alloc(57)) }, format: 'jwk' });
    return true;
  } catch {
    return false;
  }
}
