/**
 * IP literals and their special-purpose classes (decisions §7).
 *
 * Pure: no I/O. Parsing is strict on purpose: an IPv4 address is four decimal
 * octets without leading zeros, an IPv6 address is RFC 4291 §2.2 text. The
 * lenient forms that inet_aton and the WHATWG URL parser accept ("127.1",
 * "0x7f000001", "0177.0.0.1") are turned into dotted quads by
 * `src/validation.ts` before anything here sees them, so this module never has to
 * guess what a form means.
 *
 * The tables cover the IANA IPv4 and IPv6 Special-Purpose Address Registries
 * (RFC 6890 and the RFCs that added entries since), IPv4 multicast, and every
 * IPv6 block outside 2000::/3. Every listed block is refused, including the few
 * the registry marks "globally reachable" (anycast service addresses, AS112, AMT,
 * ORCHIDv2): none is a sensible diagnostic target and one rule is easier to audit.
 * An operator who wants one of them lists it in `targets.allow`.
 *
 * Three IPv6 forms embed an IPv4 address that a packet really ends up at, and take
 * that address's verdict: IPv4-mapped (::ffff:0:0/96, RFC 4291 §2.5.5.2), the
 * NAT64 well-known prefix (64:ff9b::/96, RFC 6052 §2.1) and 6to4 (2002::/16,
 * RFC 3056 §2). Such an address is refused when its IPv4 address is special and
 * allowed otherwise (RFC 6052 §3.1 forbids the well-known prefix for non-global
 * IPv4 anyway). The local-use NAT64 prefix 64:ff9b:1::/48 (RFC 8215) is refused
 * whole: its embedding depends on the operator's prefix length, and it is not
 * globally reachable by definition.
 */

export type IpFamily = 4 | 6;

/** An IP address as network-order bytes: 4 for IPv4, 16 for IPv6. */
export interface ParsedIp {
  readonly family: IpFamily;
  readonly bytes: Uint8Array;
}

export type AddressClass = { special: false } | { special: true; range: string };

interface SpecialBlock {
  readonly family: IpFamily;
  readonly bytes: Uint8Array;
  readonly prefixLength: number;
  readonly range: string;
}

/* ------------------------------------------------------------------ parsing */

const DOT = 0x2e;
const ZERO = 0x30;
const NINE = 0x39;
const HEX_GROUP = /^[0-9a-fA-F]{1,4}$/;

/**
 * Four decimal octets without leading zeros, read character by character: every request parses its
 * peer and forwarded addresses a few times, and a split with a pattern per octet cost a few per cent
 * of a my-ip request.
 */
function parseIpv4Bytes(text: string): Uint8Array | null {
  const bytes = new Uint8Array(4);
  let octet = 0;
  let value = 0;
  let digits = 0;
  for (let i = 0; i <= text.length; i++) {
    const c = i < text.length ? text.charCodeAt(i) : DOT;
    if (c === DOT) {
      if (digits === 0 || octet > 3) return null;
      bytes[octet++] = value;
      value = 0;
      digits = 0;
    } else if (c >= ZERO && c <= NINE) {
      if (digits > 0 && value === 0) return null; // a leading zero
      value = value * 10 + (c - ZERO);
      if (++digits > 3 || value > 255) return null;
    } else return null;
  }
  return octet === 4 ? bytes : null;
}

function parseHexGroups(text: string): number[] | null {
  if (text === '') return [];
  const groups = text.split(':');
  return groups.every((g) => HEX_GROUP.test(g)) ? groups.map((g) => parseInt(g, 16)) : null;
}

/** RFC 4291 §2.2: eight hex groups, at most one "::", optionally a dotted-quad tail. */
function parseIpv6Bytes(text: string): Uint8Array | null {
  if (!/^[0-9a-fA-F:.]+$/.test(text)) return null;
  let groupsText = text;
  let ipv4Tail: Uint8Array | null = null;
  if (text.includes('.')) {
    const lastColon = text.lastIndexOf(':');
    if (lastColon < 0) return null;
    ipv4Tail = parseIpv4Bytes(text.slice(lastColon + 1));
    if (!ipv4Tail) return null;
    // The dotted quad stands for the last two groups (RFC 4291 §2.2 form 3).
    groupsText = `${text.slice(0, lastColon + 1)}0:0`;
  }
  const halves = groupsText.split('::');
  if (halves.length > 2) return null;
  const head = parseHexGroups(halves[0]!);
  const tail = halves.length === 2 ? parseHexGroups(halves[1]!) : [];
  if (!head || !tail) return null;
  let groups: number[];
  if (halves.length === 1) {
    if (head.length !== 8) return null;
    groups = head;
  } else {
    // "::" stands for one or more zero groups.
    if (head.length + tail.length > 7) return null;
    groups = [...head, ...new Array<number>(8 - head.length - tail.length).fill(0), ...tail];
  }
  const bytes = new Uint8Array(16);
  groups.forEach((g, i) => {
    bytes[2 * i] = g >> 8;
    bytes[2 * i + 1] = g & 0xff;
  });
  if (ipv4Tail) bytes.set(ipv4Tail, 12);
  return bytes;
}

/**
 * Parses a canonical IP literal: a dotted quad of decimal octets (no leading
 * zeros), or IPv6 text without brackets or zone identifier. Null otherwise.
 */
export function parseIp(text: string): ParsedIp | null {
  if (text.includes(':')) {
    const bytes = parseIpv6Bytes(text);
    return bytes ? { family: 6, bytes } : null;
  }
  const bytes = parseIpv4Bytes(text);
  return bytes ? { family: 4, bytes } : null;
}

function formatIpv4(bytes: Uint8Array): string {
  return `${bytes[0]}.${bytes[1]}.${bytes[2]}.${bytes[3]}`;
}

/**
 * Canonical text: dotted quad, or RFC 5952 §4 IPv6 (lower case, the longest run
 * of two or more zero groups compressed, the first one on a tie). IPv4-mapped
 * addresses keep their dotted tail as RFC 5952 §5 recommends ("::ffff:192.0.2.1"),
 * which is also how Node reports such peers.
 */
export function formatIp(ip: ParsedIp): string {
  const { bytes } = ip;
  if (ip.family === 4) return formatIpv4(bytes);
  if (isIpv4Mapped(bytes)) return `::ffff:${formatIpv4(bytes.subarray(12))}`;
  const groups = Array.from({ length: 8 }, (_, i) => (bytes[2 * i]! << 8) | bytes[2 * i + 1]!);
  let bestStart = -1;
  let bestLength = 1;
  for (let i = 0; i < 8; ) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let j = i;
    while (j < 8 && groups[j] === 0) j++;
    if (j - i > bestLength) {
      bestStart = i;
      bestLength = j - i;
    }
    i = j;
  }
  const hex = groups.map((g) => g.toString(16));
  if (bestStart < 0) return hex.join(':');
  return `${hex.slice(0, bestStart).join(':')}::${hex.slice(bestStart + bestLength).join(':')}`;
}

function parseOrThrow(text: string): ParsedIp {
  const parsed = parseIp(text);
  if (!parsed) throw new TypeError(`"${text}" is not an IP address`);
  return parsed;
}

/* --------------------------------------------------------------- prefixes */

function matchesPrefix(bytes: Uint8Array, prefix: Uint8Array, prefixLength: number): boolean {
  const whole = prefixLength >> 3;
  for (let i = 0; i < whole; i++) if (bytes[i] !== prefix[i]) return false;
  const rest = prefixLength & 7;
  if (rest === 0) return true;
  const mask = (0xff << (8 - rest)) & 0xff;
  return (bytes[whole]! & mask) === (prefix[whole]! & mask);
}

function parsePrefix(cidr: string): { ip: ParsedIp; prefixLength: number } {
  const slash = cidr.indexOf('/');
  const ip = parseOrThrow(slash < 0 ? cidr : cidr.slice(0, slash));
  const maxLength = ip.family === 4 ? 32 : 128;
  if (slash < 0) return { ip, prefixLength: maxLength };
  const lengthText = cidr.slice(slash + 1);
  const prefixLength = Number(lengthText);
  if (!/^[0-9]{1,3}$/.test(lengthText) || prefixLength > maxLength) {
    throw new TypeError(`"${cidr}" has an invalid prefix length; expected 0–${maxLength}`);
  }
  return { ip, prefixLength };
}

const IPV4_MAPPED_PREFIX = parseOrThrow('::ffff:0:0').bytes;
const NAT64_WELL_KNOWN_PREFIX = parseOrThrow('64:ff9b::').bytes;
const SIX_TO_FOUR_PREFIX = parseOrThrow('2002::').bytes;
const GLOBAL_UNICAST_PREFIX = parseOrThrow('2000::').bytes;

function isIpv4Mapped(bytes: Uint8Array): boolean {
  return bytes.length === 16 && matchesPrefix(bytes, IPV4_MAPPED_PREFIX, 96);
}

/* ----------------------------------------------------------- the registries */

const SPECIAL_BLOCK_TABLE: readonly (readonly [cidr: string, range: string])[] = [
  // IANA IPv4 Special-Purpose Address Registry (RFC 6890 §2.2.2 and later entries)
  ['0.0.0.0/8', 'current-network'], // RFC 791 §3.2, RFC 1122 §3.2.1.3: "this network", never a destination
  ['0.0.0.0/32', 'unspecified'], // RFC 1122 §3.2.1.3; on Linux a connect() to it reaches the local host
  ['10.0.0.0/8', 'private'], // RFC 1918
  ['100.64.0.0/10', 'carrier-grade NAT'], // RFC 6598 shared address space
  ['127.0.0.0/8', 'loopback'], // RFC 1122 §3.2.1.3
  ['169.254.0.0/16', 'link-local'], // RFC 3927 (cloud metadata services live here)
  ['172.16.0.0/12', 'private'], // RFC 1918
  ['192.0.0.0/24', 'IETF protocol assignment'], // RFC 6890 §2.2.2
  ['192.0.0.0/29', 'DS-Lite'], // RFC 7335 IPv4 service continuity prefix
  ['192.0.0.8/32', 'IPv4 dummy'], // RFC 7600
  ['192.0.0.9/32', 'PCP anycast'], // RFC 7723
  ['192.0.0.10/32', 'TURN anycast'], // RFC 8155
  ['192.0.0.170/31', 'NAT64 discovery'], // RFC 7050 §2.2, RFC 8880 (192.0.0.170 and .171)
  ['192.0.2.0/24', 'documentation'], // RFC 5737 TEST-NET-1
  ['192.31.196.0/24', 'AS112'], // RFC 7535
  ['192.52.193.0/24', 'AMT'], // RFC 7450 automatic multicast tunnelling
  ['192.88.99.0/24', '6to4 relay anycast'], // RFC 3068, deprecated by RFC 7526
  ['192.168.0.0/16', 'private'], // RFC 1918
  ['192.175.48.0/24', 'AS112'], // RFC 7534 direct delegation AS112 service
  ['198.18.0.0/15', 'benchmarking'], // RFC 2544 §C.2.2
  ['198.51.100.0/24', 'documentation'], // RFC 5737 TEST-NET-2
  ['203.0.113.0/24', 'documentation'], // RFC 5737 TEST-NET-3
  ['224.0.0.0/4', 'multicast'], // RFC 5771
  ['240.0.0.0/4', 'reserved'], // RFC 1112 §4 "future use"
  ['255.255.255.255/32', 'limited-broadcast'], // RFC 919 §7, RFC 8190

  // IANA IPv6 Special-Purpose Address Registry (RFC 6890 §2.2.3 and later entries)
  ['::/128', 'unspecified'], // RFC 4291 §2.5.2
  ['::1/128', 'loopback'], // RFC 4291 §2.5.3
  ['64:ff9b:1::/48', 'local-use NAT64'], // RFC 8215
  ['100::/64', 'discard-only'], // RFC 6666
  ['2001::/23', 'IETF protocol assignment'], // RFC 2928
  ['2001::/32', 'Teredo'], // RFC 4380 (the server and client IPv4 addresses are embedded)
  ['2001:1::1/128', 'PCP anycast'], // RFC 7723
  ['2001:1::2/128', 'TURN anycast'], // RFC 8155
  ['2001:1::3/128', 'DNS-SD SRP anycast'], // RFC 9665
  ['2001:2::/48', 'benchmarking'], // RFC 5180 (errata 1752)
  ['2001:3::/32', 'AMT'], // RFC 7450
  ['2001:4:112::/48', 'AS112'], // RFC 7535
  ['2001:10::/28', 'ORCHID'], // RFC 4843, deprecated
  ['2001:20::/28', 'ORCHIDv2'], // RFC 7343
  ['2001:30::/28', 'drone remote ID'], // RFC 9374 DRIP entity tags
  ['2001:db8::/32', 'documentation'], // RFC 3849
  ['2620:4f:8000::/48', 'AS112'], // RFC 7534
  ['3fff::/20', 'documentation'], // RFC 9637
  ['5f00::/16', 'SRv6 SID'], // RFC 9602
  ['fc00::/7', 'unique-local'], // RFC 4193
  ['fe80::/10', 'link-local'], // RFC 4291 §2.5.6
  ['fec0::/10', 'site-local'], // RFC 3879 deprecated it; still never a public destination
  ['ff00::/8', 'multicast'], // RFC 4291 §2.7
];

/** The blocks, most specific first, so the first match names the narrowest range. */
export const SPECIAL_PURPOSE_BLOCKS: readonly SpecialBlock[] = SPECIAL_BLOCK_TABLE.map(([cidr, range]) => {
  const { ip, prefixLength } = parsePrefix(cidr);
  return { family: ip.family, bytes: ip.bytes, prefixLength, range };
}).sort((a, b) => b.prefixLength - a.prefixLength);

function classifyParsed(ip: ParsedIp): AddressClass {
  const { bytes } = ip;
  if (ip.family === 6) {
    const embedded = embeddedIpv4(bytes);
    if (embedded) {
      const inner = classifyParsed({ family: 4, bytes: embedded.bytes });
      return inner.special ? { special: true, range: `${embedded.form} ${inner.range}` } : inner;
    }
  }
  for (const block of SPECIAL_PURPOSE_BLOCKS) {
    if (block.family === ip.family && matchesPrefix(bytes, block.bytes, block.prefixLength)) {
      return { special: true, range: block.range };
    }
  }
  // RFC 4291 §2.4 and the IANA IPv6 Address Space registry: only 2000::/3 is
  // allocated as global unicast; everything else not named above is reserved by the IETF
  // (this covers IPv4-compatible ::a.b.c.d, deprecated by RFC 4291 §2.5.5.1).
  if (ip.family === 6 && !matchesPrefix(bytes, GLOBAL_UNICAST_PREFIX, 3)) return { special: true, range: 'reserved' };
  return { special: false };
}

function embeddedIpv4(bytes: Uint8Array): { form: string; bytes: Uint8Array } | null {
  if (matchesPrefix(bytes, IPV4_MAPPED_PREFIX, 96)) return { form: 'IPv4-mapped', bytes: bytes.subarray(12) };
  if (matchesPrefix(bytes, NAT64_WELL_KNOWN_PREFIX, 96)) return { form: 'NAT64 of', bytes: bytes.subarray(12) };
  // RFC 3056 §2: 2002:V4ADDR::/48.
  if (matchesPrefix(bytes, SIX_TO_FOUR_PREFIX, 16)) return { form: '6to4 of', bytes: bytes.subarray(2, 6) };
  return null;
}

/**
 * Classifies an IP literal in canonical form (see `parseIp`). An IPv6 zone
 * identifier ("fe80::1%eth0", as a socket may report it) is ignored. Throws a
 * TypeError for text that is not an IP address.
 */
export function classifyAddress(ip: string): AddressClass {
  const zone = ip.indexOf('%');
  const address = zone >= 0 && ip.includes(':') ? ip.slice(0, zone) : ip;
  return classifyParsed(parseOrThrow(address));
}

/* ----------------------------------------------------------------- CIDR sets */

/** A compiled list of CIDRs; an IPv4 CIDR also matches the IPv4-mapped IPv6 form and vice versa. */
export interface CidrSet {
  has(ip: string): boolean;
}

/** Compiles CIDRs ("10.0.0.0/8", "2001:db8::/32") or bare addresses (/32, /128). Throws a TypeError on a bad entry. */
export function compileCidrs(cidrs: readonly string[]): CidrSet {
  const prefixes = cidrs.map(parsePrefix);
  return {
    has(ip: string): boolean {
      const forms = equivalentForms(parseOrThrow(ip));
      return prefixes.some((p) =>
        forms.some((f) => f.family === p.ip.family && matchesPrefix(f.bytes, p.ip.bytes, p.prefixLength)),
      );
    },
  };
}

function equivalentForms(ip: ParsedIp): ParsedIp[] {
  if (ip.family === 6) return isIpv4Mapped(ip.bytes) ? [ip, { family: 4, bytes: ip.bytes.subarray(12) }] : [ip];
  const mapped = new Uint8Array(16);
  mapped.set(IPV4_MAPPED_PREFIX.subarray(0, 12));
  mapped.set(ip.bytes, 12);
  return [ip, { family: 6, bytes: mapped }];
}

/** Compiled sets by list identity: configuration lists are frozen and asked on every request. */
const compiledLists = new WeakMap<readonly string[], CidrSet>();

/** Whether `ip` lies in any of `cidrs` (see `compileCidrs`). Throws a TypeError on malformed input. */
export function isInCidrs(ip: string, cidrs: readonly string[]): boolean {
  let set = compiledLists.get(cidrs);
  if (!set) compiledLists.set(cidrs, (set = compileCidrs(cidrs)));
  return set.has(ip);
}

/**
 * Canonical text and family of an IP literal; an IPv4-mapped IPv6 address is
 * reported as the IPv4 address it stands for (decisions §5, my-ip). Throws a
 * TypeError for text that is not an IP address.
 */
export function normaliseIp(ip: string): { ip: string; family: IpFamily } {
  const parsed = parseOrThrow(ip);
  if (parsed.family === 6 && isIpv4Mapped(parsed.bytes))
    return { ip: formatIpv4(parsed.bytes.subarray(12)), family: 4 };
  return { ip: formatIp(parsed), family: parsed.family };
}

/**
 * The special-purpose range of an address, unless `targets.allow` treats it as public here
 * (configuration.md): the rule every check applies, whether it connects (the target guard) or only
 * asks about the address (dns-blacklist-checker, mailhealth-check). null for an address to go ahead with.
 */
export function refusedRange(ip: string, allow: readonly string[]): string | null {
  if (isInCidrs(ip, allow)) return null;
  const verdict = classifyAddress(ip);
  return verdict.special ? verdict.range : null;
}
