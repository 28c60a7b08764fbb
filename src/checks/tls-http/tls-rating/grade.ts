/**
 * The tls-rating grade (docs/contract/grades.md "The grade (the contract)", the SSL Labs rating guide 2009r): a
 * pure function of what the enumeration learnt. Step by step as the contract numbers them: the certificate gate
 * (1), the three scores and their weighted sum (2), the letter of the score (3), the caps (4), A+ and A- (5).
 */
import type { RatedVersion } from './cipher-suites.js';

export const RATING_GUIDE = '2009r';

/** What the grade reads of an accepted suite. */
export interface GradedSuite {
  readonly version: RatedVersion;
  readonly name: string;
  readonly bits: number;
  readonly keyExchange: string;
  readonly forwardSecrecy: boolean;
  readonly aead: boolean;
  readonly block64: boolean;
  readonly rc4: boolean;
}

/** The certificate as the gate and the key-exchange score read it. */
export interface GradedCertificate {
  /** RSA, EC, Ed25519, Ed448, DSA, … */
  readonly keyType: string;
  readonly keyBits: number;
  readonly hostnameMatch: boolean;
  /** trusted as a browser judges it, after AIA completion (grades.md step 1), and within its dates */
  readonly trusted: boolean;
  /** an MD2 or MD5 signature on a certificate the server sent */
  readonly md5Signature: boolean;
  /** the server sent the issuers needed to reach a trust anchor */
  readonly chainComplete: boolean;
}

export interface GradeFacts {
  readonly supportedVersions: readonly RatedVersion[];
  readonly suites: readonly GradedSuite[];
  /** accepted key-exchange groups by name (x25519, secp256r1, ffdhe2048, …) */
  readonly groups: readonly string[];
  /** the sizes of the DH groups of accepted DHE suites */
  readonly dhBits: readonly number[];
  /** null when no handshake completed (nothing to judge trust by) */
  readonly certificate: GradedCertificate | null;
  /** null when the HSTS fetch failed */
  readonly hsts: { readonly present: boolean; readonly maxAge: number | null } | null;
}

export type Letter = 'A+' | 'A' | 'A-' | 'B' | 'C' | 'D' | 'E' | 'F' | 'T' | 'M';

export type CapCode =
  | 'sslv3-best'
  | 'weak-cipher'
  | 'anonymous'
  | 'weak-key-exchange'
  | 'md5-signature'
  | 'sslv3'
  | 'no-tls12'
  | 'sweet32'
  | 'rc4-modern'
  | 'tls10'
  | 'tls11'
  | 'rc4'
  | 'key-exchange-below-2048'
  | 'no-forward-secrecy'
  | 'no-aead'
  | 'incomplete-chain';

export type WarningCode = 'no-tls13' | 'hsts-short';

export interface GradeCap {
  readonly code: CapCode;
  readonly cap: 'B' | 'C' | 'F';
  readonly reason: string;
}

export interface GradeWarning {
  readonly code: WarningCode;
  readonly reason: string;
}

export interface Grade {
  readonly letter: Letter;
  readonly letterIgnoringTrust: Letter;
  readonly score: number;
  readonly protocolScore: number;
  readonly keyExchangeScore: number;
  readonly cipherScore: number;
  readonly caps: GradeCap[];
  readonly warnings: GradeWarning[];
}

/** grades.md step 2: the protocol score of each version. */
const VERSION_SCORE: Readonly<Record<RatedVersion, number>> = {
  SSLv3: 80,
  TLSv1: 90,
  'TLSv1.1': 95,
  'TLSv1.2': 100,
  'TLSv1.3': 100,
};

/** HSTS max-age that lifts an A to A+ (grades.md step 5: 180 days). */
export const HSTS_A_PLUS_SECONDS = 15_552_000;

export function protocolScore(versions: readonly RatedVersion[]): number {
  if (versions.length === 0) return 0;
  const scores = versions.map((v) => VERSION_SCORE[v]);
  return (Math.max(...scores) + Math.min(...scores)) / 2;
}

/**
 * RSA-equivalent bits of an elliptic-curve key of `bits` (grades.md step 2: 256 → 3072, 384 → 7680,
 * 521 → 15360). Sizes between are rounded down to the row below; below 256 NIST SP 800-57 Part 1
 * Table 2 continues the same comparison (224 → 2048, 160 → 1024).
 */
export function ecRsaEquivalent(bits: number): number {
  if (bits >= 521) return 15360;
  if (bits >= 384) return 7680;
  if (bits >= 256) return 3072;
  if (bits >= 224) return 2048;
  if (bits >= 160) return 1024;
  return 512;
}

/** Curve sizes of the named groups (grades.md: x25519 = 256 bits, x448 = 384 bits). */
const GROUP_CURVE_BITS: Readonly<Record<string, number>> = {
  x25519: 256,
  x448: 384,
  secp256r1: 256,
  secp384r1: 384,
  secp521r1: 521,
  secp224r1: 224,
  secp192r1: 192,
  brainpoolP256r1: 256,
  brainpoolP384r1: 384,
  brainpoolP512r1: 512,
  // A hybrid group is at least as strong as its classical half (draft-ietf-tls-ecdhe-mlkem).
  X25519MLKEM768: 256,
  SecP256r1MLKEM768: 256,
  SecP384r1MLKEM1024: 384,
};

/** RSA-equivalent bits of a named group: an ECDH group by its curve, ffdheN by N (RFC 7919). */
export function groupRsaEquivalent(group: string): number | null {
  const ffdhe = /^ffdhe(\d+)$/.exec(group);
  if (ffdhe) return Number(ffdhe[1]);
  const curve = GROUP_CURVE_BITS[group];
  return curve === undefined ? null : ecRsaEquivalent(curve);
}

/** RSA-equivalent bits of the certificate key: RSA and DSA by their size, EC and EdDSA by their curve. */
export function certificateRsaEquivalent(keyType: string, keyBits: number): number {
  if (keyType === 'RSA' || keyType === 'DSA' || keyType === 'RSA-PSS') return keyBits;
  return ecRsaEquivalent(keyBits);
}

/** grades.md step 2: the score of the weakest key-exchange element, in RSA-equivalent bits. */
export function keyExchangeScoreOf(bits: number): number {
  if (bits < 512) return 20;
  if (bits < 1024) return 40;
  if (bits < 2048) return 80;
  if (bits < 4096) return 90;
  return 100;
}

/** The weakest of the certificate key, every DH group and every ECDH group. */
export function weakestKeyExchangeBits(facts: GradeFacts): number | null {
  const bits: number[] = [...facts.dhBits];
  if (facts.certificate) bits.push(certificateRsaEquivalent(facts.certificate.keyType, facts.certificate.keyBits));
  for (const group of facts.groups) {
    const equivalent = groupRsaEquivalent(group);
    if (equivalent !== null) bits.push(equivalent);
  }
  return bits.length === 0 ? null : Math.min(...bits);
}

/**
 * grades.md step 2: an anonymous suite scores the key exchange 0 (as SSL Labs' guide), which makes the whole score
 * 0; otherwise the score of the weakest element.
 */
export function keyExchangeScore(facts: GradeFacts): number {
  if (facts.suites.some((s) => s.keyExchange === 'anonymous')) return 0;
  const weakest = weakestKeyExchangeBits(facts);
  return weakest === null ? 0 : keyExchangeScoreOf(weakest);
}

/** grades.md step 2: the cipher score of one suite's strength. */
export function cipherStrengthScore(bits: number): number {
  if (bits === 0) return 0;
  if (bits < 128) return 20;
  if (bits < 256) return 80;
  return 100;
}

export function cipherScore(suites: readonly GradedSuite[]): number {
  if (suites.length === 0) return 0;
  const scores = suites.map((s) => cipherStrengthScore(s.bits));
  return (Math.max(...scores) + Math.min(...scores)) / 2;
}

/**
 * 0.3 × protocol + 0.3 × key exchange + 0.4 × cipher, rounded to the nearest integer, halves up; 0 when
 * any part is 0. Summed in tenths so that no binary fraction decides a half.
 */
export function overallScore(protocol: number, keyExchange: number, cipher: number): number {
  if (protocol === 0 || keyExchange === 0 || cipher === 0) return 0;
  const tenths = 3 * protocol + 3 * keyExchange + 4 * cipher;
  return Math.floor(tenths / 10 + 0.5);
}

/** grades.md step 3. */
export function scoreLetter(score: number): Letter {
  if (score >= 80) return 'A';
  if (score >= 65) return 'B';
  if (score >= 50) return 'C';
  if (score >= 35) return 'D';
  if (score >= 20) return 'E';
  return 'F';
}

const LETTER_ORDER: readonly Letter[] = ['A+', 'A', 'A-', 'B', 'C', 'D', 'E', 'F'];

function lower(a: Letter, b: Letter): Letter {
  return LETTER_ORDER.indexOf(a) >= LETTER_ORDER.indexOf(b) ? a : b;
}

const atLeastTls11 = (version: RatedVersion): boolean =>
  version === 'TLSv1.1' || version === 'TLSv1.2' || version === 'TLSv1.3';

function bestVersion(versions: readonly RatedVersion[]): RatedVersion | null {
  const order: readonly RatedVersion[] = ['TLSv1.3', 'TLSv1.2', 'TLSv1.1', 'TLSv1', 'SSLv3'];
  return order.find((v) => versions.includes(v)) ?? null;
}

function names(suites: readonly GradedSuite[]): string {
  return [...new Set(suites.map((s) => s.name))].join(', ');
}

/** grades.md step 4: every cap that applies, F first. */
export function gradeCaps(facts: GradeFacts, keyExchange: number): GradeCap[] {
  const caps: GradeCap[] = [];
  const add = (code: CapCode, cap: GradeCap['cap'], reason: string): void => {
    caps.push({ code, cap, reason });
  };
  const versions = facts.supportedVersions;
  const suites = facts.suites;

  if (bestVersion(versions) === 'SSLv3') add('sslv3-best', 'F', 'SSLv3 is the best version supported');
  const weak = suites.filter((s) => s.bits < 112);
  if (weak.length > 0) add('weak-cipher', 'F', `suites under 112 bits accepted: ${names(weak)}`);
  const anonymous = suites.filter((s) => s.keyExchange === 'anonymous');
  if (anonymous.length > 0) add('anonymous', 'F', `anonymous suites accepted: ${names(anonymous)}`);
  if (keyExchange <= 40) add('weak-key-exchange', 'F', `key exchange score ${keyExchange} (40 or less)`);
  if (facts.certificate?.md5Signature) add('md5-signature', 'F', 'a certificate is signed with MD2 or MD5');

  if (versions.includes('SSLv3')) add('sslv3', 'C', 'SSLv3 is supported');
  if (!versions.includes('TLSv1.2') && !versions.includes('TLSv1.3'))
    add('no-tls12', 'C', 'neither TLS 1.2 nor TLS 1.3 is supported');
  const sweet32 = suites.filter((s) => s.block64 && atLeastTls11(s.version));
  if (sweet32.length > 0) add('sweet32', 'C', `64-bit block ciphers with TLS 1.1 or newer: ${names(sweet32)}`);
  const rc4Modern = suites.filter((s) => s.rc4 && atLeastTls11(s.version));
  if (rc4Modern.length > 0) add('rc4-modern', 'C', `RC4 with TLS 1.1 or newer: ${names(rc4Modern)}`);

  if (versions.includes('TLSv1')) add('tls10', 'B', 'TLS 1.0 is supported');
  if (versions.includes('TLSv1.1')) add('tls11', 'B', 'TLS 1.1 is supported');
  const rc4 = suites.filter((s) => s.rc4);
  if (rc4.length > 0) add('rc4', 'B', `RC4 accepted: ${names(rc4)}`);
  if (keyExchange === 80)
    add('key-exchange-below-2048', 'B', 'key exchange score 80 (a key or group under 2048 RSA-equivalent bits)');
  if (suites.length > 0 && !suites.some((s) => s.forwardSecrecy))
    add('no-forward-secrecy', 'B', 'no accepted suite uses ECDHE, DHE or TLS 1.3');
  if (suites.length > 0 && !suites.some((s) => s.aead)) add('no-aead', 'B', 'no accepted suite is an AEAD');
  if (facts.certificate !== null && !facts.certificate.chainComplete)
    add('incomplete-chain', 'B', 'the server does not send the issuers needed to reach a trust anchor');
  return caps;
}

/** grades.md step 5: warnings describe the configuration whatever the letter. */
export function gradeWarnings(facts: GradeFacts): GradeWarning[] {
  const warnings: GradeWarning[] = [];
  if (!facts.supportedVersions.includes('TLSv1.3'))
    warnings.push({ code: 'no-tls13', reason: 'TLS 1.3 is not supported' });
  const hsts = facts.hsts;
  if (hsts?.present && (hsts.maxAge ?? 0) < HSTS_A_PLUS_SECONDS)
    warnings.push({
      code: 'hsts-short',
      reason: `HSTS max-age ${hsts.maxAge ?? 0} is under ${HSTS_A_PLUS_SECONDS} (180 days)`,
    });
  return warnings;
}

export function gradeConfiguration(facts: GradeFacts): Grade {
  const protocol = protocolScore(facts.supportedVersions);
  const keyExchange = keyExchangeScore(facts);
  const cipher = cipherScore(facts.suites);
  const score = overallScore(protocol, keyExchange, cipher);
  const caps = gradeCaps(facts, keyExchange);
  const warnings = gradeWarnings(facts);

  let letterIgnoringTrust = caps.reduce<Letter>((letter, cap) => lower(letter, cap.cap), scoreLetter(score));
  if (letterIgnoringTrust === 'A' && caps.length === 0) {
    if (warnings.length > 0) letterIgnoringTrust = 'A-';
    else if ((facts.hsts?.maxAge ?? 0) >= HSTS_A_PLUS_SECONDS) letterIgnoringTrust = 'A+';
  }

  // Step 1, the gate: a certificate for another name, or one no browser would trust, decides the letter.
  const certificate = facts.certificate;
  let letter: Letter = letterIgnoringTrust;
  if (certificate !== null && !certificate.hostnameMatch) letter = 'M';
  else if (certificate === null || !certificate.trusted) letter = 'T';

  return {
    letter,
    letterIgnoringTrust,
    score,
    protocolScore: protocol,
    keyExchangeScore: keyExchange,
    cipherScore: cipher,
    caps,
    warnings,
  };
}
