/**
 * IP addresses as big-endian 32-bit words: one word for IPv4, four for IPv6.
 * Words let the range tables compare 128-bit addresses with plain integer
 * comparisons (no BigInt in the lookup path) and store them in Uint32Arrays.
 */
import ipaddr from 'ipaddr.js';

export type IpFamily = 4 | 6;

/** Words per address of a family: 1 for IPv4, 4 for IPv6. */
export function wordsPerAddress(family: IpFamily): 1 | 4 {
  return family === 4 ? 1 : 4;
}

export interface AddressWords {
  readonly family: IpFamily;
  readonly words: Uint32Array;
  /** The address as text, IPv4 unwrapped from a mapped form (what an MMDB reader should be asked). */
  readonly text: string;
}

/**
 * Parses a textual address for a lookup: strict dotted-quad IPv4 (no leading
 * zeros, which some parsers read as octal; RFC 6943 §3.1.1) or RFC 4291 §2.2
 * IPv6 text without a zone. Parsing is done here rather than with ipaddr.js,
 * whose parse() reads the IPv4-compatible "::1.0.0.1" as "::ffff:1.0.0.1".
 * An IPv4-mapped IPv6 address (::ffff:a.b.c.d, RFC 4291 §2.5.5.2) is looked up
 * as the IPv4 address it carries, because the data sets index IPv4 space only
 * under IPv4. Returns null for anything that is not an IP address.
 */
export function addressWords(ip: string): AddressWords | null {
  if (ip.length > 45 || !/^[0-9A-Fa-f:.]+$/.test(ip)) return null;
  const bytes = new TextEncoder().encode(ip);
  if (!ip.includes(':')) {
    const word = parseIpv4Bytes(bytes, 0, bytes.length);
    return word < 0 ? null : ipv4Address(word);
  }
  const words = new Uint32Array(4);
  if (!parseIpv6Bytes(bytes, 0, bytes.length, words, 0)) return null;
  if (words[0] === 0 && words[1] === 0 && words[2] === 0xffff) return ipv4Address(words[3]!);
  const groups = new Array<number>(8);
  for (let w = 0; w < 4; w++) {
    groups[w * 2] = words[w]! >>> 16;
    groups[w * 2 + 1] = words[w]! & 0xffff;
  }
  return { family: 6, words, text: new ipaddr.IPv6(groups).toRFC5952String() };
}

function ipv4Address(word: number): AddressWords {
  return {
    family: 4,
    words: Uint32Array.of(word),
    text: `${word >>> 24}.${(word >>> 16) & 255}.${(word >>> 8) & 255}.${word & 255}`,
  };
}

const DOT = 0x2e;
const COLON = 0x3a;

function digitValue(byte: number): number {
  return byte >= 0x30 && byte <= 0x39 ? byte - 0x30 : -1;
}

function hexValue(byte: number): number {
  if (byte >= 0x30 && byte <= 0x39) return byte - 0x30;
  if (byte >= 0x61 && byte <= 0x66) return byte - 0x61 + 10;
  if (byte >= 0x41 && byte <= 0x46) return byte - 0x41 + 10;
  return -1;
}

/**
 * Parses dotted-quad IPv4 text in bytes[from, to) (ASCII, decimal octets without
 * leading zeros, no surrounding space) into one word. Returns -1 when malformed. Reads bytes directly so that
 * building an index from a large CSV creates no intermediate strings.
 */
export function parseIpv4Bytes(bytes: Uint8Array, from: number, to: number): number {
  let value = 0;
  let octet = 0;
  let digits = 0;
  let dots = 0;
  for (let i = from; i < to; i++) {
    const b = bytes[i]!;
    if (b === DOT) {
      if (digits === 0 || dots === 3) return -1;
      value = value * 256 + octet;
      octet = 0;
      digits = 0;
      dots++;
      continue;
    }
    const d = digitValue(b);
    if (d < 0 || digits === 3 || (digits === 1 && octet === 0)) return -1;
    octet = octet * 10 + d;
    if (octet > 255) return -1;
    digits++;
  }
  if (dots !== 3 || digits === 0) return -1;
  return value * 256 + octet;
}

/**
 * Parses IPv6 text (RFC 4291 §2.2: hex groups, one "::", an optional dotted-quad
 * tail) in bytes[from, to) into four words written at out[at..at+3].
 * Returns false when malformed.
 */
export function parseIpv6Bytes(bytes: Uint8Array, from: number, to: number, out: Uint32Array, at: number): boolean {
  const groups = new Array<number>(8).fill(0);
  let count = 0;
  let gapAt = -1;
  let i = from;
  if (to - from >= 2 && bytes[i] === COLON && bytes[i + 1] === COLON) {
    gapAt = 0;
    i += 2;
  } else if (bytes[i] === COLON) {
    return false;
  }
  while (i < to) {
    if (count === 8) return false;
    // A dotted-quad tail fills the last two groups (e.g. ::ffff:192.0.2.1).
    let end = i;
    let sawDot = false;
    while (end < to && bytes[end] !== COLON) {
      if (bytes[end] === DOT) sawDot = true;
      end++;
    }
    if (sawDot) {
      if (end !== to || count > 6) return false;
      const v4 = parseIpv4Bytes(bytes, i, end);
      if (v4 < 0) return false;
      groups[count++] = Math.floor(v4 / 65536);
      groups[count++] = v4 % 65536;
      i = end;
      break;
    }
    if (end === i || end - i > 4) return false;
    let group = 0;
    for (let j = i; j < end; j++) {
      const h = hexValue(bytes[j]!);
      if (h < 0) return false;
      group = group * 16 + h;
    }
    groups[count++] = group;
    i = end;
    if (i === to) break;
    // bytes[i] is a colon; a second one marks the "::" gap.
    i++;
    if (i < to && bytes[i] === COLON) {
      if (gapAt >= 0) return false;
      gapAt = count;
      i++;
    } else if (i === to) {
      return false; // trailing single colon
    }
  }
  if (gapAt < 0 ? count !== 8 : count > 7) return false;
  const full = new Array<number>(8).fill(0);
  if (gapAt < 0) {
    for (let g = 0; g < 8; g++) full[g] = groups[g]!;
  } else {
    const tail = count - gapAt;
    for (let g = 0; g < gapAt; g++) full[g] = groups[g]!;
    for (let g = 0; g < tail; g++) full[8 - tail + g] = groups[gapAt + g]!;
  }
  for (let w = 0; w < 4; w++) out[at + w] = full[w * 2]! * 65536 + full[w * 2 + 1]!;
  return true;
}

/** Compares the address at a[ai..] with b[bi..], `width` words each: -1, 0 or 1. */
export function compareWords(a: Uint32Array, ai: number, b: Uint32Array, bi: number, width: number): number {
  for (let w = 0; w < width; w++) {
    const x = a[ai + w]!;
    const y = b[bi + w]!;
    if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}

/**
 * Writes the address after a[ai..] (width words) to out[at..]. Returns false,
 * writing nothing, when a[ai..] is the last address of the family's space.
 */
export function writeSuccessor(a: Uint32Array, ai: number, width: number, out: Uint32Array, at: number): boolean {
  let w = width - 1;
  while (w >= 0 && a[ai + w] === 0xffffffff) w--;
  if (w < 0) return false;
  for (let k = 0; k < width; k++) {
    if (k < w) out[at + k] = a[ai + k]!;
    else if (k === w) out[at + k] = a[ai + k]! + 1;
    else out[at + k] = 0;
  }
  return true;
}
