/**
 * The bundled IP data, used when no operator database is configured:
 * - AS number and organisation: @ip-location-db/asn (asn-ipv4.csv, asn-ipv6.csv;
 *   CC BY 4.0, RouteViews + the five RIRs + DB-IP; organisation names mostly from
 *   DB-IP), indexed by ./asn-index.ts;
 * - country: @ip-location-db/geo-whois-asn-country-mmdb
 *   (geo-whois-asn-country.mmdb, IPv4 and IPv6; GeoFeed, then RIR WHOIS, then
 *   RIR ASN country), read with maxmind and walked by ./country-ranges.ts.
 * Both are built once into one IP data file (./ip-data-file.ts) under
 * `server.dataDir`, by a child process (./build-ip-data-main.ts) so that the
 * serving process never holds the sources (tens of megabytes while building) and
 * keeps none of the memory the build touched; every later start, and every
 * worker, opens the file that is already there.
 * Neither has an AS domain, so asDomain is always "". The npm packages stopped
 * receiving updates in 2026 (their README says so); an operator who needs fresher
 * data sets `ipInfo.database` to an IPinfo Lite MMDB instead.
 */
import { dirname, join } from 'node:path';
import { createHash } from 'node:crypto';
import { constants } from 'node:fs';
import { access, mkdir, readdir, stat, unlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { Reader, type Response } from 'maxmind';
import { addressWords } from './address-words.js';
import { AsnIndexBuilder, type AsnIndex } from './asn-index.js';
import { countryTable, decodeCountry } from './country-ranges.js';
import { factsFromBundled, type IpFacts } from './facts.js';
import { bundledFiles, type BundledFiles } from './bundled-files.js';
import { readBoundedFile } from './files.js';
import { runIpDataBuilder } from './ip-data-builder.js';
import { FORMAT_VERSION, ipDataTables, openIpDataFile, writeIpDataFile } from './ip-data-file.js';

/** A database opened and ready. */
export interface OpenIpDatabase {
  lookup(ip: string): Promise<IpFacts>;
  /** Releases what the database holds open (the bundled data's file handle). */
  close(): Promise<void>;
}

export { bundledFiles, type BundledFiles } from './bundled-files.js';

/**
 * About ten times what the CSVs and the MMDB weigh today (their sizes: docs/performance.md "Measured
 * reasons behind design choices"): more is a broken install.
 */
const MAX_CSV_BYTES = 256 * 1024 * 1024;
const MAX_MMDB_BYTES = 128 * 1024 * 1024;
/** Builds the ASN index from the two CSVs (about a second). */
export async function buildBundledAsnIndex(files: Pick<BundledFiles, 'asnV4Csv' | 'asnV6Csv'>): Promise<AsnIndex> {
  const builder = new AsnIndexBuilder();
  for (const [family, path] of [
    [4, files.asnV4Csv],
    [6, files.asnV6Csv],
  ] as const) {
    // Each file's bytes are dropped once parsed: only the compact index is kept.
    const cursor = builder.csv(family, path, await readBoundedFile(path, MAX_CSV_BYTES));
    while (!cursor.done) cursor.read(Number.MAX_SAFE_INTEGER);
    builder.seal(family);
  }
  return builder.finish();
}

/** Builds the IP data file from the sources (in the builder's process, ./build-ip-data-main.ts). */
export async function buildIpDataFile(files: BundledFiles, out: string): Promise<void> {
  const index = await buildBundledAsnIndex(files);
  const mmdb = await readBoundedFile(files.countryMmdb, MAX_MMDB_BYTES);
  const reader = new Reader<Response>(mmdb);
  await writeIpDataFile(
    out,
    ipDataTables(index.tables(), countryTable(reader, mmdb, 4), countryTable(reader, mmdb, 6)),
  );
}

const FILE_NAME = /^ip-data-[0-9a-f]{16}[.]bin$/;
const PARTIAL_NAME = /^ip-data-[0-9a-f]{16}[.]bin[.]\d+[.]partial$/;

/**
 * Where the file built from these sources lives: its name changes with the
 * sources (path, size, modification time) and the format, so that an updated
 * package or a new format is built afresh.
 */
export async function ipDataFilePath(files: BundledFiles, dataDir: string): Promise<string> {
  const hash = createHash('sha256').update(String(FORMAT_VERSION));
  for (const path of [files.asnV4Csv, files.asnV6Csv, files.countryMmdb]) {
    const info = await stat(path);
    hash.update(`\n${path}\n${info.size}\n${info.mtimeMs}`);
  }
  return join(dataDir, `ip-data-${hash.digest('hex').slice(0, 16)}.bin`);
}

/** Errors of a data directory this process cannot write to (read-only mount, another owner, not a directory). */
const UNWRITABLE = new Set(['EACCES', 'EPERM', 'EROFS', 'ENOTDIR']);

/** Where the file is built when `server.dataDir` cannot be written: this user's directory under the system's temporary one. */
export function fallbackIpDataDir(): string {
  return join(tmpdir(), `netdiag-ip-data-${process.getuid?.() ?? 'user'}`);
}

/** The file built from these sources in `dataDir`: the one already there, or built now. */
async function builtFile(files: BundledFiles, dataDir: string): Promise<string> {
  const path = await ipDataFilePath(files, dataDir);
  try {
    await access(path, constants.R_OK);
    return path;
  } catch {
    // missing (or unreadable): built below, or the directory's own error says why not
  }
  await mkdir(dataDir, { recursive: true });
  await access(dataDir, constants.W_OK);
  await runIpDataBuilder(files, path);
  await removeOtherIpDataFiles(path);
  return path;
}

/**
 * The path of the bundled data's file, built when it is missing. A data directory that cannot be
 * written (a read-only deployment with `auth.secret` set) gets the file built under the system's
 * temporary directory instead. The primary of several workers calls it before forking them, so that
 * a first start builds the file once rather than once per worker at the same time.
 */
export async function ensureBundledIpDataFile(dataDir: string, files: BundledFiles = bundledFiles()): Promise<string> {
  return builtFile(files, dataDir).catch((e: NodeJS.ErrnoException) => {
    if (!UNWRITABLE.has(e.code ?? '')) throw e;
    return builtFile(files, fallbackIpDataDir());
  });
}

/** Opens the bundled data's file (built first when missing); the lookups read it on demand. */
export async function openBundledDatabase(
  dataDir: string,
  files: BundledFiles = bundledFiles(),
): Promise<OpenIpDatabase> {
  const file = await openIpDataFile(await ensureBundledIpDataFile(dataDir, files));
  return {
    async lookup(ip: string): Promise<IpFacts> {
      const address = addressWords(ip);
      if (!address) throw new TypeError(`not an IP address: ${JSON.stringify(ip)}`);
      const entry = await file.lookup(address.family, address.words);
      const as = entry.asn === 0 ? null : { asn: entry.asn, organisation: entry.organisation };
      return factsFromBundled(ip, as, decodeCountry(entry.country));
    },
    close: () => file.close(),
  };
}

/** A partial file this old was left by a builder that died: a build takes seconds. */
const ABANDONED_PARTIAL_MS = 3_600_000;

/**
 * Files built from earlier sources (a process still reading one keeps it open until it exits), and
 * partial files of builders that died.
 */
async function removeOtherIpDataFiles(keep: string): Promise<void> {
  const dir = dirname(keep);
  for (const name of await readdir(dir)) {
    const path = join(dir, name);
    const abandoned =
      PARTIAL_NAME.test(name) &&
      Date.now() - (await stat(path).catch(() => ({ mtimeMs: Date.now() }))).mtimeMs > ABANDONED_PARTIAL_MS;
    if ((FILE_NAME.test(name) && path !== keep) || abandoned) await unlink(path).catch(() => undefined);
  }
}
