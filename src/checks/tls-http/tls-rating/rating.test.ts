/** The pure parts of tls-rating's data: the suite table, the certificate key and HSTS. */
import { afterAll, describe, expect, it } from 'vitest';
import { CIPHER_SUITES, suiteByName, usableWith } from './cipher-suites.js';
import { certificateKey, hstsMaxAge } from './rating.js';
import { createRatingPki } from '../../../../test/lab/rating-pki.js';

const pki = createRatingPki();
afterAll(() => pki.close());

const der = (pem: string) => Buffer.from(pem.replace(/-----[^-]+-----|\s/g, ''), 'base64');

describe('the cipher suite table', () => {
  it('has one entry per code point and IANA name', () => {
    expect(new Set(CIPHER_SUITES.map((s) => s.code)).size).toBe(CIPHER_SUITES.length);
    expect(new Set(CIPHER_SUITES.map((s) => s.name)).size).toBe(CIPHER_SUITES.length);
  });

  it.each([
    [
      'TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256',
      { keyExchange: 'ECDHE', authentication: 'RSA', bits: 128, aead: true, forwardSecrecy: true },
    ],
    [
      'TLS_AES_256_GCM_SHA384',
      { keyExchange: 'TLS1.3', authentication: null, bits: 256, aead: true, forwardSecrecy: true },
    ],
    [
      'TLS_RSA_WITH_3DES_EDE_CBC_SHA',
      { keyExchange: 'RSA', bits: 112, block64: true, aead: false, forwardSecrecy: false },
    ],
    ['TLS_ECDHE_RSA_WITH_RC4_128_SHA', { bits: 128, rc4: true }],
    ['TLS_RSA_EXPORT_WITH_DES40_CBC_SHA', { bits: 40, block64: true }],
    ['TLS_DH_anon_WITH_AES_128_GCM_SHA256', { keyExchange: 'anonymous', authentication: 'none' }],
    ['TLS_RSA_WITH_NULL_SHA256', { bits: 0, aead: false }],
    ['TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256', { bits: 256, aead: true, authentication: 'ECDSA' }],
  ])('%s is read from its name', (name, properties) => {
    expect(suiteByName(name)).toMatchObject(properties);
  });

  it('finds a suite by its OpenSSL name too', () => {
    expect(suiteByName('ECDHE-RSA-AES128-GCM-SHA256')?.name).toBe('TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256');
  });

  it('knows which versions a suite may be used with (GCM from TLS 1.2, TLS 1.3 suites only there)', () => {
    const gcm = suiteByName('TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256')!;
    const cbc = suiteByName('TLS_RSA_WITH_AES_128_CBC_SHA')!;
    const tls13 = suiteByName('TLS_AES_128_GCM_SHA256')!;
    expect(['SSLv3', 'TLSv1', 'TLSv1.1', 'TLSv1.2', 'TLSv1.3'].map((v) => usableWith(gcm, v as never))).toEqual([
      false,
      false,
      false,
      true,
      false,
    ]);
    expect(usableWith(cbc, 'SSLv3')).toBe(true);
    expect(usableWith(tls13, 'TLSv1.3')).toBe(true);
    expect(usableWith(tls13, 'TLSv1.2')).toBe(false);
  });
});

describe('certificateKey', () => {
  it.each([
    ['rsa2048', { keyType: 'RSA', keyBits: 2048, curve: null, lifespanDays: 90 }],
    ['rsa1024', { keyType: 'RSA', keyBits: 1024, curve: null }],
    ['ec256', { keyType: 'EC', keyBits: 256, curve: 'prime256v1' }],
  ] as const)('reads a %s leaf', (key, expected) => {
    expect(certificateKey(der(pki.leaf({ names: ['key.lab.test'], key }).cert))).toMatchObject(expected);
  });
});

describe('hstsMaxAge (RFC 6797 §6.1)', () => {
  it.each([
    ['max-age=31536000; includeSubDomains', 31536000],
    ['includeSubDomains; MAX-AGE="600"', 600],
    ['max-age = 0', 0],
    ['includeSubDomains', null],
    ['max-age=abc', null],
  ])('%s → %s', (value, maxAge) => {
    expect(hstsMaxAge(value)).toBe(maxAge);
  });
});
