/**
 * Test vectors from the RFCs, in presentation format as the RFCs print them (whitespace joined):
 * RFC 4034 §2.3/§3.3/§5.4, RFC 4509 §2.3, RFC 5702 §6, RFC 6605 §6, RFC 8080 §6, RFC 5155 Appendix A.
 */
/** RFC 4034 §3.2: YYYYMMDDHHmmSS in UTC as seconds since the epoch. */
export function rrsigTime(text: string): number {
  const [y, mo, d, h, mi, s] = [0, 4, 6, 8, 10, 12].map((at, i) => Number(text.slice(at, at + (i === 0 ? 4 : 2))));
  return Date.UTC(y!, mo! - 1, d!, h!, mi!, s!) / 1000;
}

export const RFC4034_DSKEY = {
  owner: 'dskey.example.com',
  flags: 256,
  algorithm: 5,
  publicKey:
    'AQOeiiR0GOMYkDshWoSKz9XzfwJr1AYtsmx3TGkJaNXVbfi/2pHm822aJ5iI9BMzNXxeYCmZDRD99WYwYqUSdjMmmAphXdvxegXd/M5+X7OrzKBaMbCVdFLUUh6DhweJBjEVv5f2wwjM9XzcnOf+EPbtG9DMBmADjFDc2w/rljwvFw==',
  keyTag: 60485,
  /** RFC 4034 §5.4 */
  sha1: '2BB183AF5F22588179A53B0A98631FAD1A292118',
  /** RFC 4509 §2.3 */
  sha256: 'D4B7D520E7BB5F0F67674A0CCEB1E3E0614B93C4F9E99B8383F6A1E4469DA50A',
};

/** RFC 5702 §6.1 (RSA/SHA-256, a 512-bit key) and §6.2 (RSA/SHA-512): www.example.net. 3600 IN A 192.0.2.91. */
export const RFC5702 = [
  {
    name: 'RSASHA256',
    algorithm: 8,
    keyTag: 9033,
    bits: 512,
    publicKey: 'AwEAAcFcGsaxxdgiuuGmCkVImy4h99CqT7jwY3pexPGcnUFtR2Fh36BponcwtkZ4cAgtvd4Qs8PkxUdp6p/DlUmObdk=',
    signature: 'kRCOH6u7l0QGy9qpC9l1sLncJcOKFLJ7GhiUOibu4teYp5VE9RncriShZNz85mwlMgNEacFYK/lPtPiVYP4bwg==',
  },
  {
    name: 'RSASHA512',
    algorithm: 10,
    keyTag: 3740,
    bits: 1024,
    publicKey:
      'AwEAAdHoNTOW+et86KuJOWRDp1pndvwb6Y83nSVXXyLA3DLroROUkN6X0O6pnWnjJQujX/AyhqFDxj13tOnD9u/1kTg7cV6rklMrZDtJCQ5PCl/D7QNPsgVsMu1J2Q8gpMpztNFLpPBz1bWXjDtaR7ZQBlZ3PFY12ZTSncorffcGmhOL',
    signature:
      'tsb4wnjRUDnB1BUi+t6TMTXThjVnG+eCkWqjvvjhzQL1d0YRoOe0CbxrVDYd0xDtsuJRaeUw1ep94PzEWzr0iGYgZBWm/zpq+9fOuagYJRfDqfReKBzMweOLDiNa8iP5g9vMhpuv6OPlvpXwm9Sa9ZXIbNl1MBGk0fthPgxdDLw=',
  },
].map((v) => ({
  ...v,
  owner: 'example.net',
  record: { name: 'www.example.net', type: 'A', ttl: 3600, data: '192.0.2.91' },
  rrsig: {
    labels: 3,
    originalTtl: 3600,
    expiration: rrsigTime('20300101000000'),
    inception: rrsigTime('20000101000000'),
  },
}));

/** RFC 6605 §6.1 (P-256) and §6.2 (P-384): www.example.net. 3600 IN A 192.0.2.1. */
export const RFC6605 = [
  {
    name: 'ECDSAP256SHA256',
    algorithm: 13,
    keyTag: 55648,
    bits: 256,
    publicKey: 'GojIhhXUN/u4v54ZQqGSnyhWJwaubCvTmeexv7bR6edbkrSqQpF64cYbcB7wNcP+e+MAnLr+Wi9xMWyQLc8NAA==',
    ds: { digestType: 2, digest: 'B4C8C1FE2E7477127B27115656AD6256F424625BF5C1E2770CE6D6E37DF61D17' },
    signature: 'qx6wLYqmh+l9oCKTN6qIc+bw6ya+KJ8oMz0YP107epXAyGmt+3SNruPFKG7tZoLBLlUzGGus7ZwmwWep666VCw==',
    inception: rrsigTime('20100812100439'),
    expiration: rrsigTime('20100909100439'),
  },
  {
    name: 'ECDSAP384SHA384',
    algorithm: 14,
    keyTag: 10771,
    bits: 384,
    publicKey:
      'xKYaNhWdGOfJ+nPrL8/arkwf2EY3MDJ+SErKivBVSum1w/egsXvSADtNJhyem5RCOpgQ6K8X1DRSEkrbYQ+OB+v8/uX45NBwY8rp65F6Glur8I/mlVNgF6W/qTI37m40',
    ds: {
      digestType: 4,
      digest: '72D7B62976CE06438E9C0BF319013CF801F09ECC84B8D7E9495F27E305C6A9B0563A9B5F4D288405C3008A946DF983D6',
    },
    signature:
      '/L5hDKIvGDyI1fcARX3z65qrmPsVz73QD1Mr5CEqOiLP95hxQouuroGCeZOvzFaxsT8Glr74hbavRKayJNuydCuzWTSSPdz7wnqXL5bdcJzusdnI0RSMROxxwGipWcJm',
    inception: rrsigTime('20100812102025'),
    expiration: rrsigTime('20100909102025'),
  },
].map((v) => ({
  ...v,
  owner: 'example.net',
  record: { name: 'www.example.net', type: 'A', ttl: 3600, data: '192.0.2.1' },
}));

/**
 * RFC 8080 §6: the example keys, their tags and DS digests, and the private keys (seeds). The RFC's
 * example signatures are known not to verify (the RRSIG texts lack fields), so the tests sign
 * example.com. 3600 IN MX 10 mail.example.com. with the seeds (EdDSA is deterministic) and verify.
 */
export const RFC8080 = [
  {
    name: 'ED25519',
    algorithm: 15,
    keyTag: 3613,
    bits: 255,
    seed: 'ODIyNjAzODQ2MjgwODAxMjI2NDUxOTAyMDQxNDIyNjI=',
    publicKey: 'l02Woi0iS8Aa25FQkUd9RMzZHJpBoRQwAQEX1SxZJA4=',
    ds: { digestType: 2, digest: '3AA5AB37EFCE57F737FC1627013FEE07BDF241BD10F3B1964AB55C78E79A304B' },
  },
  {
    name: 'ED448',
    algorithm: 16,
    keyTag: 9713,
    bits: 448,
    seed: 'xZ+5Cgm463xugtkY5B0Jx6erFTXp13rYegst0qRtNsOYnaVpMx0Z/c5EiA9x8wWbDDct/U3FhYWA',
    publicKey: '3kgROaDjrh0H2iuixWBrc8g2EpBBLCdGzHmn+G2MpTPhpj/OiBVHHSfPodx1FYYUcJKm1MDpJtIA',
    ds: { digestType: 2, digest: '6CCF18D5BC5D7FC2FCEB1D59D17321402F2AA8D368048DB93DD811F5CB2B19C7' },
  },
].map((v) => ({ ...v, owner: 'example.com' }));

/** RFC 5155 Appendix A: H(name) with salt aabbccdd and 12 iterations. */
export const RFC5155_HASHES: readonly (readonly [string, string])[] = [
  ['example', '0p9mhaveqvm6t7vbl5lop2u3t2rp3tom'],
  ['a.example', '35mthgpgcu1qg68fab165klnsnk3dpvl'],
  ['ai.example', 'gjeqe526plbf1g8mklp59enfd789njgi'],
  ['ns1.example', '2t7b4g4vsa5smi47k61mv5bv1a22bojr'],
  ['ns2.example', 'q04jkcevqvmu85r014c7dkba38o0ji5r'],
  ['w.example', 'k8udemvp1j2f7eg6jebps17vp3n8i58h'],
  ['*.w.example', 'r53bq7cc2uvmubfu5ocmm6pers9tk9en'],
  ['x.w.example', 'b4um86eghhds6nea196smvmlo4ors995'],
  ['y.w.example', 'ji6neoaepv8b5o6k4ev33abha8ht9fgc'],
  ['x.y.w.example', '2vptu5timamqttgl4luu9kg21e0aor3s'],
  ['xx.example', 't644ebqk9bibcna874givr6joj62mlhv'],
  ['2t7b4g4vsa5smi47k61mv5bv1a22bojr.example', 'kohar7mbb8dc2ce8a9qvl8hon4k53uhi'],
];

/** RFC 5155 Appendix A: the example zone's NSEC3 chain (NSEC3 1 1 12 aabbccdd, every record with Opt-Out). */
export const RFC5155_CHAIN: readonly (readonly [string, string, readonly string[]])[] = [
  [
    '0p9mhaveqvm6t7vbl5lop2u3t2rp3tom',
    '2t7b4g4vsa5smi47k61mv5bv1a22bojr',
    ['MX', 'DNSKEY', 'NS', 'SOA', 'NSEC3PARAM', 'RRSIG'],
  ],
  ['2t7b4g4vsa5smi47k61mv5bv1a22bojr', '2vptu5timamqttgl4luu9kg21e0aor3s', ['A', 'RRSIG']],
  ['2vptu5timamqttgl4luu9kg21e0aor3s', '35mthgpgcu1qg68fab165klnsnk3dpvl', ['MX', 'RRSIG']],
  ['35mthgpgcu1qg68fab165klnsnk3dpvl', 'b4um86eghhds6nea196smvmlo4ors995', ['NS', 'DS', 'RRSIG']],
  ['b4um86eghhds6nea196smvmlo4ors995', 'gjeqe526plbf1g8mklp59enfd789njgi', ['MX', 'RRSIG']],
  ['gjeqe526plbf1g8mklp59enfd789njgi', 'ji6neoaepv8b5o6k4ev33abha8ht9fgc', ['A', 'HINFO', 'AAAA', 'RRSIG']],
  ['ji6neoaepv8b5o6k4ev33abha8ht9fgc', 'k8udemvp1j2f7eg6jebps17vp3n8i58h', []],
  ['k8udemvp1j2f7eg6jebps17vp3n8i58h', 'kohar7mbb8dc2ce8a9qvl8hon4k53uhi', []],
  ['kohar7mbb8dc2ce8a9qvl8hon4k53uhi', 'q04jkcevqvmu85r014c7dkba38o0ji5r', ['A', 'RRSIG']],
  ['q04jkcevqvmu85r014c7dkba38o0ji5r', 'r53bq7cc2uvmubfu5ocmm6pers9tk9en', ['A', 'RRSIG']],
  ['r53bq7cc2uvmubfu5ocmm6pers9tk9en', 't644ebqk9bibcna874givr6joj62mlhv', ['MX', 'RRSIG']],
  ['t644ebqk9bibcna874givr6joj62mlhv', '0p9mhaveqvm6t7vbl5lop2u3t2rp3tom', ['A', 'HINFO', 'AAAA', 'RRSIG']],
];

/** RFC 4035 Appendix A: the example zone's NSEC chain. */
export const RFC4035_NSEC_CHAIN: readonly (readonly [string, string, readonly string[]])[] = [
  ['example', 'a.example', ['NS', 'SOA', 'MX', 'RRSIG', 'NSEC', 'DNSKEY']],
  ['a.example', 'ai.example', ['NS', 'DS', 'RRSIG', 'NSEC']],
  ['ai.example', 'b.example', ['A', 'HINFO', 'AAAA', 'RRSIG', 'NSEC']],
  ['b.example', 'ns1.example', ['NS', 'RRSIG', 'NSEC']],
  ['ns1.example', 'ns2.example', ['A', 'RRSIG', 'NSEC']],
  ['ns2.example', '*.w.example', ['A', 'RRSIG', 'NSEC']],
  ['*.w.example', 'x.w.example', ['MX', 'RRSIG', 'NSEC']],
  ['x.w.example', 'x.y.w.example', ['MX', 'RRSIG', 'NSEC']],
  ['x.y.w.example', 'xx.example', ['MX', 'RRSIG', 'NSEC']],
  ['xx.example', 'example', ['A', 'HINFO', 'AAAA', 'RRSIG', 'NSEC']],
];
