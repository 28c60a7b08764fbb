/** Mozilla profile conformance (docs/contract/grades.md `mozilla`) over the bundled guidelines 5.7. */
import { describe, expect, it } from 'vitest';
import { mozillaGuidelines } from './mozilla-guidelines.js';
import { mozillaConformance, type MozillaFacts } from './mozilla.js';

const guidelines = mozillaGuidelines();

const EC_CERTIFICATE: NonNullable<MozillaFacts['certificate']> = {
  keyType: 'EC',
  keyBits: 256,
  curve: 'prime256v1',
  signatureAlgorithm: 'ecdsa-with-SHA256',
  lifespanDays: 90,
  status: 'valid',
};

const MODERN: MozillaFacts = {
  supportedVersions: ['TLSv1.3'],
  suites: [
    { version: 'TLSv1.3', name: 'TLS_AES_128_GCM_SHA256', keyExchange: 'TLS1.3' },
    { version: 'TLSv1.3', name: 'TLS_AES_256_GCM_SHA384', keyExchange: 'TLS1.3' },
    { version: 'TLSv1.3', name: 'TLS_CHACHA20_POLY1305_SHA256', keyExchange: 'TLS1.3' },
  ],
  groups: ['x25519', 'secp256r1', 'secp384r1'],
  dhBits: null,
  certificate: EC_CERTIFICATE,
};

const INTERMEDIATE: MozillaFacts = {
  ...MODERN,
  supportedVersions: ['TLSv1.3', 'TLSv1.2'],
  suites: [
    ...MODERN.suites,
    { version: 'TLSv1.2', name: 'TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256', keyExchange: 'ECDHE' },
    { version: 'TLSv1.2', name: 'TLS_DHE_RSA_WITH_AES_128_GCM_SHA256', keyExchange: 'DHE' },
  ],
  dhBits: 2048,
  certificate: {
    ...EC_CERTIFICATE,
    keyType: 'RSA',
    keyBits: 2048,
    curve: null,
    signatureAlgorithm: 'sha256WithRSAEncryption',
    lifespanDays: 365,
  },
};

const OLD: MozillaFacts = {
  ...INTERMEDIATE,
  supportedVersions: ['TLSv1.3', 'TLSv1.2', 'TLSv1.1', 'TLSv1'],
  suites: [
    ...INTERMEDIATE.suites,
    { version: 'TLSv1', name: 'TLS_RSA_WITH_3DES_EDE_CBC_SHA', keyExchange: 'RSA' },
    { version: 'TLSv1.2', name: 'TLS_RSA_WITH_AES_128_CBC_SHA', keyExchange: 'RSA' },
  ],
  dhBits: 1024,
};

describe('mozilla profile', () => {
  it('the guidelines are version 5.7', () => {
    expect(guidelines.version).toBe(5.7);
  });

  it('TLS 1.3 only, its three suites, X25519/P-256/P-384 and a P-256 certificate satisfy modern', () => {
    const result = mozillaConformance(guidelines, MODERN);
    expect(result.profile).toBe('modern');
    expect(result.violations.modern).toEqual([]);
    expect(result.violations.intermediate).toEqual([]);
    expect(result.violations.old).toEqual(['certificate key type EC', 'certificate signature ecdsa-with-SHA256']);
  });

  it('TLS 1.2 with the intermediate suites and an RSA 2048 certificate is intermediate', () => {
    const result = mozillaConformance(guidelines, INTERMEDIATE);
    expect(result.profile).toBe('intermediate');
    expect(result.violations.modern).toEqual([
      'TLSv1.2 supported',
      'TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256 accepted',
      'TLS_DHE_RSA_WITH_AES_128_GCM_SHA256 accepted',
      'DHE suites accepted',
      'certificate key type RSA',
      'certificate signature sha256WithRSAEncryption',
      'certificate lifespan of 365 days (over 90)',
    ]);
  });

  it('TLS 1.0, 3DES and a 1024-bit DH group are old', () => {
    const result = mozillaConformance(guidelines, OLD);
    expect(result.profile).toBe('old');
    expect(result.violations.intermediate).toEqual([
      'TLSv1.1 supported',
      'TLSv1 supported',
      'TLS_RSA_WITH_3DES_EDE_CBC_SHA accepted',
      'TLS_RSA_WITH_AES_128_CBC_SHA accepted',
      'DH group of 1024 bits (under 2048)',
    ]);
  });

  it.each<[string, Partial<MozillaFacts>, string]>([
    ['SSLv3', { supportedVersions: [...OLD.supportedVersions, 'SSLv3'] }, 'SSLv3 supported'],
    [
      'a NULL suite',
      { suites: [...OLD.suites, { version: 'TLSv1.2', name: 'TLS_RSA_WITH_NULL_SHA256', keyExchange: 'RSA' }] },
      'TLS_RSA_WITH_NULL_SHA256 accepted',
    ],
    ['a group outside tls_curves', { groups: ['x25519', 'secp521r1'] }, 'group secp521r1 accepted'],
    ['a DH group under 1024 bits', { dhBits: 768 }, 'DH group of 768 bits (under 1024)'],
    [
      'an RSA key under 2048 bits',
      { certificate: { ...OLD.certificate!, keyBits: 1024 } },
      'RSA key of 1024 bits (under 2048)',
    ],
    [
      'a SHA-1 signature',
      { certificate: { ...OLD.certificate!, signatureAlgorithm: 'sha1WithRSAEncryption' } },
      'certificate signature sha1WithRSAEncryption',
    ],
    [
      'a lifespan over 366 days',
      { certificate: { ...OLD.certificate!, lifespanDays: 398 } },
      'certificate lifespan of 398 days (over 366)',
    ],
    [
      'an untrusted certificate',
      { certificate: { ...OLD.certificate!, status: 'untrusted' } },
      'certificate untrusted',
    ],
    ['no certificate', { certificate: null }, 'no certificate could be read'],
  ])('%s fails every profile', (_what, changes, violation) => {
    const result = mozillaConformance(guidelines, { ...OLD, ...changes });
    expect(result.profile).toBe('none');
    expect(result.violations.old).toContain(violation);
  });

  it('an EC certificate on a curve outside certificate_curves fails modern', () => {
    const result = mozillaConformance(guidelines, {
      ...MODERN,
      certificate: { ...EC_CERTIFICATE, keyBits: 521, curve: 'secp521r1', signatureAlgorithm: 'ecdsa-with-SHA512' },
    });
    expect(result.violations.modern).toEqual(['certificate curve secp521r1']);
  });
});
