/**
 * The IP data file: the country tree walked into boundaries, the merge with the ASN
 * boundaries, the file written and read back, the real bundled data answered from
 * the file exactly as from the sources held in memory, and the build in a process
 * of its own, once per data directory.
 */
import { existsSync, mkdtempSync, readdirSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Reader, type Response } from 'maxmind';
import { describe, expect, it } from 'vitest';
import { addressWords } from '../../../../src/probes/ipdata/address-words.js';
import { buildAsnIndex } from '../../../../src/probes/ipdata/asn-index.js';
import {
  buildBundledAsnIndex,
  bundledFiles,
  fallbackIpDataDir,
  ipDataFilePath,
  openBundledDatabase,
} from '../../../../src/probes/ipdata/bundled.js';
import { countryTable, decodeCountry, encodeCountry } from '../../../../src/probes/ipdata/country-ranges.js';
import {
  ipDataTables,
  mergeRanges,
  openIpDataFile,
  writeIpDataFile,
} from '../../../../src/probes/ipdata/ip-data-file.js';
import { writeMmdb } from '../../../lab/mmdb-writer.js';
import { SHARED_IP_DATA_DIR } from '../../../helpers/ip-data.js';

const csv = (lines: string[]): Uint8Array => new TextEncoder().encode(`${lines.join('\n')}\n`);
const ip4 = (word: number): string => `${word >>> 24}.${(word >>> 16) & 255}.${(word >>> 8) & 255}.${word & 255}`;
const US = encodeCountry('US');
const DE = encodeCountry('DE');

describe('countryTable', () => {
  const db = writeMmdb(
    [
      { network: '1.0.0.0/24', data: { country_code: 'US' } },
      { network: '1.0.1.0/24', data: { country_code: 'US' } },
      { network: '8.8.8.0/24', data: { country_code: 'DE' } },
      { network: '2001:db8::/32', data: { country_code: 'DE' } },
    ],
    'country',
  );
  const reader = new Reader<Response>(db);

  it('walks IPv4 networks into boundaries, merging neighbours of one country', () => {
    const table = countryTable(reader, db, 4);
    expect([...table.boundaries].map(ip4)).toEqual(['1.0.0.0', '1.0.2.0', '8.8.8.0', '8.8.9.0']);
    expect([...table.codes].map(decodeCountry)).toEqual(['US', null, 'DE', null]);
  });

  it('walks IPv6 networks and leaves the IPv4 subtree to the IPv4 table', () => {
    const table = countryTable(reader, db, 6);
    expect(table.codes.length).toBe(2);
    expect([...table.boundaries.subarray(0, 4)]).toEqual([0x20010db8, 0, 0, 0]);
    expect([...table.boundaries.subarray(4, 8)]).toEqual([0x20010db9, 0, 0, 0]);
    expect([...table.codes].map(decodeCountry)).toEqual(['DE', null]);
  });

  it('encodes two letters and nothing else', () => {
    expect(decodeCountry(encodeCountry('us'))).toBe('US');
    expect(encodeCountry('USA')).toBe(0);
    expect(encodeCountry(undefined)).toBe(0);
  });
});

describe('mergeRanges', () => {
  it('starts a row wherever the AS or the country changes', () => {
    const merged = mergeRanges(
      { width: 1, boundaries: Uint32Array.of(10, 20, 30), asns: Uint32Array.of(1, 0, 2) },
      { width: 1, boundaries: Uint32Array.of(5, 15, 30, 40), codes: Uint32Array.of(US, DE, DE, 0) },
    );
    expect([...merged.boundaries]).toEqual([5, 10, 15, 20, 30, 40]);
    expect([...merged.asns]).toEqual([0, 1, 1, 0, 2, 2]);
    expect([...merged.countries]).toEqual([US, US, DE, DE, DE, 0]);
  });
});

describe('the IP data file', () => {
  // 300 ranges of alternating AS and country: several blocks of 64 rows, gaps between ranges.
  const rows = Array.from({ length: 300 }, (_, i) => {
    const start = 0x01000000 + i * 512;
    return { start, end: start + 255, asn: 100 + (i % 7), country: i % 3 === 0 ? 'US' : 'DE' };
  });
  const index = buildAsnIndex(
    csv(rows.map((r) => `${ip4(r.start)},${ip4(r.end)},${r.asn},"AS ${r.asn}, Ltd"`)),
    csv(['2001:db8::,2001:db8::ffff,64500,Documentation']),
  );
  const countries = {
    width: 1 as const,
    boundaries: Uint32Array.from(rows.flatMap((r) => [r.start, r.start + 128])),
    codes: Uint32Array.from(rows.flatMap((r) => [encodeCountry(r.country), 0])),
  };
  const noCountries = { width: 4 as const, boundaries: new Uint32Array(0), codes: new Uint32Array(0) };

  it('answers every boundary, the address before it and the one after it as the tables do', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'netdiag-ipdata-')), 'ip-data.bin');
    await writeIpDataFile(path, ipDataTables(index.tables(), countries, noCountries));
    const file = await openIpDataFile(path);
    try {
      for (const r of rows) {
        for (const address of [r.start - 1, r.start, r.start + 127, r.start + 128, r.end, r.end + 1]) {
          const words = Uint32Array.of(address);
          const inMemory = index.lookup(4, words);
          const expectedCountry = address >= r.start && address < r.start + 128 ? r.country : null;
          const entry = await file.lookup(4, words);
          expect({ asn: entry.asn, organisation: entry.organisation, country: decodeCountry(entry.country) }).toEqual({
            asn: inMemory?.asn ?? 0,
            organisation: inMemory?.organisation ?? '',
            country: expectedCountry,
          });
        }
      }
      expect(await file.lookup(4, Uint32Array.of(0))).toEqual({ asn: 0, organisation: '', country: 0 });
      expect(await file.lookup(4, Uint32Array.of(0xffffffff))).toEqual({ asn: 0, organisation: '', country: 0 });
      const doc = addressWords('2001:db8::1')!;
      expect(await file.lookup(6, doc.words)).toEqual({ asn: 64500, organisation: 'Documentation', country: 0 });
    } finally {
      await file.close();
    }
  });

  it('refuses a file that is not one, naming it', async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'netdiag-ipdata-')), 'not-ip-data.bin');
    writeFileSync(path, Buffer.alloc(64, 7));
    await expect(openIpDataFile(path)).rejects.toThrow(`${path} is not an IP data file`);
  });
});

describe('the bundled data from the file', () => {
  it('answers 20,000 IPv4 and 5,000 IPv6 addresses exactly as the sources held in memory', async () => {
    const files = bundledFiles();
    const index = await buildBundledAsnIndex(files);
    const reader = new Reader<Response>(await readFile(files.countryMmdb));
    const file = await openIpDataFile(await ipDataFilePath(files, SHARED_IP_DATA_DIR));
    // A fixed pseudo-random sequence (xorshift32): the same addresses every run.
    let state = 0x9e3779b9;
    const next = (): number => {
      state ^= state << 13;
      state ^= state >>> 17;
      state ^= state << 5;
      return state >>> 0;
    };
    const addresses: string[] = [];
    for (let i = 0; i < 20_000; i++) addresses.push(ip4(next()));
    for (let i = 0; i < 5_000; i++) {
      // global unicast 2000::/4, where the data is
      const groups = [0x2000 | (next() & 0x0fff), ...Array.from({ length: 7 }, () => next() & 0xffff)];
      addresses.push(groups.map((g) => g.toString(16)).join(':'));
    }
    const differences: string[] = [];
    try {
      for (const ip of addresses) {
        const a = addressWords(ip)!;
        const as = index.lookup(a.family, a.words);
        const country = (reader.get(a.text) as { country_code?: string } | null)?.country_code ?? null;
        const entry = await file.lookup(a.family, a.words);
        const fromFile = { asn: entry.asn, organisation: entry.organisation, country: decodeCountry(entry.country) };
        const fromSources = { asn: as?.asn ?? 0, organisation: as?.organisation ?? '', country };
        if (JSON.stringify(fromFile) !== JSON.stringify(fromSources))
          differences.push(`${ip}: ${JSON.stringify(fromFile)} ≠ ${JSON.stringify(fromSources)}`);
      }
    } finally {
      await file.close();
    }
    expect(differences.slice(0, 5)).toEqual([]);
  }, 60_000);

  it('is built in a process of its own once per data directory; outdated and abandoned files are removed', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'netdiag-ipdata-'));
    const outdated = join(dataDir, 'ip-data-0123456789abcdef.bin');
    writeFileSync(outdated, 'built from an older package');
    const abandoned = join(dataDir, 'ip-data-0123456789abcdef.bin.4242.partial');
    writeFileSync(abandoned, 'half a file from a builder that died');
    utimesSync(abandoned, new Date(Date.now() - 7_200_000), new Date(Date.now() - 7_200_000));
    const database = await openBundledDatabase(dataDir);
    expect((await database.lookup('8.8.8.8')).asn).toBe('AS15169');
    const path = await ipDataFilePath(bundledFiles(), dataDir);
    const built = statSync(path);
    expect(existsSync(outdated)).toBe(false);
    expect(existsSync(abandoned)).toBe(false);
    expect(readdirSync(dataDir)).toEqual([path.slice(dataDir.length + 1)]);
    await database.close();

    await (await openBundledDatabase(dataDir)).close();
    expect(statSync(path).mtimeMs).toBe(built.mtimeMs);
    expect(statSync(path).ino).toBe(built.ino);
  }, 60_000);

  it('is built under the temporary directory when the data directory cannot be written', async () => {
    const notADirectory = join(mkdtempSync(join(tmpdir(), 'netdiag-ipdata-')), 'a-file');
    writeFileSync(notADirectory, 'a file where the data directory should be');
    const database = await openBundledDatabase(join(notADirectory, 'data'));
    expect((await database.lookup('8.8.8.8')).asn).toBe('AS15169');
    expect(existsSync(await ipDataFilePath(bundledFiles(), fallbackIpDataDir()))).toBe(true);
    await database.close();
  }, 60_000);
});
