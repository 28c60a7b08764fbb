/**
 * A compact index from IP address to autonomous system, built from the
 * CSVs of @ip-location-db/asn (columns: ip_range_start, ip_range_end,
 * autonomous_system_number, autonomous_system_organization; inclusive ranges;
 * the organisation is quoted per RFC 4180 when it holds a comma or a quote).
 *
 * Layout, per family: a sorted array of range boundaries (one word per IPv4
 * address, four per IPv6 address, in a Uint32Array) and, parallel to it, the ASN
 * that holds from each boundary up to the next one (0 = no AS; AS0 is never
 * assigned, RFC 7607). Gaps between ranges are boundaries with ASN 0, and
 * neighbouring ranges of the same AS are merged, so a lookup is one binary search
 * for the last boundary at or below the address. Organisation names live once
 * per ASN in a separate table (far fewer ASNs and distinct names than CSV rows;
 * the counts of the bundled data: docs/performance.md "Measured reasons behind design choices").
 *
 * Overlapping rows (the published data has a few: a more specific route inside a
 * wider one) are resolved so that the row starting later wins inside its own
 * extent and the wider row resumes after it; rows starting at the same address
 * let the narrower one win. Nothing in this module does I/O: the IP data builder
 * (./bundled.ts, in a process of its own) hands it the bytes, and writes its
 * tables into the IP data file (./ip-data-file.ts).
 */
import {
  compareWords,
  parseIpv4Bytes,
  parseIpv6Bytes,
  wordsPerAddress,
  writeSuccessor,
  type IpFamily,
} from './address-words.js';

const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;
const COMMA = 0x2c;
const QUOTE = 0x22;
const MAX_ASN = 0xffffffff;

export interface AsnEntry {
  readonly asn: number;
  readonly organisation: string;
}

/** Boundaries and the ASN holding from each one; see the module comment. */
export interface RangeTable {
  readonly width: 1 | 4;
  readonly boundaries: Uint32Array;
  readonly asns: Uint32Array;
}

/** The index's tables as they are (for the IP data file, ./ip-data-file.ts). */
export interface AsnTables {
  readonly v4: RangeTable;
  readonly v6: RangeTable;
  readonly asnKeys: Uint32Array;
  readonly organisationRefs: Uint32Array;
  readonly organisations: readonly string[];
}

export class AsnIndex {
  readonly #v4: RangeTable;
  readonly #v6: RangeTable;
  readonly #asnKeys: Uint32Array;
  readonly #organisationRefs: Uint32Array;
  readonly #organisations: readonly string[];

  constructor(
    v4: RangeTable,
    v6: RangeTable,
    asnKeys: Uint32Array,
    organisationRefs: Uint32Array,
    organisations: readonly string[],
  ) {
    this.#v4 = v4;
    this.#v6 = v6;
    this.#asnKeys = asnKeys;
    this.#organisationRefs = organisationRefs;
    this.#organisations = organisations;
  }

  /** Number of boundaries per family (for measurements and tests). */
  get size(): { v4: number; v6: number; asns: number; organisations: number } {
    return {
      v4: this.#v4.asns.length,
      v6: this.#v6.asns.length,
      asns: this.#asnKeys.length,
      organisations: this.#organisations.length,
    };
  }

  tables(): AsnTables {
    return {
      v4: this.#v4,
      v6: this.#v6,
      asnKeys: this.#asnKeys,
      organisationRefs: this.#organisationRefs,
      organisations: this.#organisations,
    };
  }

  /** The AS announcing or registered for the address, or null when no range covers it. */
  lookup(family: IpFamily, words: Uint32Array): AsnEntry | null {
    const table = family === 4 ? this.#v4 : this.#v6;
    const asn = findAsn(table, words);
    if (asn === 0) return null;
    return { asn, organisation: this.#organisationOf(asn) };
  }

  #organisationOf(asn: number): string {
    let lo = 0;
    let hi = this.#asnKeys.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const key = this.#asnKeys[mid]!;
      if (key === asn) return this.#organisations[this.#organisationRefs[mid]!] ?? '';
      if (key < asn) lo = mid + 1;
      else hi = mid - 1;
    }
    return '';
  }
}

/** Binary search for the last boundary at or below the address; 0 when there is none. */
function findAsn(table: RangeTable, words: Uint32Array): number {
  const { width, boundaries, asns } = table;
  let lo = 0;
  let hi = asns.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    if (compareWords(boundaries, mid * width, words, 0, width) <= 0) {
      found = mid;
      lo = mid + 1;
    } else {
      hi = mid - 1;
    }
  }
  return found < 0 ? 0 : asns[found]!;
}

/** Growable columns of parsed CSV rows, in file order. */
class RangeRows {
  readonly width: 1 | 4;
  count = 0;
  starts: Uint32Array;
  ends: Uint32Array;
  asns: Uint32Array;

  constructor(width: 1 | 4, capacity = 1024) {
    this.width = width;
    this.starts = new Uint32Array(width * capacity);
    this.ends = new Uint32Array(width * capacity);
    this.asns = new Uint32Array(capacity);
  }

  /** Makes room for one more row and returns its index. */
  reserve(): number {
    if (this.count === this.asns.length) {
      const capacity = Math.max(this.asns.length * 2, 1024);
      const grow = (a: Uint32Array, perRow: number): Uint32Array => {
        const b = new Uint32Array(capacity * perRow);
        b.set(a);
        return b;
      };
      this.starts = grow(this.starts, this.width);
      this.ends = grow(this.ends, this.width);
      this.asns = grow(this.asns, 1);
    }
    return this.count;
  }
}

/** Interns organisation names and remembers the first one seen for each ASN. */
class OrganisationCollector {
  readonly #refByAsn = new Map<number, number>();
  readonly #refByName = new Map<string, number>();
  readonly #names: string[] = [];

  has(asn: number): boolean {
    return this.#refByAsn.has(asn);
  }

  add(asn: number, name: string): void {
    let ref = this.#refByName.get(name);
    if (ref === undefined) {
      ref = this.#names.length;
      this.#names.push(name);
      this.#refByName.set(name, ref);
    }
    this.#refByAsn.set(asn, ref);
  }

  finish(): { asnKeys: Uint32Array; organisationRefs: Uint32Array; organisations: readonly string[] } {
    const asnKeys = Uint32Array.from(this.#refByAsn.keys()).sort();
    const organisationRefs = new Uint32Array(asnKeys.length);
    for (let i = 0; i < asnKeys.length; i++) organisationRefs[i] = this.#refByAsn.get(asnKeys[i]!)!;
    return { asnKeys, organisationRefs, organisations: this.#names };
  }
}

/** Reads one CSV in slices (the caller decides how many lines at a time). */
export interface CsvCursor {
  /** True once every line has been read. */
  readonly done: boolean;
  /** Parses up to `maxLines` more lines. Throws an Error naming the file and line on a malformed row. */
  read(maxLines: number): void;
}

export class AsnIndexBuilder {
  readonly #rows: Record<IpFamily, RangeRows> = { 4: new RangeRows(1), 6: new RangeRows(4) };
  readonly #organisations = new OrganisationCollector();
  readonly #decoder = new TextDecoder('utf-8', { fatal: false });
  /** Neighbouring rows often share an AS: skips the map lookup for them. */
  #previousAsn = 0;
  readonly #sealed: { 4?: RangeTable; 6?: RangeTable } = {};

  /** A cursor over one CSV of `family` addresses; `source` names it in error messages. */
  csv(family: IpFamily, source: string, bytes: Uint8Array): CsvCursor {
    if (this.#sealed[family]) throw new Error(`the IPv${family} table is already sealed`);
    const rows = this.#rows[family];
    let offset = 0;
    let line = 0;
    const cursor = {
      done: bytes.length === 0,
      read: (maxLines: number): void => {
        for (let n = 0; n < maxLines && offset < bytes.length; n++) {
          line++;
          offset = this.#parseLine(family, rows, bytes, offset, source, line);
        }
        if (offset >= bytes.length) cursor.done = true;
      },
    };
    return cursor;
  }

  /**
   * Parses the line starting at `from` and returns the offset of the next one.
   * One forward scan finds the first three commas (addresses and ASN hold none)
   * and the end of the line; a per-byte loop in JS costs less here than a native
   * indexOf call per column.
   */
  #parseLine(family: IpFamily, rows: RangeRows, bytes: Uint8Array, from: number, source: string, line: number): number {
    const length = bytes.length;
    let c1 = -1;
    let c2 = -1;
    let c3 = -1;
    let i = from;
    for (; i < length; i++) {
      const b = bytes[i]!;
      if (b === NEWLINE) break;
      if (b === COMMA && c3 < 0) {
        if (c1 < 0) c1 = i;
        else if (c2 < 0) c2 = i;
        else c3 = i;
      }
    }
    const next = i + 1;
    let to = i;
    if (to > from && bytes[to - 1] === CARRIAGE_RETURN) to--;
    if (to === from) return next; // an empty line
    if (c3 < 0 || c3 >= to) this.#fail(source, line, 'expected 4 columns');

    const row = rows.reserve();
    const w = rows.width;
    if (family === 4) {
      const start = parseIpv4Bytes(bytes, from, c1);
      const end = parseIpv4Bytes(bytes, c1 + 1, c2);
      if (start < 0 || end < 0) this.#fail(source, line, 'malformed IPv4 address');
      rows.starts[row] = start;
      rows.ends[row] = end;
    } else if (
      !parseIpv6Bytes(bytes, from, c1, rows.starts, row * w) ||
      !parseIpv6Bytes(bytes, c1 + 1, c2, rows.ends, row * w)
    ) {
      this.#fail(source, line, 'malformed IPv6 address');
    }
    if (compareWords(rows.starts, row * w, rows.ends, row * w, w) > 0)
      this.#fail(source, line, 'range ends before it starts');

    if (c3 === c2 + 1 || c3 - c2 - 1 > 10) this.#fail(source, line, 'malformed AS number');
    let asn = 0;
    for (let k = c2 + 1; k < c3; k++) {
      const d = bytes[k]! - 0x30;
      if (d < 0 || d > 9) this.#fail(source, line, 'malformed AS number');
      asn = asn * 10 + d;
    }
    if (asn > MAX_ASN) this.#fail(source, line, 'AS number out of range');
    rows.asns[row] = asn;
    rows.count++;

    if (asn !== 0 && asn !== this.#previousAsn && !this.#organisations.has(asn)) {
      const organisation = this.#decodeOrganisation(bytes, c3 + 1, to);
      if (organisation === null) this.#fail(source, line, 'unterminated quoted organisation');
      this.#organisations.add(asn, organisation);
    }
    this.#previousAsn = asn;
    return next;
  }

  #fail(source: string, line: number, why: string): never {
    throw new Error(`${source} line ${line}: ${why}`);
  }

  /** The last column, unquoted per RFC 4180 §2 ("" inside quotes is one quote), trimmed. */
  #decodeOrganisation(bytes: Uint8Array, from: number, to: number): string | null {
    if (bytes[from] !== QUOTE) return this.#decoder.decode(bytes.subarray(from, to)).trim();
    let escaped = false;
    let i = from + 1;
    for (; i < to; i++) {
      if (bytes[i] !== QUOTE) continue;
      if (bytes[i + 1] === QUOTE && i + 1 < to) {
        escaped = true;
        i++;
        continue;
      }
      break;
    }
    if (i !== to - 1) return null;
    // TextDecoder makes a fresh string: nothing keeps the multi-megabyte file alive.
    const text = this.#decoder.decode(bytes.subarray(from + 1, i));
    return (escaped ? text.replaceAll('""', '"') : text).trim();
  }

  /**
   * Resolves overlaps and merges neighbours for one family, once its CSV is read,
   * and lets its parsed rows go. finish() does it for a family not sealed yet;
   * sealing separately lets the caller yield between the two steps.
   */
  seal(family: IpFamily): void {
    if (this.#sealed[family]) return;
    this.#sealed[family] = flatten(this.#rows[family]);
    this.#rows[family] = new RangeRows(wordsPerAddress(family), 0);
  }

  /** Returns the finished index. Call once, after every CSV is read. */
  finish(): AsnIndex {
    this.seal(4);
    this.seal(6);
    const { asnKeys, organisationRefs, organisations } = this.#organisations.finish();
    return new AsnIndex(this.#sealed[4]!, this.#sealed[6]!, asnKeys, organisationRefs, organisations);
  }
}

/** Builds the index in one go from two CSVs held in memory (tests and tools). */
export function buildAsnIndex(v4Csv: Uint8Array, v6Csv: Uint8Array): AsnIndex {
  const builder = new AsnIndexBuilder();
  for (const [family, name, bytes] of [
    [4, 'IPv4 CSV', v4Csv],
    [6, 'IPv6 CSV', v6Csv],
  ] as const) {
    const cursor = builder.csv(family, name, bytes);
    while (!cursor.done) cursor.read(Number.MAX_SAFE_INTEGER);
  }
  return builder.finish();
}

/** Row order: by start, and for equal starts the wider row first so that the narrower one wins. */
function orderOf(rows: RangeRows): Int32Array | null {
  const w = rows.width;
  let sorted = true;
  for (let i = 1; i < rows.count && sorted; i++) {
    const c = compareWords(rows.starts, (i - 1) * w, rows.starts, i * w, w);
    if (c > 0 || (c === 0 && compareWords(rows.ends, (i - 1) * w, rows.ends, i * w, w) < 0)) sorted = false;
  }
  if (sorted) return null;
  const order = Int32Array.from({ length: rows.count }, (_, i) => i);
  order.sort(
    (a, b) =>
      compareWords(rows.starts, a * w, rows.starts, b * w, w) ||
      compareWords(rows.ends, b * w, rows.ends, a * w, w) ||
      a - b,
  );
  return order;
}

/**
 * Turns possibly overlapping inclusive ranges into boundaries (see the module
 * comment). A stack holds the ranges that are open at the current position; the
 * innermost one (top) owns the address space until it ends or a new row starts.
 */
function flatten(rows: RangeRows): RangeTable {
  const w = rows.width;
  const order = orderOf(rows);
  // Each row adds at most two boundaries: its start and the resumption after its end.
  const boundaries = new Uint32Array(w * (2 * rows.count + 1));
  const asns = new Uint32Array(2 * rows.count + 1);
  let count = 0;
  const position = new Uint32Array(w);

  /** Records that `asn` holds from `position` on. */
  const emit = (asn: number): void => {
    if (count > 0 && compareWords(boundaries, (count - 1) * w, position, 0, w) === 0) {
      // A zero-length segment: the later value replaces it, then may merge backwards.
      count--;
    }
    if (count > 0 ? asns[count - 1] === asn : asn === 0) return;
    for (let word = 0; word < w; word++) boundaries[count * w + word] = position[word]!;
    asns[count] = asn;
    count++;
  };

  const stack: number[] = [];
  /** Closes the top range; the next still-open one (or no AS) resumes after it, if anything follows. */
  const closeTop = (): void => {
    const closed = stack.pop()!;
    while (stack.length > 0 && compareWords(rows.ends, stack[stack.length - 1]! * w, rows.ends, closed * w, w) <= 0)
      stack.pop();
    if (!writeSuccessor(rows.ends, closed * w, w, position, 0)) {
      stack.length = 0; // the range ran to the last address of the space
      return;
    }
    emit(stack.length > 0 ? rows.asns[stack[stack.length - 1]!]! : 0);
  };

  for (let k = 0; k < rows.count; k++) {
    const r = order ? order[k]! : k;
    while (stack.length > 0 && compareWords(rows.ends, stack[stack.length - 1]! * w, rows.starts, r * w, w) < 0)
      closeTop();
    for (let word = 0; word < w; word++) position[word] = rows.starts[r * w + word]!;
    emit(rows.asns[r]!);
    stack.push(r);
  }
  while (stack.length > 0) closeTop();

  return { width: w, boundaries: boundaries.slice(0, count * w), asns: asns.slice(0, count) };
}
