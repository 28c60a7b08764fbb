import { generateKeyPairSync } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { dkimRecordName, evaluateDkim, isDkimKeyRecord, parseDkimKey } from './dkim.js';

function rsaSpki(bits: number): string {
  const { publicKey } = generateKeyPairSync('rsa', { modulusLength: bits });
  return publicKey.export({ format: 'der', type: 'spki' }).toString('base64');
}

function rsaPkcs1(bits: number): string {
  const { publicKey } = generateKeyPairSync('rsa', { modulusLength: bits });
  return publicKey.export({ format: 'der', type: 'pkcs1' }).toString('base64');
}

function ed25519Raw(): string {
  const { publicKey } = generateKeyPairSync('ed25519');
  // The SPKI of an Ed25519 key is a 12-byte header followed by the 32 raw bytes.
  return publicKey.export({ format: 'der', type: 'spki' }).subarray(12).toString('base64');
}

function ed25519Spki(): string {
  return generateKeyPairSync('ed25519').publicKey.export({ format: 'der', type: 'spki' }).toString('base64');
}

let rsa2048 = '';
let rsa1024 = '';
let rsa512 = '';

beforeAll(() => {
  rsa2048 = rsaSpki(2048);
  rsa1024 = rsaSpki(1024);
  rsa512 = rsaSpki(512);
});

describe('dkimRecordName', () => {
  it('builds <selector>._domainkey.<domain>', () => {
    expect(dkimRecordName('google', 'example.com.')).toBe('google._domainkey.example.com');
  });
});

describe('isDkimKeyRecord', () => {
  it.each([
    ['v=DKIM1; k=rsa; p=MIIB', true],
    ['p=MIIB', true],
    ['v=DKIM1; p=', true],
    ['k=rsa; v=DKIM1; p=MIIB', true], // v= misplaced: still a key record, with an error
    ['v=DKIM2; p=MIIB', false],
    ['v=spf1 -all', false],
    ['google-site-verification=abc', false],
    ['v=DKIM1; k=rsa', false],
    ['', false],
  ])('%j → %s', (txt, expected) => {
    expect(isDkimKeyRecord(txt)).toBe(expected);
  });
});

describe('parseDkimKey', () => {
  it('reads a 2048-bit RSA key without findings', () => {
    const key = parseDkimKey(`v=DKIM1; k=rsa; p=${rsa2048}`);
    expect(key).toMatchObject({
      keyType: 'rsa',
      keyBits: 2048,
      keyEncoding: 'spki',
      revoked: false,
      testing: false,
      errors: [],
      warnings: [],
    });
  });

  it('defaults k to rsa', () => {
    expect(parseDkimKey(`p=${rsa2048}`).keyType).toBe('rsa');
  });

  it('accepts white space and folding inside p= (RFC 6376 §3.6.1)', () => {
    const spaced = rsa2048.replace(/(.{60})/g, '$1 \r\n\t ');
    const key = parseDkimKey(`v=DKIM1; k=rsa; p= ${spaced} `);
    expect(key.errors).toEqual([]);
    expect(key.keyBits).toBe(2048);
    expect(key.publicKey).toBe(rsa2048);
  });

  it('warns about a 1024-bit key and rejects a 512-bit key (RFC 8301)', () => {
    const k1024 = parseDkimKey(`v=DKIM1; p=${rsa1024}`);
    expect(k1024.keyBits).toBe(1024);
    expect(k1024.errors).toEqual([]);
    expect(k1024.warnings.join('\n')).toContain('at least 2048');
    const k512 = parseDkimKey(`v=DKIM1; p=${rsa512}`);
    expect(k512.keyBits).toBe(512);
    expect(k512.errors.join('\n')).toContain('under 1024');
  });

  it('accepts a bare PKCS#1 RSA key with a warning', () => {
    const key = parseDkimKey(`v=DKIM1; p=${rsaPkcs1(1024)}`);
    expect(key).toMatchObject({ keyBits: 1024, keyEncoding: 'pkcs1', errors: [] });
    expect(key.warnings.join('\n')).toContain('PKCS#1');
  });

  it('reads an Ed25519 key (RFC 8463)', () => {
    const key = parseDkimKey(`v=DKIM1; k=ed25519; p=${ed25519Raw()}`);
    expect(key).toMatchObject({ keyType: 'ed25519', keyBits: null, keyEncoding: 'raw', errors: [] });
  });

  it('rejects an Ed25519 key wrapped in SubjectPublicKeyInfo', () => {
    expect(parseDkimKey(`v=DKIM1; k=ed25519; p=${ed25519Spki()}`).errors.join('\n')).toContain('32 raw bytes');
  });

  it('rejects a key whose type contradicts k=', () => {
    expect(parseDkimKey(`v=DKIM1; k=rsa; p=${ed25519Spki()}`).errors.join('\n')).toContain('ed25519 key');
  });

  it('reports a revoked key (empty p=)', () => {
    const key = parseDkimKey('v=DKIM1; k=rsa; p=');
    expect(key.revoked).toBe(true);
    expect(key.errors).toEqual([]);
    expect(key.warnings.join('\n')).toContain('revoked');
  });

  it('reads flags, hash algorithms and service types', () => {
    const key = parseDkimKey(`v=DKIM1; h=sha1; s=email:*; t=y:s; n=notes here; p=${rsa2048}`);
    expect(key).toMatchObject({ testing: true, strict: true, hashAlgorithms: ['sha1'], serviceTypes: ['email', '*'] });
    expect(key.warnings.join('\n')).toContain('t=y');
    expect(key.warnings.join('\n')).toContain('only sha1');
  });

  it.each([
    ['v=DKIM1; p=not*base64', 'not valid base64'],
    ['v=DKIM1; p=QUJD', 'does not decode as an RSA public key'],
    ['v=DKIM1; k=dsa; p=QUJD', 'k=dsa is not a known key type'],
    ['v=DKIM1; s=other; p=QUJD', 'excludes email'],
    ['k=rsa; v=DKIM1; p=QUJD', 'v= must be the first tag'],
    ['v=DKIM1; p=QUJD; p=QUJD', 'appears more than once'],
    ['v=DKIM1; h=md5:sha256; p=QUJD', 'unknown hash algorithms: md5'],
  ])('%j → %s', (record, finding) => {
    const key = parseDkimKey(record);
    expect([...key.errors, ...key.warnings].join('\n')).toContain(finding);
  });

  it('refuses to parse an absurdly large p=', () => {
    const huge = Buffer.alloc(8192, 1).toString('base64');
    expect(parseDkimKey(`v=DKIM1; p=${huge}`).errors.join('\n')).toContain('far more than any key');
  });
});

describe('evaluateDkim', () => {
  it('gives the api fields for a found key', () => {
    const record = `v=DKIM1; k=rsa; p=${rsa2048}`;
    const result = evaluateDkim('example.com', 'google', { rcode: 'NOERROR', records: ['unrelated', record] });
    expect(result).toMatchObject({
      domain: 'example.com',
      selector: 'google',
      found: true,
      record,
      keyType: 'rsa',
      hasPublicKey: true,
      name: 'google._domainkey.example.com',
      revoked: false,
      keyBits: 2048,
    });
    expect(result.tags.k).toBe('rsa');
  });

  it('reports NXDOMAIN as not found', () => {
    expect(evaluateDkim('example.com', 's1', { rcode: 'NXDOMAIN', records: [] })).toMatchObject({
      found: false,
      record: null,
      keyType: null,
      hasPublicKey: false,
      warnings: [],
    });
  });

  it('reports TXT records that are not keys as not found, with a warning', () => {
    const result = evaluateDkim('example.com', 's1', { rcode: 'NOERROR', records: ['v=spf1 -all'] });
    expect(result.found).toBe(false);
    expect(result.warnings[0]).toContain('none is a DKIM key record');
  });

  it('reports a revoked key as found without a public key', () => {
    const result = evaluateDkim('example.com', 'old', { rcode: 'NOERROR', records: ['v=DKIM1; p='] });
    expect(result).toMatchObject({ found: true, hasPublicKey: false, revoked: true, keyType: 'rsa' });
  });

  it('warns when a selector has several key records', () => {
    const result = evaluateDkim('example.com', 's', { rcode: 'NOERROR', records: [`p=${rsa2048}`, `p=${rsa1024}`] });
    expect(result.keyBits).toBe(2048);
    expect(result.warnings[0]).toContain('2 key records');
  });
});
