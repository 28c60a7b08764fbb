/** The tls-rating grade (docs/contract/grades.md "The grade (the contract)"): every cap, every warning and the score arithmetic. */
import { describe, expect, it } from 'vitest';
import type { RatedVersion } from './cipher-suites.js';
import { suiteByName } from './cipher-suites.js';
import {
  cipherScore,
  ecRsaEquivalent,
  gradeConfiguration,
  groupRsaEquivalent,
  keyExchangeScoreOf,
  overallScore,
  protocolScore,
  scoreLetter,
  type GradeFacts,
  type GradedSuite,
} from './grade.js';

function suite(version: RatedVersion, name: string): GradedSuite {
  const known = suiteByName(name);
  if (!known) throw new Error(`unknown suite ${name}`);
  return { version, ...known };
}

const MODERN_SUITES = [
  suite('TLSv1.3', 'TLS_AES_128_GCM_SHA256'),
  suite('TLSv1.3', 'TLS_AES_256_GCM_SHA384'),
  suite('TLSv1.2', 'TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256'),
  suite('TLSv1.2', 'TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384'),
];

/** A modern server: TLS 1.2 and 1.3, ECDHE AEAD suites, x25519 and P-256, RSA 2048, HSTS for a year. */
const GOOD: GradeFacts = {
  supportedVersions: ['TLSv1.3', 'TLSv1.2'],
  suites: MODERN_SUITES,
  groups: ['x25519', 'secp256r1'],
  dhBits: [],
  certificate: {
    keyType: 'RSA',
    keyBits: 2048,
    hostnameMatch: true,
    trusted: true,
    md5Signature: false,
    chainComplete: true,
  },
  hsts: { present: true, maxAge: 31_536_000 },
};

function facts(changes: Partial<GradeFacts>): GradeFacts {
  return { ...GOOD, ...changes };
}

function certificate(changes: Partial<NonNullable<GradeFacts['certificate']>>): GradeFacts['certificate'] {
  return { ...GOOD.certificate!, ...changes };
}

describe('scores (grades.md step 2)', () => {
  it.each([
    [['TLSv1.3', 'TLSv1.2'], 100],
    [['TLSv1.2', 'TLSv1.1'], 97.5],
    [['TLSv1.3', 'TLSv1'], 95],
    [['TLSv1.2', 'SSLv3'], 90],
    [['SSLv3'], 80],
    [[], 0],
  ] as [RatedVersion[], number][])('protocol score of %j is %d: (best + worst) / 2', (versions, score) => {
    expect(protocolScore(versions)).toBe(score);
  });

  it.each([
    [0, 20],
    [511, 20],
    [512, 40],
    [1023, 40],
    [1024, 80],
    [2047, 80],
    [2048, 90],
    [4095, 90],
    [4096, 100],
    [15360, 100],
  ])('key exchange of %d RSA-equivalent bits scores %d', (bits, score) => {
    expect(keyExchangeScoreOf(bits)).toBe(score);
  });

  it.each([
    [256, 3072],
    [384, 7680],
    [521, 15360],
  ])('an EC key of %d bits counts %d RSA bits', (bits, rsa) => {
    expect(ecRsaEquivalent(bits)).toBe(rsa);
  });

  it.each([
    ['x25519', 3072],
    ['x448', 7680],
    ['secp256r1', 3072],
    ['secp384r1', 7680],
    ['secp521r1', 15360],
    ['ffdhe2048', 2048],
    ['ffdhe4096', 4096],
  ])('the group %s counts %d RSA bits', (group, rsa) => {
    expect(groupRsaEquivalent(group)).toBe(rsa);
  });

  it.each([
    [['TLS_AES_256_GCM_SHA384', 'TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256'], 90],
    [['TLS_AES_256_GCM_SHA384'], 100],
    [['TLS_RSA_WITH_AES_128_CBC_SHA'], 80],
    [['TLS_RSA_WITH_3DES_EDE_CBC_SHA', 'TLS_AES_256_GCM_SHA384'], 60],
    [['TLS_RSA_WITH_NULL_SHA', 'TLS_AES_256_GCM_SHA384'], 50],
    [['TLS_RSA_WITH_NULL_SHA'], 0],
  ])('cipher score of %j is %d: (strongest + weakest) / 2, 3DES counting 112 bits', (names, score) => {
    expect(cipherScore(names.map((n) => suite('TLSv1.2', n)))).toBe(score);
  });

  it.each([
    [100, 100, 100, 100],
    [100, 90, 90, 93],
    // 0.3 × 97.5 + 0.3 × 90 + 0.4 × 90 = 92.25
    [97.5, 90, 90, 92],
    // 0.3 × 95 + 0.3 × 90 + 0.4 × 60 = 79.5: a half rounds up
    [95, 90, 60, 80],
    // 0.3 × 97.5 + 0.3 × 80 + 0.4 × 80 = 85.25
    [97.5, 80, 80, 85],
    [100, 100, 0, 0],
    [0, 100, 100, 0],
    [100, 0, 100, 0],
  ])('score of protocol %d, key exchange %d, cipher %d is %d', (p, k, c, score) => {
    expect(overallScore(p, k, c)).toBe(score);
  });

  it.each([
    [100, 'A'],
    [80, 'A'],
    [79, 'B'],
    [65, 'B'],
    [64, 'C'],
    [50, 'C'],
    [49, 'D'],
    [35, 'D'],
    [34, 'E'],
    [20, 'E'],
    [19, 'F'],
    [0, 'F'],
  ] as const)('score %d is the letter %s (step 3)', (score, letter) => {
    expect(scoreLetter(score)).toBe(letter);
  });
});

describe('caps (grades.md step 4)', () => {
  const rc4Legacy = suite('TLSv1', 'TLS_RSA_WITH_RC4_128_SHA');
  it.each<[string, Partial<GradeFacts>, string, string]>([
    [
      'sslv3-best',
      { supportedVersions: ['SSLv3'], suites: [suite('SSLv3', 'TLS_RSA_WITH_AES_128_CBC_SHA')] },
      'F',
      'F',
    ],
    ['weak-cipher', { suites: [...MODERN_SUITES, suite('TLSv1.2', 'TLS_RSA_WITH_NULL_SHA256')] }, 'F', 'F'],
    ['weak-cipher', { suites: [...MODERN_SUITES, suite('TLSv1.2', 'TLS_RSA_EXPORT_WITH_DES40_CBC_SHA')] }, 'F', 'F'],
    ['anonymous', { suites: [...MODERN_SUITES, suite('TLSv1.2', 'TLS_DH_anon_WITH_AES_128_GCM_SHA256')] }, 'F', 'F'],
    ['weak-key-exchange', { certificate: certificate({ keyBits: 1000 }) }, 'F', 'F'],
    ['weak-key-exchange', { dhBits: [512] }, 'F', 'F'],
    ['md5-signature', { certificate: certificate({ md5Signature: true }) }, 'F', 'F'],
    [
      'sslv3',
      {
        supportedVersions: ['TLSv1.3', 'TLSv1.2', 'SSLv3'],
        suites: [...MODERN_SUITES, suite('SSLv3', 'TLS_RSA_WITH_AES_128_CBC_SHA')],
      },
      'C',
      'C',
    ],
    [
      'no-tls12',
      {
        supportedVersions: ['TLSv1.1', 'TLSv1'],
        suites: [suite('TLSv1.1', 'TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA')],
      },
      'C',
      'C',
    ],
    ['sweet32', { suites: [...MODERN_SUITES, suite('TLSv1.2', 'TLS_RSA_WITH_3DES_EDE_CBC_SHA')] }, 'C', 'C'],
    ['rc4-modern', { suites: [...MODERN_SUITES, suite('TLSv1.2', 'TLS_RSA_WITH_RC4_128_SHA')] }, 'C', 'C'],
    [
      'tls10',
      {
        supportedVersions: ['TLSv1.3', 'TLSv1.2', 'TLSv1'],
        suites: [...MODERN_SUITES, suite('TLSv1', 'TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA')],
      },
      'B',
      'B',
    ],
    [
      'tls11',
      {
        supportedVersions: ['TLSv1.3', 'TLSv1.2', 'TLSv1.1'],
        suites: [...MODERN_SUITES, suite('TLSv1.1', 'TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA')],
      },
      'B',
      'B',
    ],
    ['rc4', { supportedVersions: ['TLSv1.3', 'TLSv1.2', 'TLSv1'], suites: [...MODERN_SUITES, rc4Legacy] }, 'B', 'B'],
    ['key-exchange-below-2048', { certificate: certificate({ keyBits: 1024 }) }, 'B', 'B'],
    ['key-exchange-below-2048', { dhBits: [1024] }, 'B', 'B'],
    [
      'no-forward-secrecy',
      {
        supportedVersions: ['TLSv1.2'],
        suites: [suite('TLSv1.2', 'TLS_RSA_WITH_AES_128_GCM_SHA256')],
        groups: [],
      },
      'B',
      'B',
    ],
    [
      'no-aead',
      { suites: [suite('TLSv1.2', 'TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA256')], supportedVersions: ['TLSv1.2'] },
      'B',
      'B',
    ],
    ['incomplete-chain', { certificate: certificate({ chainComplete: false }) }, 'B', 'B'],
  ])('%s caps the grade at %s', (code, changes, cap, letter) => {
    const grade = gradeConfiguration(facts(changes));
    expect(grade.caps).toContainEqual({ code, cap, reason: expect.any(String) });
    expect(grade.letterIgnoringTrust).toBe(letter);
    expect(grade.letter).toBe(letter);
  });

  it('lists every cap that applies, each once, and takes the lowest', () => {
    const grade = gradeConfiguration(
      facts({
        supportedVersions: ['TLSv1.2', 'TLSv1.1', 'TLSv1'],
        suites: [
          suite('TLSv1.2', 'TLS_RSA_WITH_AES_128_CBC_SHA'),
          suite('TLSv1.2', 'TLS_RSA_WITH_3DES_EDE_CBC_SHA'),
          suite('TLSv1', 'TLS_RSA_WITH_AES_128_CBC_SHA'),
        ],
        groups: [],
      }),
    );
    expect(grade.caps.map((c) => c.code)).toEqual(['sweet32', 'tls10', 'tls11', 'no-forward-secrecy', 'no-aead']);
    expect(grade.letterIgnoringTrust).toBe('C');
  });

  it('SSLv3 as the best version is both sslv3-best (F) and sslv3 (C), and no-tls12', () => {
    const grade = gradeConfiguration(
      facts({ supportedVersions: ['SSLv3'], suites: [suite('SSLv3', 'TLS_RSA_WITH_AES_128_CBC_SHA')] }),
    );
    expect(grade.caps.map((c) => c.code)).toEqual(
      expect.arrayContaining(['sslv3-best', 'sslv3', 'no-tls12', 'no-forward-secrecy', 'no-aead']),
    );
    expect(grade.letter).toBe('F');
  });
});

describe('A+, A and A- (grades.md step 5)', () => {
  it('an A without caps or warnings and HSTS of 180 days or more is A+', () => {
    expect(gradeConfiguration(facts({ hsts: { present: true, maxAge: 15_552_000 } })).letter).toBe('A+');
  });

  it('without HSTS it stays A', () => {
    const grade = gradeConfiguration(facts({ hsts: { present: false, maxAge: null } }));
    expect(grade).toMatchObject({ letter: 'A', score: 93, caps: [], warnings: [] });
    expect(gradeConfiguration(facts({ hsts: null })).letter).toBe('A');
  });

  it('no-tls13 makes it A-', () => {
    const grade = gradeConfiguration(
      facts({ supportedVersions: ['TLSv1.2'], suites: MODERN_SUITES.filter((s) => s.version === 'TLSv1.2') }),
    );
    expect(grade.letter).toBe('A-');
    expect(grade.warnings).toEqual([{ code: 'no-tls13', reason: expect.any(String) }]);
  });

  it('hsts-short makes it A-', () => {
    const grade = gradeConfiguration(facts({ hsts: { present: true, maxAge: 15_551_999 } }));
    expect(grade.letter).toBe('A-');
    expect(grade.warnings).toEqual([{ code: 'hsts-short', reason: expect.any(String) }]);
  });

  it('warnings are listed whatever the letter', () => {
    const grade = gradeConfiguration(
      facts({
        supportedVersions: ['TLSv1.2', 'TLSv1'],
        suites: [suite('TLSv1.2', 'TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256')],
        hsts: { present: true, maxAge: 60 },
      }),
    );
    expect(grade.letter).toBe('B');
    expect(grade.warnings.map((w) => w.code)).toEqual(['no-tls13', 'hsts-short']);
  });
});

describe('the certificate gate (grades.md step 1)', () => {
  it('a hostname mismatch is M, whatever the configuration', () => {
    const grade = gradeConfiguration(facts({ certificate: certificate({ hostnameMatch: false }) }));
    expect(grade.letter).toBe('M');
    expect(grade.letterIgnoringTrust).toBe('A+');
  });

  it('an untrusted certificate is T', () => {
    const grade = gradeConfiguration(facts({ certificate: certificate({ trusted: false }) }));
    expect(grade.letter).toBe('T');
    expect(grade.letterIgnoringTrust).toBe('A+');
  });

  it('a mismatch is named before trust', () => {
    const grade = gradeConfiguration(facts({ certificate: certificate({ trusted: false, hostnameMatch: false }) }));
    expect(grade.letter).toBe('M');
  });

  it('without any certificate there is nothing to trust: T', () => {
    expect(gradeConfiguration(facts({ certificate: null })).letter).toBe('T');
  });

  it('an MD5 signature is F, and so is letterIgnoringTrust', () => {
    const grade = gradeConfiguration(facts({ certificate: certificate({ md5Signature: true }) }));
    expect(grade).toMatchObject({ letter: 'F', letterIgnoringTrust: 'F' });
  });

  it('a 1024-bit RSA key from a trusted CA passes the gate and is capped by the key exchange', () => {
    const grade = gradeConfiguration(facts({ certificate: certificate({ keyBits: 1024 }) }));
    expect(grade).toMatchObject({ letter: 'B', keyExchangeScore: 80 });
  });
});

describe('the key exchange takes the weakest element', () => {
  it.each<[string, Partial<GradeFacts>, number]>([
    ['RSA 2048 alone', { groups: [] }, 90],
    ['RSA 4096 with secp384r1', { certificate: certificate({ keyBits: 4096 }), groups: ['secp384r1'] }, 100],
    ['RSA 4096 with x25519 (3072 bits)', { certificate: certificate({ keyBits: 4096 }), groups: ['x25519'] }, 90],
    [
      'an EC P-256 key with ffdhe2048',
      { certificate: certificate({ keyType: 'EC', keyBits: 256 }), groups: ['ffdhe2048'] },
      90,
    ],
    ['a DH group of 1024 bits', { dhBits: [2048, 1024] }, 80],
    ['an anonymous suite', { suites: [...MODERN_SUITES, suite('TLSv1.2', 'TLS_DH_anon_WITH_AES_128_GCM_SHA256')] }, 0],
  ])('%s scores %s', (_what, changes, score) => {
    expect(gradeConfiguration(facts(changes)).keyExchangeScore).toBe(score);
  });

  it('an anonymous suite scores the key exchange 0 whatever the key, and so the score 0 (step 2)', () => {
    const grade = gradeConfiguration(
      facts({
        certificate: certificate({ keyBits: 4096 }),
        groups: ['secp384r1'],
        suites: [...MODERN_SUITES, suite('TLSv1.2', 'TLS_ECDH_anon_WITH_AES_128_CBC_SHA')],
      }),
    );
    expect(grade).toMatchObject({ keyExchangeScore: 0, score: 0, letter: 'F', letterIgnoringTrust: 'F' });
    expect(grade.protocolScore).toBeGreaterThan(0);
    expect(grade.cipherScore).toBeGreaterThan(0);
  });
});
