import { spawnSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DerError, decodeOid, signatureAlgorithmName, signatureAlgorithmOid } from './der.js';
import { labPki } from '../../../../test/lab/pki.js';

/** A certificate skeleton: SEQUENCE { tbs SEQUENCE {}, AlgorithmIdentifier { OID }, BIT STRING }. */
function skeleton(oidContent: number[]): Uint8Array {
  const algorithm = [0x30, oidContent.length + 2, 0x06, oidContent.length, ...oidContent];
  const body = [0x30, 0x00, ...algorithm, 0x03, 0x01, 0x00];
  return Uint8Array.from([0x30, body.length, ...body]);
}

function opensslSignatureAlgorithm(pem: string): string | null {
  const run = spawnSync('openssl', ['x509', '-noout', '-text'], { input: pem, encoding: 'utf8' });
  if (run.status !== 0) return null;
  return /Signature Algorithm: (\S+)/.exec(run.stdout)?.[1] ?? null;
}

const hasOpenssl = spawnSync('openssl', ['version']).status === 0;

describe('signature algorithm from DER', () => {
  it('names ECDSA and RSA signatures of the lab certificates', async () => {
    const pki = await labPki();
    expect(signatureAlgorithmName(new X509Certificate(pki.good.cert).raw)).toBe('ecdsa-with-SHA256');
    expect(signatureAlgorithmOid(new X509Certificate(pki.good.cert).raw)).toBe('1.2.840.10045.4.3.2');
    expect(signatureAlgorithmName(new X509Certificate(pki.selfSigned.cert).raw)).toBe('sha256WithRSAEncryption');
  });

  it.skipIf(!hasOpenssl)('agrees with openssl x509 -text', async () => {
    const pki = await labPki();
    for (const pem of [pki.good.cert, pki.selfSigned.cert, pki.intermediate.cert, pki.root.cert]) {
      expect(signatureAlgorithmName(new X509Certificate(pem).raw)).toBe(opensslSignatureAlgorithm(pem));
    }
  });

  it('names Ed25519 and falls back to the dotted OID for unknown algorithms', () => {
    expect(signatureAlgorithmName(skeleton([0x2b, 0x65, 0x70]))).toBe('ED25519');
    // 1.2.3.4 is not a signature algorithm we know
    expect(signatureAlgorithmName(skeleton([0x2a, 0x03, 0x04]))).toBe('1.2.3.4');
  });

  it('decodes multi-byte sub-identifiers and the joint-iso-itu-t arc', () => {
    // 1.2.840.113549 = 2A 86 48 86 F7 0D
    expect(decodeOid(Uint8Array.from([0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d]))).toBe('1.2.840.113549');
    // 2.999.3: first sub-identifier 40*2+999 = 1079 = 0x88 0x37
    expect(decodeOid(Uint8Array.from([0x88, 0x37, 0x03]))).toBe('2.999.3');
  });

  it('refuses malformed input instead of guessing', () => {
    const good = skeleton([0x2b, 0x65, 0x70]);
    expect(() => signatureAlgorithmOid(good.subarray(0, good.length - 4))).toThrow(DerError);
    expect(() => signatureAlgorithmOid(Uint8Array.from([0x31, 0x00]))).toThrow(DerError);
    expect(() => signatureAlgorithmOid(Uint8Array.from([0x30, 0x80, 0x00, 0x00]))).toThrow(DerError);
    expect(() => decodeOid(Uint8Array.from([0x2a, 0x86]))).toThrow(DerError);
    expect(() => signatureAlgorithmOid(new Uint8Array(0))).toThrow(DerError);
  });
});
