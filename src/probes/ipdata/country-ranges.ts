/**
 * The country MMDB's search tree turned into boundaries, the layout of the ASN
 * index (./asn-index.ts): a sorted list of addresses and, parallel to it, the
 * country that holds from each one up to the next (0 = no data), so that the
 * IP data file (./ip-data-file.ts) can hold ASN and country in one table.
 *
 * The tree (MaxMind DB format 2.0, "Search Tree Section"): node n sits at byte
 * n × recordSize / 4 and holds two records, the left (bit 0) and the right (bit
 * 1) branch. A record below nodeCount is another node, nodeCount itself is "no
 * data", and above it a pointer into the data section, which the reader decodes.
 * A depth-first walk, left before right, meets the networks in address order.
 *
 * IPv4 lives in the IPv6 tree under ::/96 (the walk of IPv4 starts there); the
 * aliases a writer may add (::ffff:0:0/96, 2002::/16) point back at that node and
 * are not repeated in the IPv6 table: a mapped address is looked up as IPv4
 * (./address-words.ts), and the other forms are special-purpose addresses that no
 * lookup asks about.
 */
import type { Reader, Response } from 'maxmind';
import type { IpFamily } from './address-words.js';

/** Boundaries and the country code holding from each one ((first letter << 8) | second; 0 = none). */
export interface CountryTable {
  readonly width: 1 | 4;
  readonly boundaries: Uint32Array;
  readonly codes: Uint32Array;
}

/** "US" → 0x5553; anything that is not two ASCII letters → 0. */
export function encodeCountry(code: unknown): number {
  return typeof code === 'string' && /^[A-Za-z]{2}$/.test(code)
    ? (code.toUpperCase().charCodeAt(0) << 8) | code.toUpperCase().charCodeAt(1)
    : 0;
}

export function decodeCountry(value: number): string | null {
  return value === 0 ? null : String.fromCharCode(value >>> 8, value & 0xff);
}

type Tree = Pick<Reader<Response>, 'get' | 'metadata'>;

/** Reads both records of a node for the record sizes the format allows (24, 28, 32 bits). */
function recordReader(db: Buffer, recordSize: number): (node: number, bit: 0 | 1) => number {
  const nodeBytes = recordSize / 4;
  if (recordSize === 24) return (node, bit) => db.readUIntBE(node * nodeBytes + bit * 3, 3);
  if (recordSize === 28)
    return (node, bit) => {
      const at = node * nodeBytes;
      const middle = db[at + 3]!;
      return bit === 0
        ? ((middle & 0xf0) << 20) | db.readUIntBE(at, 3)
        : ((middle & 0x0f) << 24) | db.readUIntBE(at + 4, 3);
    };
  if (recordSize === 32) return (node, bit) => db.readUInt32BE(node * nodeBytes + bit * 4);
  throw new Error(`unsupported MMDB record size ${recordSize}`);
}

function addressText(family: IpFamily, words: Uint32Array): string {
  if (family === 4)
    return `${words[0]! >>> 24}.${(words[0]! >>> 16) & 255}.${(words[0]! >>> 8) & 255}.${words[0]! & 255}`;
  const groups: string[] = [];
  for (const word of words) groups.push((word >>> 16).toString(16), (word & 0xffff).toString(16));
  return groups.join(':');
}

/**
 * The country table of one family. `db` is the file the reader was opened on
 * (the walk reads the tree from it; the reader decodes the records).
 */
export function countryTable(reader: Tree, db: Buffer, family: IpFamily): CountryTable {
  const { nodeCount, recordSize, ipVersion } = reader.metadata;
  const width = family === 4 ? 1 : 4;
  if (family === 6 && ipVersion === 4) return { width, boundaries: new Uint32Array(0), codes: new Uint32Array(0) };
  const record = recordReader(db, recordSize);
  const bits = family === 4 ? 32 : 128;

  // IPv4 starts 96 left turns down an IPv6 tree (or at the root of an IPv4 one).
  let ipv4Start = 0;
  if (ipVersion === 6) for (let i = 0; i < 96 && ipv4Start < nodeCount; i++) ipv4Start = record(ipv4Start, 0);
  const root = family === 4 ? ipv4Start : 0;

  const boundaries: number[] = [];
  const codes: number[] = [];
  const codeByPointer = new Map<number, number>();
  const words = new Uint32Array(width);
  /** The value holding from the current `words` on; merges neighbours of the same country. */
  const emit = (code: number): void => {
    if (codes.length > 0 ? codes[codes.length - 1] === code : code === 0) return;
    for (const word of words) boundaries.push(word);
    codes.push(code);
  };
  const countryOf = (value: number): number => {
    if (value === nodeCount) return 0;
    let code = codeByPointer.get(value);
    if (code === undefined) {
      code = encodeCountry((reader.get(addressText(family, words)) as { country_code?: unknown } | null)?.country_code);
      codeByPointer.set(value, code);
    }
    return code;
  };
  const setBit = (depth: number, on: boolean): void => {
    const w = width === 1 ? 0 : depth >>> 5;
    const mask = 1 << (31 - (depth & 31));
    words[w] = on ? (words[w]! | mask) >>> 0 : (words[w]! & ~mask) >>> 0;
  };
  const clearBelow = (depth: number): void => {
    for (let d = depth; d < bits; d++) setBit(d, false);
  };

  // Iterative depth-first walk; each frame is a node and the depth of its records.
  const stack: Array<[node: number, depth: number, bit: 0 | 1]> = [[root, 0, 0]];
  while (stack.length > 0) {
    const frame = stack.pop()!;
    const [node, depth, bit] = frame;
    if (bit === 0) stack.push([node, depth, 1]);
    setBit(depth, bit === 1);
    clearBelow(depth + 1);
    const value = record(node, bit);
    if (value < nodeCount && depth + 1 < bits && !(family === 6 && value === ipv4Start && ipVersion === 6)) {
      stack.push([value, depth + 1, 0]);
    } else if (value < nodeCount) {
      // The IPv4 subtree (or an alias of it) inside the IPv6 walk, or a malformed tree deeper than the address.
      emit(0);
    } else {
      emit(countryOf(value));
    }
  }
  return { width, boundaries: Uint32Array.from(boundaries), codes: Uint32Array.from(codes) };
}
