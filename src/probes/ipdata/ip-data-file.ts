/**
 * The bundled IP data as one file the service reads on demand instead of holding
 * it in every process (the memory it saves per worker: docs/performance.md "Measured reasons behind design choices").
 * The operating system's page cache keeps the parts that are asked for, once for
 * all workers.
 *
 * Layout (little-endian; every section starts at a multiple of 4):
 *   header     8 words: "NDIP", FORMAT_VERSION, IPv4 rows, IPv6 rows, ASNs, names, name bytes, 0
 *   IPv4 rows  [boundary, asn, country] per row (3 words)
 *   IPv6 rows  [boundary (4 words), asn, country] per row (6 words)
 *   ASNs       the sorted AS numbers, then for each the index of its organisation name
 *   names      name i is bytes [offsets[i], offsets[i+1]) of the UTF-8 that follows
 * A row holds from its boundary up to the next row's (./asn-index.ts, ./country-ranges.ts).
 *
 * Opening the file reads every ROWS_PER_BLOCK-th boundary and the ASN and name
 * tables (a small part of the file); a lookup finds its block in memory, reads that block
 * (at most 1.5 KiB) and the organisation name.
 */
import { open, rename, writeFile, type FileHandle } from 'node:fs/promises';
import { compareWords, type IpFamily } from './address-words.js';
import type { AsnTables } from './asn-index.js';
import type { CountryTable } from './country-ranges.js';

const MAGIC = 0x5049444e; // "NDIP" read as a little-endian word
export const FORMAT_VERSION = 1;
const HEADER_WORDS = 8;
const ROWS_PER_BLOCK = 64;

/** One family's rows: boundaries and, parallel to them, the ASN and country holding from each. */
export interface IpRangeColumns {
  readonly width: 1 | 4;
  readonly boundaries: Uint32Array;
  readonly asns: Uint32Array;
  readonly countries: Uint32Array;
}

export interface IpDataTables {
  readonly v4: IpRangeColumns;
  readonly v6: IpRangeColumns;
  readonly asnKeys: Uint32Array;
  readonly organisationRefs: Uint32Array;
  readonly organisations: readonly string[];
}

export interface IpDataEntry {
  /** 0 when no AS covers the address. */
  readonly asn: number;
  readonly organisation: string;
  /** Encoded as in ./country-ranges.ts; 0 when the country is unknown. */
  readonly country: number;
}

/**
 * Merges the ASN and country boundaries of one family: a row wherever either
 * changes, neighbours with the same pair merged.
 */
export function mergeRanges(
  asn: { width: 1 | 4; boundaries: Uint32Array; asns: Uint32Array },
  country: CountryTable,
): IpRangeColumns {
  const w = asn.width;
  if (country.width !== w) throw new Error('the ASN and country tables are of different families');
  const capacity = asn.asns.length + country.codes.length;
  const boundaries = new Uint32Array(capacity * w);
  const asns = new Uint32Array(capacity);
  const countries = new Uint32Array(capacity);
  let rows = 0;
  let i = 0;
  let j = 0;
  let currentAsn = 0;
  let currentCountry = 0;
  while (i < asn.asns.length || j < country.codes.length) {
    const order =
      i >= asn.asns.length
        ? 1
        : j >= country.codes.length
          ? -1
          : compareWords(asn.boundaries, i * w, country.boundaries, j * w, w);
    const from = order <= 0 ? asn.boundaries.subarray(i * w, i * w + w) : country.boundaries.subarray(j * w, j * w + w);
    if (order <= 0) currentAsn = asn.asns[i++]!;
    if (order >= 0) currentCountry = country.codes[j++]!;
    const same =
      rows > 0
        ? asns[rows - 1] === currentAsn && countries[rows - 1] === currentCountry
        : currentAsn === 0 && currentCountry === 0;
    if (same) continue;
    boundaries.set(from, rows * w);
    asns[rows] = currentAsn;
    countries[rows] = currentCountry;
    rows++;
  }
  return {
    width: w,
    boundaries: boundaries.slice(0, rows * w),
    asns: asns.slice(0, rows),
    countries: countries.slice(0, rows),
  };
}

export function ipDataTables(asn: AsnTables, v4Countries: CountryTable, v6Countries: CountryTable): IpDataTables {
  return {
    v4: mergeRanges(asn.v4, v4Countries),
    v6: mergeRanges(asn.v6, v6Countries),
    asnKeys: asn.asnKeys,
    organisationRefs: asn.organisationRefs,
    organisations: asn.organisations,
  };
}

function rowWords(width: 1 | 4): number {
  return width + 2;
}

/** The file's bytes (little-endian words; this module refuses big-endian hosts). */
export function encodeIpData(tables: IpDataTables): Uint8Array {
  assertLittleEndian();
  const names = tables.organisations.map((name) => Buffer.from(name, 'utf8'));
  const nameBytes = names.reduce((n, b) => n + b.length, 0);
  const v4Rows = tables.v4.asns.length;
  const v6Rows = tables.v6.asns.length;
  const asnCount = tables.asnKeys.length;
  const words = HEADER_WORDS + v4Rows * rowWords(1) + v6Rows * rowWords(4) + 2 * asnCount + (names.length + 1);
  const bytes = new Uint8Array(words * 4 + nameBytes);
  const out = new Uint32Array(bytes.buffer, 0, words);
  out.set([MAGIC, FORMAT_VERSION, v4Rows, v6Rows, asnCount, names.length, nameBytes, 0]);
  let at = HEADER_WORDS;
  for (const table of [tables.v4, tables.v6]) {
    const w = table.width;
    for (let r = 0; r < table.asns.length; r++) {
      out.set(table.boundaries.subarray(r * w, r * w + w), at);
      out[at + w] = table.asns[r]!;
      out[at + w + 1] = table.countries[r]!;
      at += rowWords(w);
    }
  }
  out.set(tables.asnKeys, at);
  out.set(tables.organisationRefs, at + asnCount);
  at += 2 * asnCount;
  let offset = 0;
  let byteAt = words * 4;
  for (let n = 0; n < names.length; n++) {
    out[at + n] = offset;
    bytes.set(names[n]!, byteAt);
    offset += names[n]!.length;
    byteAt += names[n]!.length;
  }
  out[at + names.length] = offset;
  return bytes;
}

/** Writes the file whole or not at all: a reader never sees half of it (rename is atomic). */
export async function writeIpDataFile(path: string, tables: IpDataTables): Promise<void> {
  const partial = `${path}.${process.pid}.partial`;
  await writeFile(partial, encodeIpData(tables));
  await rename(partial, path);
}

function assertLittleEndian(): void {
  if (new Uint8Array(Uint32Array.of(1).buffer)[0] !== 1) throw new Error('the IP data file needs a little-endian host');
}

interface FamilyIndex {
  readonly width: 1 | 4;
  readonly rows: number;
  /** Byte offset of the first row in the file. */
  readonly at: number;
  /** The boundary of every ROWS_PER_BLOCK-th row. */
  readonly sparse: Uint32Array;
}

export interface IpDataFile {
  lookup(family: IpFamily, words: Uint32Array): Promise<IpDataEntry>;
  close(): Promise<void>;
}

async function readExactly(
  handle: FileHandle,
  length: number,
  position: number,
  path: string,
  into?: Uint8Array,
): Promise<Uint8Array> {
  const bytes = into ? into.subarray(0, length) : new Uint8Array(length);
  let filled = 0;
  while (filled < length) {
    const { bytesRead } = await handle.read(bytes, filled, length - filled, position + filled);
    if (bytesRead === 0) throw new Error(`${path} is truncated`);
    filled += bytesRead;
  }
  return bytes;
}

const words32 = (bytes: Uint8Array): Uint32Array => new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.length >>> 2);

/** Opens a file written by writeIpDataFile; throws naming the path when it is not one. */
export async function openIpDataFile(path: string): Promise<IpDataFile> {
  assertLittleEndian();
  const handle = await open(path, 'r');
  try {
    const size = (await handle.stat()).size;
    if (size < HEADER_WORDS * 4) throw new Error(`${path} is not an IP data file (too short)`);
    const header = words32(await readExactly(handle, HEADER_WORDS * 4, 0, path));
    if (header[0] !== MAGIC || header[1] !== FORMAT_VERSION)
      throw new Error(`${path} is not an IP data file of format ${FORMAT_VERSION}`);
    const [, , v4Rows, v6Rows, asnCount, nameCount, nameBytes] = header as unknown as number[];
    const v4At = HEADER_WORDS * 4;
    const v6At = v4At + v4Rows! * rowWords(1) * 4;
    const asnAt = v6At + v6Rows! * rowWords(4) * 4;
    const namesAt = asnAt + (2 * asnCount! + nameCount! + 1) * 4;
    if (namesAt + nameBytes! !== size) throw new Error(`${path} is not an IP data file (its size does not match)`);

    const sparseOf = async (width: 1 | 4, rows: number, at: number): Promise<FamilyIndex> => {
      const stride = rowWords(width);
      const sparse = new Uint32Array(Math.ceil(rows / ROWS_PER_BLOCK) * width);
      // Read in slices of 256 blocks (at most 384 KiB) into one buffer rather than one read per block.
      const sliceRows = ROWS_PER_BLOCK * 256;
      const buffer = new Uint8Array(sliceRows * stride * 4);
      for (let first = 0; first < rows; first += sliceRows) {
        const count = Math.min(sliceRows, rows - first);
        const slice = words32(await readExactly(handle, count * stride * 4, at + first * stride * 4, path, buffer));
        for (let r = 0; r < count; r += ROWS_PER_BLOCK)
          sparse.set(slice.subarray(r * stride, r * stride + width), ((first + r) / ROWS_PER_BLOCK) * width);
      }
      return { width, rows, at, sparse };
    };
    const families: Record<IpFamily, FamilyIndex> = {
      4: await sparseOf(1, v4Rows!, v4At),
      6: await sparseOf(4, v6Rows!, v6At),
    };
    const asnTables = words32(await readExactly(handle, (2 * asnCount! + nameCount! + 1) * 4, asnAt, path));
    const asnKeys = asnTables.subarray(0, asnCount);
    const organisationRefs = asnTables.subarray(asnCount, 2 * asnCount!);
    const nameOffsets = asnTables.subarray(2 * asnCount!);
    const decoder = new TextDecoder();

    const organisationOf = async (asn: number): Promise<string> => {
      let lo = 0;
      let hi = asnKeys.length - 1;
      while (lo <= hi) {
        const mid = (lo + hi) >>> 1;
        const key = asnKeys[mid]!;
        if (key === asn) {
          const ref = organisationRefs[mid]!;
          const from = nameOffsets[ref]!;
          const to = nameOffsets[ref + 1]!;
          return to > from ? decoder.decode(await readExactly(handle, to - from, namesAt + from, path)) : '';
        }
        if (key < asn) lo = mid + 1;
        else hi = mid - 1;
      }
      return '';
    };

    return {
      async lookup(family, words) {
        const index = families[family];
        const w = index.width;
        // The last block whose first boundary is at or below the address.
        let lo = 0;
        let hi = index.sparse.length / w - 1;
        let block = -1;
        while (lo <= hi) {
          const mid = (lo + hi) >>> 1;
          if (compareWords(index.sparse, mid * w, words, 0, w) <= 0) {
            block = mid;
            lo = mid + 1;
          } else hi = mid - 1;
        }
        if (block < 0) return { asn: 0, organisation: '', country: 0 };
        const first = block * ROWS_PER_BLOCK;
        const count = Math.min(ROWS_PER_BLOCK, index.rows - first);
        const stride = rowWords(w);
        const rows = words32(await readExactly(handle, count * stride * 4, index.at + first * stride * 4, path));
        // The last row of the block at or below the address (the block's first one is).
        let found = 0;
        lo = 1;
        hi = count - 1;
        while (lo <= hi) {
          const mid = (lo + hi) >>> 1;
          if (compareWords(rows, mid * stride, words, 0, w) <= 0) {
            found = mid;
            lo = mid + 1;
          } else hi = mid - 1;
        }
        const asn = rows[found * stride + w]!;
        const country = rows[found * stride + w + 1]!;
        return { asn, organisation: asn === 0 ? '' : await organisationOf(asn), country };
      },
      close: () => handle.close(),
    };
  } catch (e) {
    await handle.close();
    throw e;
  }
}
