/**
 * Record type mnemonics and numbers (IANA "Resource Record (RR) TYPEs"): what type bit maps
 * (RFC 4034 §4.1.2) and the RRSIG's Type Covered field are written with. Unknown types read as
 * "TYPE<n>" (RFC 3597 §5); dns-packet writes them "UNKNOWN_<n>".
 */
const NUMBERS: Readonly<Record<string, number>> = {
  A: 1,
  NS: 2,
  CNAME: 5,
  SOA: 6,
  PTR: 12,
  HINFO: 13,
  MX: 15,
  TXT: 16,
  RP: 17,
  AFSDB: 18,
  SIG: 24,
  KEY: 25,
  AAAA: 28,
  LOC: 29,
  SRV: 33,
  NAPTR: 35,
  KX: 36,
  CERT: 37,
  DNAME: 39,
  OPT: 41,
  APL: 42,
  DS: 43,
  SSHFP: 44,
  IPSECKEY: 45,
  RRSIG: 46,
  NSEC: 47,
  DNSKEY: 48,
  DHCID: 49,
  NSEC3: 50,
  NSEC3PARAM: 51,
  TLSA: 52,
  SMIMEA: 53,
  HIP: 55,
  CDS: 59,
  CDNSKEY: 60,
  OPENPGPKEY: 61,
  CSYNC: 62,
  ZONEMD: 63,
  SVCB: 64,
  HTTPS: 65,
  SPF: 99,
  TKEY: 249,
  TSIG: 250,
  ANY: 255,
  URI: 256,
  CAA: 257,
  DLV: 32769,
};

const NAMES = new Map(Object.entries(NUMBERS).map(([name, number]) => [number, name]));

/** The type number of a mnemonic, "TYPE<n>" or "UNKNOWN_<n>"; null when none of these. */
export function typeNumber(mnemonic: string): number | null {
  const upper = mnemonic.toUpperCase();
  const known = NUMBERS[upper];
  if (known !== undefined) return known;
  const generic = /^(?:TYPE|UNKNOWN_)(\d+)$/.exec(upper);
  return generic ? Number(generic[1]) : null;
}

export function typeMnemonic(number: number): string {
  return NAMES.get(number) ?? `TYPE${number}`;
}

export function sameType(a: string, b: string): boolean {
  const left = typeNumber(a);
  return left !== null && left === typeNumber(b);
}
