import { execFileSync, spawnSync } from 'node:child_process';
import { X509Certificate } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { daneVerdict, isUsableForSmtp, tlsaMatches, tlsaName, type DaneEvidence } from './dane.js';
import type { TlsaData } from '../../../probes/dns/client.js';
import { labPki } from '../../../../test/lab/pki.js';

const hasOpenssl = spawnSync('openssl', ['version']).status === 0;

/** The TLSA association data as OpenSSL computes it (an implementation independent of the check's). */
function opensslData(pem: string, selector: 0 | 1, digest: 'sha256' | 'sha512'): string {
  const der =
    selector === 0
      ? execFileSync('openssl', ['x509', '-outform', 'DER'], { input: pem })
      : execFileSync('openssl', ['pkey', '-pubin', '-outform', 'DER'], {
          input: execFileSync('openssl', ['x509', '-pubkey', '-noout'], { input: pem }),
        });
  return execFileSync('openssl', ['dgst', `-${digest}`, '-r'], { input: der })
    .toString()
    .split(' ')[0]!;
}

let leafPem: string;
let intermediatePem: string;
let chain: Buffer[];

beforeAll(async () => {
  const pki = await labPki();
  leafPem = pki.good.cert;
  intermediatePem = pki.intermediate.cert;
  chain = [new X509Certificate(leafPem).raw, new X509Certificate(intermediatePem).raw];
});

const record = (usage: number, selector: number, matchingType: number, data: string): TlsaData => ({
  usage,
  selector,
  matchingType,
  data,
});

describe('tlsaMatches', () => {
  it.skipIf(!hasOpenssl)('matches what openssl computes for each selector and digest', () => {
    for (const selector of [0, 1] as const) {
      for (const [matchingType, digest] of [
        [1, 'sha256'],
        [2, 'sha512'],
      ] as const) {
        expect(tlsaMatches(record(3, selector, matchingType, opensslData(leafPem, selector, digest)), chain)).toBe(
          true,
        );
        expect(
          tlsaMatches(record(2, selector, matchingType, opensslData(intermediatePem, selector, digest)), chain),
        ).toBe(true);
      }
    }
  });

  it('matches exact data (type 0), and upper-case hex', () => {
    expect(tlsaMatches(record(3, 0, 0, chain[0]!.toString('hex').toUpperCase()), chain)).toBe(true);
  });

  it('matches end-entity usages against the leaf only and trust-anchor usages against the issuers only', () => {
    const leafFull = chain[0]!.toString('hex');
    const issuerFull = chain[1]!.toString('hex');
    expect(tlsaMatches(record(2, 0, 0, leafFull), chain)).toBe(false);
    expect(tlsaMatches(record(3, 0, 0, issuerFull), chain)).toBe(false);
    expect(tlsaMatches(record(1, 0, 0, leafFull), chain)).toBe(true);
    expect(tlsaMatches(record(0, 0, 0, issuerFull), chain)).toBe(true);
  });

  it('never matches an unknown selector or matching type', () => {
    expect(tlsaMatches(record(3, 2, 0, chain[0]!.toString('hex')), chain)).toBe(false);
    expect(tlsaMatches(record(3, 0, 3, chain[0]!.toString('hex')), chain)).toBe(false);
  });
});

describe('daneVerdict', () => {
  const evidence = (over: Partial<DaneEvidence>): DaneEvidence => ({
    host: 'mx.example.com',
    port: 25,
    records: [],
    dnssec: 'secure',
    chain,
    chainError: null,
    ...over,
  });
  const leafDigest = () => opensslData(leafPem, 1, 'sha256');

  it('names the TLSA owner of the service', () => {
    expect(tlsaName('mx.example.com', 25)).toBe('_25._tcp.mx.example.com');
  });

  it('decides in order: bogus, no records, insecure, unusable, no chain, match', () => {
    const good = record(3, 1, 1, leafDigest());
    expect(daneVerdict(evidence({ dnssec: 'bogus', records: [good] })).status).toBe('error');
    expect(daneVerdict(evidence({})).status).toBe('no-tlsa');
    expect(daneVerdict(evidence({ dnssec: 'insecure', records: [good] })).status).toBe('insecure');
    expect(daneVerdict(evidence({ records: [record(1, 1, 1, leafDigest())] })).status).toBe('unusable');
    const noChain = daneVerdict(
      evidence({ records: [good], chain: null, chainError: 'mx.example.com does not offer STARTTLS' }),
    );
    expect(noChain).toMatchObject({
      status: 'error',
      error: 'no certificate chain to match: mx.example.com does not offer STARTTLS',
    });
    expect(noChain.tlsa[0]!.matches).toBe(false);
    expect(daneVerdict(evidence({ records: [good] }))).toMatchObject({ status: 'valid', error: null });
    expect(daneVerdict(evidence({ records: [record(3, 1, 1, '00'.repeat(32)), good] })).status).toBe('valid');
    expect(daneVerdict(evidence({ records: [record(3, 1, 1, '00'.repeat(32))] })).status).toBe('mismatch');
  });

  it('counts only DANE-TA and DANE-EE with known parameters as usable for SMTP', () => {
    expect(isUsableForSmtp({ usage: 2, selector: 1, matchingType: 2 })).toBe(true);
    expect(isUsableForSmtp({ usage: 0, selector: 1, matchingType: 1 })).toBe(false);
    expect(isUsableForSmtp({ usage: 3, selector: 1, matchingType: 3 })).toBe(false);
  });
});
