/**
 * The cipher suites tls-rating enumerates, by IANA code point, with the OpenSSL name that Node's
 * `ciphers` option takes, and what each means for the grade (docs/contract/grades.md): key exchange,
 * authentication, symmetric strength, AEAD, 64-bit block, RC4. The properties are read from the IANA
 * name, whose parts follow one pattern (RFC 5246 App. A.5: TLS_<kx>_<auth>_WITH_<cipher>_<mac>;
 * RFC 8446 §B.4: TLS_<AEAD>_<hash> for TLS 1.3).
 *
 * The list: what OpenSSL 3 implements for TLS (PSK and SRP suites left out: a client offers them only
 * with a pre-shared secret), plus the legacy suites OpenSSL 3 no longer builds (RC4, DES, 3DES, EXPORT,
 * IDEA, SEED, RC2), which only the hand-built ClientHello can offer.
 */

/** The protocol versions of the rating, oldest first. */
export const RATED_VERSIONS = ['SSLv3', 'TLSv1', 'TLSv1.1', 'TLSv1.2', 'TLSv1.3'] as const;
export type RatedVersion = (typeof RATED_VERSIONS)[number];

/** The first version a suite may be used with: GCM, CCM, ChaCha20 and SHA-256/384 MACs came with TLS 1.2. */
type Since = 'SSLv3' | 'TLSv1.2' | 'TLSv1.3';

export type KeyExchange = 'ECDHE' | 'DHE' | 'RSA' | 'ECDH' | 'DH' | 'PSK' | 'anonymous' | 'TLS1.3';

export interface CipherSuite {
  readonly code: number;
  /** the IANA name, e.g. TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256 */
  readonly name: string;
  /** OpenSSL's name (for TLS 1.3 suites the IANA name, as OpenSSL takes them) */
  readonly openssl: string;
  readonly since: Since;
  readonly keyExchange: KeyExchange;
  /** RSA, ECDSA, DSS, none; null for TLS 1.3 suites (the certificate decides) */
  readonly authentication: string | null;
  /** symmetric strength in bits: 3DES counts 112 (grades.md), NULL 0 */
  readonly bits: number;
  readonly aead: boolean;
  readonly forwardSecrecy: boolean;
  /** a 64-bit block cipher (3DES, DES, IDEA, RC2): the Sweet32 attack */
  readonly block64: boolean;
  readonly rc4: boolean;
}

type Row = readonly [code: number, name: string, openssl: string, since: Since];

const ROWS: readonly Row[] = [
  [0x0001, 'TLS_RSA_WITH_NULL_MD5', 'NULL-MD5', 'SSLv3'],
  [0x0002, 'TLS_RSA_WITH_NULL_SHA', 'NULL-SHA', 'SSLv3'],
  [0x0003, 'TLS_RSA_EXPORT_WITH_RC4_40_MD5', 'EXP-RC4-MD5', 'SSLv3'],
  [0x0004, 'TLS_RSA_WITH_RC4_128_MD5', 'RC4-MD5', 'SSLv3'],
  [0x0005, 'TLS_RSA_WITH_RC4_128_SHA', 'RC4-SHA', 'SSLv3'],
  [0x0006, 'TLS_RSA_EXPORT_WITH_RC2_CBC_40_MD5', 'EXP-RC2-CBC-MD5', 'SSLv3'],
  [0x0007, 'TLS_RSA_WITH_IDEA_CBC_SHA', 'IDEA-CBC-SHA', 'SSLv3'],
  [0x0008, 'TLS_RSA_EXPORT_WITH_DES40_CBC_SHA', 'EXP-DES-CBC-SHA', 'SSLv3'],
  [0x0009, 'TLS_RSA_WITH_DES_CBC_SHA', 'DES-CBC-SHA', 'SSLv3'],
  [0x000a, 'TLS_RSA_WITH_3DES_EDE_CBC_SHA', 'DES-CBC3-SHA', 'SSLv3'],
  [0x0011, 'TLS_DHE_DSS_EXPORT_WITH_DES40_CBC_SHA', 'EXP-EDH-DSS-DES-CBC-SHA', 'SSLv3'],
  [0x0012, 'TLS_DHE_DSS_WITH_DES_CBC_SHA', 'EDH-DSS-DES-CBC-SHA', 'SSLv3'],
  [0x0013, 'TLS_DHE_DSS_WITH_3DES_EDE_CBC_SHA', 'EDH-DSS-DES-CBC3-SHA', 'SSLv3'],
  [0x0014, 'TLS_DHE_RSA_EXPORT_WITH_DES40_CBC_SHA', 'EXP-EDH-RSA-DES-CBC-SHA', 'SSLv3'],
  [0x0015, 'TLS_DHE_RSA_WITH_DES_CBC_SHA', 'EDH-RSA-DES-CBC-SHA', 'SSLv3'],
  [0x0016, 'TLS_DHE_RSA_WITH_3DES_EDE_CBC_SHA', 'EDH-RSA-DES-CBC3-SHA', 'SSLv3'],
  [0x0017, 'TLS_DH_anon_EXPORT_WITH_RC4_40_MD5', 'EXP-ADH-RC4-MD5', 'SSLv3'],
  [0x0018, 'TLS_DH_anon_WITH_RC4_128_MD5', 'ADH-RC4-MD5', 'SSLv3'],
  [0x0019, 'TLS_DH_anon_EXPORT_WITH_DES40_CBC_SHA', 'EXP-ADH-DES-CBC-SHA', 'SSLv3'],
  [0x001a, 'TLS_DH_anon_WITH_DES_CBC_SHA', 'ADH-DES-CBC-SHA', 'SSLv3'],
  [0x001b, 'TLS_DH_anon_WITH_3DES_EDE_CBC_SHA', 'ADH-DES-CBC3-SHA', 'SSLv3'],
  [0x002f, 'TLS_RSA_WITH_AES_128_CBC_SHA', 'AES128-SHA', 'SSLv3'],
  [0x0032, 'TLS_DHE_DSS_WITH_AES_128_CBC_SHA', 'DHE-DSS-AES128-SHA', 'SSLv3'],
  [0x0033, 'TLS_DHE_RSA_WITH_AES_128_CBC_SHA', 'DHE-RSA-AES128-SHA', 'SSLv3'],
  [0x0034, 'TLS_DH_anon_WITH_AES_128_CBC_SHA', 'ADH-AES128-SHA', 'SSLv3'],
  [0x0035, 'TLS_RSA_WITH_AES_256_CBC_SHA', 'AES256-SHA', 'SSLv3'],
  [0x0038, 'TLS_DHE_DSS_WITH_AES_256_CBC_SHA', 'DHE-DSS-AES256-SHA', 'SSLv3'],
  [0x0039, 'TLS_DHE_RSA_WITH_AES_256_CBC_SHA', 'DHE-RSA-AES256-SHA', 'SSLv3'],
  [0x003a, 'TLS_DH_anon_WITH_AES_256_CBC_SHA', 'ADH-AES256-SHA', 'SSLv3'],
  [0x003b, 'TLS_RSA_WITH_NULL_SHA256', 'NULL-SHA256', 'TLSv1.2'],
  [0x003c, 'TLS_RSA_WITH_AES_128_CBC_SHA256', 'AES128-SHA256', 'TLSv1.2'],
  [0x003d, 'TLS_RSA_WITH_AES_256_CBC_SHA256', 'AES256-SHA256', 'TLSv1.2'],
  [0x0040, 'TLS_DHE_DSS_WITH_AES_128_CBC_SHA256', 'DHE-DSS-AES128-SHA256', 'TLSv1.2'],
  [0x0041, 'TLS_RSA_WITH_CAMELLIA_128_CBC_SHA', 'CAMELLIA128-SHA', 'SSLv3'],
  [0x0044, 'TLS_DHE_DSS_WITH_CAMELLIA_128_CBC_SHA', 'DHE-DSS-CAMELLIA128-SHA', 'SSLv3'],
  [0x0045, 'TLS_DHE_RSA_WITH_CAMELLIA_128_CBC_SHA', 'DHE-RSA-CAMELLIA128-SHA', 'SSLv3'],
  [0x0046, 'TLS_DH_anon_WITH_CAMELLIA_128_CBC_SHA', 'ADH-CAMELLIA128-SHA', 'SSLv3'],
  [0x0062, 'TLS_RSA_EXPORT1024_WITH_DES_CBC_SHA', 'EXP1024-DES-CBC-SHA', 'SSLv3'],
  [0x0064, 'TLS_RSA_EXPORT1024_WITH_RC4_56_SHA', 'EXP1024-RC4-SHA', 'SSLv3'],
  [0x0067, 'TLS_DHE_RSA_WITH_AES_128_CBC_SHA256', 'DHE-RSA-AES128-SHA256', 'TLSv1.2'],
  [0x006a, 'TLS_DHE_DSS_WITH_AES_256_CBC_SHA256', 'DHE-DSS-AES256-SHA256', 'TLSv1.2'],
  [0x006b, 'TLS_DHE_RSA_WITH_AES_256_CBC_SHA256', 'DHE-RSA-AES256-SHA256', 'TLSv1.2'],
  [0x006c, 'TLS_DH_anon_WITH_AES_128_CBC_SHA256', 'ADH-AES128-SHA256', 'TLSv1.2'],
  [0x006d, 'TLS_DH_anon_WITH_AES_256_CBC_SHA256', 'ADH-AES256-SHA256', 'TLSv1.2'],
  [0x0084, 'TLS_RSA_WITH_CAMELLIA_256_CBC_SHA', 'CAMELLIA256-SHA', 'SSLv3'],
  [0x0087, 'TLS_DHE_DSS_WITH_CAMELLIA_256_CBC_SHA', 'DHE-DSS-CAMELLIA256-SHA', 'SSLv3'],
  [0x0088, 'TLS_DHE_RSA_WITH_CAMELLIA_256_CBC_SHA', 'DHE-RSA-CAMELLIA256-SHA', 'SSLv3'],
  [0x0089, 'TLS_DH_anon_WITH_CAMELLIA_256_CBC_SHA', 'ADH-CAMELLIA256-SHA', 'SSLv3'],
  [0x0096, 'TLS_RSA_WITH_SEED_CBC_SHA', 'SEED-SHA', 'SSLv3'],
  [0x0099, 'TLS_DHE_DSS_WITH_SEED_CBC_SHA', 'DHE-DSS-SEED-SHA', 'SSLv3'],
  [0x009a, 'TLS_DHE_RSA_WITH_SEED_CBC_SHA', 'DHE-RSA-SEED-SHA', 'SSLv3'],
  [0x009b, 'TLS_DH_anon_WITH_SEED_CBC_SHA', 'ADH-SEED-SHA', 'SSLv3'],
  [0x009c, 'TLS_RSA_WITH_AES_128_GCM_SHA256', 'AES128-GCM-SHA256', 'TLSv1.2'],
  [0x009d, 'TLS_RSA_WITH_AES_256_GCM_SHA384', 'AES256-GCM-SHA384', 'TLSv1.2'],
  [0x009e, 'TLS_DHE_RSA_WITH_AES_128_GCM_SHA256', 'DHE-RSA-AES128-GCM-SHA256', 'TLSv1.2'],
  [0x009f, 'TLS_DHE_RSA_WITH_AES_256_GCM_SHA384', 'DHE-RSA-AES256-GCM-SHA384', 'TLSv1.2'],
  [0x00a2, 'TLS_DHE_DSS_WITH_AES_128_GCM_SHA256', 'DHE-DSS-AES128-GCM-SHA256', 'TLSv1.2'],
  [0x00a3, 'TLS_DHE_DSS_WITH_AES_256_GCM_SHA384', 'DHE-DSS-AES256-GCM-SHA384', 'TLSv1.2'],
  [0x00a6, 'TLS_DH_anon_WITH_AES_128_GCM_SHA256', 'ADH-AES128-GCM-SHA256', 'TLSv1.2'],
  [0x00a7, 'TLS_DH_anon_WITH_AES_256_GCM_SHA384', 'ADH-AES256-GCM-SHA384', 'TLSv1.2'],
  [0x00ba, 'TLS_RSA_WITH_CAMELLIA_128_CBC_SHA256', 'CAMELLIA128-SHA256', 'TLSv1.2'],
  [0x00bd, 'TLS_DHE_DSS_WITH_CAMELLIA_128_CBC_SHA256', 'DHE-DSS-CAMELLIA128-SHA256', 'TLSv1.2'],
  [0x00be, 'TLS_DHE_RSA_WITH_CAMELLIA_128_CBC_SHA256', 'DHE-RSA-CAMELLIA128-SHA256', 'TLSv1.2'],
  [0x00bf, 'TLS_DH_anon_WITH_CAMELLIA_128_CBC_SHA256', 'ADH-CAMELLIA128-SHA256', 'TLSv1.2'],
  [0x00c0, 'TLS_RSA_WITH_CAMELLIA_256_CBC_SHA256', 'CAMELLIA256-SHA256', 'TLSv1.2'],
  [0x00c3, 'TLS_DHE_DSS_WITH_CAMELLIA_256_CBC_SHA256', 'DHE-DSS-CAMELLIA256-SHA256', 'TLSv1.2'],
  [0x00c4, 'TLS_DHE_RSA_WITH_CAMELLIA_256_CBC_SHA256', 'DHE-RSA-CAMELLIA256-SHA256', 'TLSv1.2'],
  [0x00c5, 'TLS_DH_anon_WITH_CAMELLIA_256_CBC_SHA256', 'ADH-CAMELLIA256-SHA256', 'TLSv1.2'],
  [0x1301, 'TLS_AES_128_GCM_SHA256', 'TLS_AES_128_GCM_SHA256', 'TLSv1.3'],
  [0x1302, 'TLS_AES_256_GCM_SHA384', 'TLS_AES_256_GCM_SHA384', 'TLSv1.3'],
  [0x1303, 'TLS_CHACHA20_POLY1305_SHA256', 'TLS_CHACHA20_POLY1305_SHA256', 'TLSv1.3'],
  [0x1304, 'TLS_AES_128_CCM_SHA256', 'TLS_AES_128_CCM_SHA256', 'TLSv1.3'],
  [0x1305, 'TLS_AES_128_CCM_8_SHA256', 'TLS_AES_128_CCM_8_SHA256', 'TLSv1.3'],
  [0xc006, 'TLS_ECDHE_ECDSA_WITH_NULL_SHA', 'ECDHE-ECDSA-NULL-SHA', 'SSLv3'],
  [0xc007, 'TLS_ECDHE_ECDSA_WITH_RC4_128_SHA', 'ECDHE-ECDSA-RC4-SHA', 'SSLv3'],
  [0xc008, 'TLS_ECDHE_ECDSA_WITH_3DES_EDE_CBC_SHA', 'ECDHE-ECDSA-DES-CBC3-SHA', 'SSLv3'],
  [0xc009, 'TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA', 'ECDHE-ECDSA-AES128-SHA', 'SSLv3'],
  [0xc00a, 'TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA', 'ECDHE-ECDSA-AES256-SHA', 'SSLv3'],
  [0xc010, 'TLS_ECDHE_RSA_WITH_NULL_SHA', 'ECDHE-RSA-NULL-SHA', 'SSLv3'],
  [0xc011, 'TLS_ECDHE_RSA_WITH_RC4_128_SHA', 'ECDHE-RSA-RC4-SHA', 'SSLv3'],
  [0xc012, 'TLS_ECDHE_RSA_WITH_3DES_EDE_CBC_SHA', 'ECDHE-RSA-DES-CBC3-SHA', 'SSLv3'],
  [0xc013, 'TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA', 'ECDHE-RSA-AES128-SHA', 'SSLv3'],
  [0xc014, 'TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA', 'ECDHE-RSA-AES256-SHA', 'SSLv3'],
  [0xc015, 'TLS_ECDH_anon_WITH_NULL_SHA', 'AECDH-NULL-SHA', 'SSLv3'],
  [0xc016, 'TLS_ECDH_anon_WITH_RC4_128_SHA', 'AECDH-RC4-SHA', 'SSLv3'],
  [0xc017, 'TLS_ECDH_anon_WITH_3DES_EDE_CBC_SHA', 'AECDH-DES-CBC3-SHA', 'SSLv3'],
  [0xc018, 'TLS_ECDH_anon_WITH_AES_128_CBC_SHA', 'AECDH-AES128-SHA', 'SSLv3'],
  [0xc019, 'TLS_ECDH_anon_WITH_AES_256_CBC_SHA', 'AECDH-AES256-SHA', 'SSLv3'],
  [0xc023, 'TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA256', 'ECDHE-ECDSA-AES128-SHA256', 'TLSv1.2'],
  [0xc024, 'TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA384', 'ECDHE-ECDSA-AES256-SHA384', 'TLSv1.2'],
  [0xc027, 'TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA256', 'ECDHE-RSA-AES128-SHA256', 'TLSv1.2'],
  [0xc028, 'TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA384', 'ECDHE-RSA-AES256-SHA384', 'TLSv1.2'],
  [0xc02b, 'TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256', 'ECDHE-ECDSA-AES128-GCM-SHA256', 'TLSv1.2'],
  [0xc02c, 'TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384', 'ECDHE-ECDSA-AES256-GCM-SHA384', 'TLSv1.2'],
  [0xc02f, 'TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256', 'ECDHE-RSA-AES128-GCM-SHA256', 'TLSv1.2'],
  [0xc030, 'TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384', 'ECDHE-RSA-AES256-GCM-SHA384', 'TLSv1.2'],
  [0xc050, 'TLS_RSA_WITH_ARIA_128_GCM_SHA256', 'ARIA128-GCM-SHA256', 'TLSv1.2'],
  [0xc051, 'TLS_RSA_WITH_ARIA_256_GCM_SHA384', 'ARIA256-GCM-SHA384', 'TLSv1.2'],
  [0xc052, 'TLS_DHE_RSA_WITH_ARIA_128_GCM_SHA256', 'DHE-RSA-ARIA128-GCM-SHA256', 'TLSv1.2'],
  [0xc053, 'TLS_DHE_RSA_WITH_ARIA_256_GCM_SHA384', 'DHE-RSA-ARIA256-GCM-SHA384', 'TLSv1.2'],
  [0xc056, 'TLS_DHE_DSS_WITH_ARIA_128_GCM_SHA256', 'DHE-DSS-ARIA128-GCM-SHA256', 'TLSv1.2'],
  [0xc057, 'TLS_DHE_DSS_WITH_ARIA_256_GCM_SHA384', 'DHE-DSS-ARIA256-GCM-SHA384', 'TLSv1.2'],
  [0xc05c, 'TLS_ECDHE_ECDSA_WITH_ARIA_128_GCM_SHA256', 'ECDHE-ECDSA-ARIA128-GCM-SHA256', 'TLSv1.2'],
  [0xc05d, 'TLS_ECDHE_ECDSA_WITH_ARIA_256_GCM_SHA384', 'ECDHE-ECDSA-ARIA256-GCM-SHA384', 'TLSv1.2'],
  [0xc060, 'TLS_ECDHE_RSA_WITH_ARIA_128_GCM_SHA256', 'ECDHE-ARIA128-GCM-SHA256', 'TLSv1.2'],
  [0xc061, 'TLS_ECDHE_RSA_WITH_ARIA_256_GCM_SHA384', 'ECDHE-ARIA256-GCM-SHA384', 'TLSv1.2'],
  [0xc072, 'TLS_ECDHE_ECDSA_WITH_CAMELLIA_128_CBC_SHA256', 'ECDHE-ECDSA-CAMELLIA128-SHA256', 'TLSv1.2'],
  [0xc073, 'TLS_ECDHE_ECDSA_WITH_CAMELLIA_256_CBC_SHA384', 'ECDHE-ECDSA-CAMELLIA256-SHA384', 'TLSv1.2'],
  [0xc076, 'TLS_ECDHE_RSA_WITH_CAMELLIA_128_CBC_SHA256', 'ECDHE-RSA-CAMELLIA128-SHA256', 'TLSv1.2'],
  [0xc077, 'TLS_ECDHE_RSA_WITH_CAMELLIA_256_CBC_SHA384', 'ECDHE-RSA-CAMELLIA256-SHA384', 'TLSv1.2'],
  [0xc09c, 'TLS_RSA_WITH_AES_128_CCM', 'AES128-CCM', 'TLSv1.2'],
  [0xc09d, 'TLS_RSA_WITH_AES_256_CCM', 'AES256-CCM', 'TLSv1.2'],
  [0xc09e, 'TLS_DHE_RSA_WITH_AES_128_CCM', 'DHE-RSA-AES128-CCM', 'TLSv1.2'],
  [0xc09f, 'TLS_DHE_RSA_WITH_AES_256_CCM', 'DHE-RSA-AES256-CCM', 'TLSv1.2'],
  [0xc0a0, 'TLS_RSA_WITH_AES_128_CCM_8', 'AES128-CCM8', 'TLSv1.2'],
  [0xc0a1, 'TLS_RSA_WITH_AES_256_CCM_8', 'AES256-CCM8', 'TLSv1.2'],
  [0xc0a2, 'TLS_DHE_RSA_WITH_AES_128_CCM_8', 'DHE-RSA-AES128-CCM8', 'TLSv1.2'],
  [0xc0a3, 'TLS_DHE_RSA_WITH_AES_256_CCM_8', 'DHE-RSA-AES256-CCM8', 'TLSv1.2'],
  [0xc0ac, 'TLS_ECDHE_ECDSA_WITH_AES_128_CCM', 'ECDHE-ECDSA-AES128-CCM', 'TLSv1.2'],
  [0xc0ad, 'TLS_ECDHE_ECDSA_WITH_AES_256_CCM', 'ECDHE-ECDSA-AES256-CCM', 'TLSv1.2'],
  [0xc0ae, 'TLS_ECDHE_ECDSA_WITH_AES_128_CCM_8', 'ECDHE-ECDSA-AES128-CCM8', 'TLSv1.2'],
  [0xc0af, 'TLS_ECDHE_ECDSA_WITH_AES_256_CCM_8', 'ECDHE-ECDSA-AES256-CCM8', 'TLSv1.2'],
  [0xcca8, 'TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256', 'ECDHE-RSA-CHACHA20-POLY1305', 'TLSv1.2'],
  [0xcca9, 'TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256', 'ECDHE-ECDSA-CHACHA20-POLY1305', 'TLSv1.2'],
  [0xccaa, 'TLS_DHE_RSA_WITH_CHACHA20_POLY1305_SHA256', 'DHE-RSA-CHACHA20-POLY1305', 'TLSv1.2'],
];

/** Strength of the cipher part of an IANA name (the text after `_WITH_`, or the whole TLS 1.3 name). */
function cipherBits(cipher: string): number {
  if (cipher.startsWith('NULL')) return 0;
  if (cipher.startsWith('3DES_EDE')) return 112;
  if (/(^|_)DES40_/.test(cipher) || /_40_/.test(cipher)) return 40;
  if (cipher.startsWith('DES_CBC') || cipher.startsWith('RC4_56')) return 56;
  if (cipher.startsWith('CHACHA20')) return 256;
  const sized = /_(128|256)(_|$)/.exec(cipher);
  if (sized) return Number(sized[1]);
  // IDEA and SEED have 128-bit keys and no size in their names.
  if (cipher.startsWith('IDEA') || cipher.startsWith('SEED')) return 128;
  throw new RangeError(`no strength known for the cipher ${cipher}`);
}

/** The key exchange and authentication named before `_WITH_`. */
const KEY_EXCHANGES: Readonly<Record<string, { keyExchange: KeyExchange; authentication: string }>> = {
  ECDHE_RSA: { keyExchange: 'ECDHE', authentication: 'RSA' },
  ECDHE_ECDSA: { keyExchange: 'ECDHE', authentication: 'ECDSA' },
  DHE_RSA: { keyExchange: 'DHE', authentication: 'RSA' },
  DHE_DSS: { keyExchange: 'DHE', authentication: 'DSS' },
  RSA: { keyExchange: 'RSA', authentication: 'RSA' },
  DH_anon: { keyExchange: 'anonymous', authentication: 'none' },
  ECDH_anon: { keyExchange: 'anonymous', authentication: 'none' },
};

/** An export variant (`RSA_EXPORT`, `DHE_DSS_EXPORT`, `RSA_EXPORT1024`) exchanges keys as its base does. */
function keyExchangeOf(namedBeforeWith: string): { keyExchange: KeyExchange; authentication: string } | undefined {
  return KEY_EXCHANGES[namedBeforeWith.replace(/_EXPORT(1024)?$/, '')];
}

function describe(row: Row): CipherSuite {
  const [code, name, openssl, since] = row;
  const withAt = name.indexOf('_WITH_');
  const cipher = withAt < 0 ? name.slice('TLS_'.length) : name.slice(withAt + '_WITH_'.length);
  const exchange =
    withAt < 0 ? { keyExchange: 'TLS1.3' as const, authentication: null } : keyExchangeOf(name.slice(4, withAt));
  if (exchange === undefined) throw new RangeError(`no key exchange known for ${name}`);
  const { keyExchange, authentication } = exchange;
  return {
    code,
    name,
    openssl,
    since,
    keyExchange,
    authentication,
    bits: cipherBits(cipher),
    aead: /GCM|CCM|POLY1305/.test(cipher),
    // RFC 8446 §2: every TLS 1.3 key exchange is ephemeral (or PSK-only, which a rating never offers).
    forwardSecrecy: keyExchange === 'ECDHE' || keyExchange === 'DHE' || keyExchange === 'TLS1.3',
    block64: /^(3DES|DES|IDEA|RC2)/.test(cipher),
    rc4: cipher.startsWith('RC4'),
  };
}

export const CIPHER_SUITES: readonly CipherSuite[] = ROWS.map(describe);

const BY_CODE = new Map(CIPHER_SUITES.map((s) => [s.code, s]));
const BY_OPENSSL = new Map(CIPHER_SUITES.map((s) => [s.openssl, s]));
const BY_NAME = new Map(CIPHER_SUITES.map((s) => [s.name, s]));

export function suiteByCode(code: number): CipherSuite | undefined {
  return BY_CODE.get(code);
}

/** By OpenSSL name (what Node's getCipher().name says) or IANA name (its standardName). */
export function suiteByName(name: string): CipherSuite | undefined {
  return BY_OPENSSL.get(name) ?? BY_NAME.get(name);
}

const VERSION_ORDER: Readonly<Record<RatedVersion, number>> = {
  SSLv3: 0,
  TLSv1: 1,
  'TLSv1.1': 2,
  'TLSv1.2': 3,
  'TLSv1.3': 4,
};

export function versionRank(version: RatedVersion): number {
  return VERSION_ORDER[version];
}

/** Whether `suite` may be negotiated with `version`: TLS 1.3 suites only with TLS 1.3, and the reverse. */
export function usableWith(suite: CipherSuite, version: RatedVersion): boolean {
  if (version === 'TLSv1.3') return suite.since === 'TLSv1.3';
  if (suite.since === 'TLSv1.3') return false;
  return suite.since === 'SSLv3' || versionRank(version) >= VERSION_ORDER[suite.since];
}
