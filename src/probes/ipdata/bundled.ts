/**
 * The bundled IP data, used when no operator database is configured:
 * - AS number and organisation: @ip-location-db/asn (asn-ipv4.csv, asn-ipv6.csv;
 *   CC BY 4.0, RouteViews + the five RIRs + DB-IP; organisation names mostly from
 *   DB-IP), indexed in memory by ./asn-index.ts;
 * - country: @ip-location-db/geo-whois-asn-country-mmdb
 *   (geo-whois-asn-country.mmdb, IPv4 and IPv6; GeoFeed, then RIR WHOIS, then
 *   RIR ASN country), read with maxmind.
 * Neither has an AS domain, so asDomain is always "". The npm packages stopped
 * receiving updates in 2026 (their README says so); an operator who needs fresher
 * data sets `ipInfo.database` to an IPinfo Lite MMDB instead.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import { Reader, type Response } from 'maxmind';
import { addressWords } from './address-words.js';
import { AsnIndexBuilder, type AsnIndex } from './asn-index.js';
import { factsFromBundled, type IpFacts } from './facts.js';
import { readBoundedFile } from './files.js';

/** A database opened and ready: lookups are synchronous and do no I/O. */
export interface OpenIpDatabase {
  lookup(ip: string): IpFacts;
}

export interface BundledFiles {
  asnV4Csv: string;
  asnV6Csv: string;
  countryMmdb: string;
}

const require = createRequire(import.meta.url);

function packageDirectory(name: string): string {
  return dirname(require.resolve(`${name}/package.json`));
}

/** Where the installed packages keep the data. */
export function bundledFiles(): BundledFiles {
  const asn = packageDirectory('@ip-location-db/asn');
  const country = packageDirectory('@ip-location-db/geo-whois-asn-country-mmdb');
  return {
    asnV4Csv: join(asn, 'asn-ipv4.csv'),
    asnV6Csv: join(asn, 'asn-ipv6.csv'),
    countryMmdb: join(country, 'geo-whois-asn-country.mmdb'),
  };
}

/** The CSVs are 24 MB and 9 MB and the MMDB 8 MB today; ten times that is a broken install. */
const MAX_CSV_BYTES = 256 * 1024 * 1024;
const MAX_MMDB_BYTES = 128 * 1024 * 1024;
/** Lines parsed between two yields to the event loop (a few milliseconds of work). */
const LINES_PER_SLICE = 10_000;

/**
 * Builds the ASN index from the two CSVs, yielding to the event loop between
 * slices so that requests keep being served while it is built (about a second).
 */
export async function buildBundledAsnIndex(files: Pick<BundledFiles, 'asnV4Csv' | 'asnV6Csv'>): Promise<AsnIndex> {
  const builder = new AsnIndexBuilder();
  for (const [family, path] of [
    [4, files.asnV4Csv],
    [6, files.asnV6Csv],
  ] as const) {
    // Each file's bytes are dropped once parsed: only the compact index is kept.
    const bytes = await readBoundedFile(path, MAX_CSV_BYTES);
    const cursor = builder.csv(family, path, bytes);
    while (!cursor.done) {
      cursor.read(LINES_PER_SLICE);
      await yieldToEventLoop();
    }
    builder.seal(family);
    await yieldToEventLoop();
  }
  return builder.finish();
}

interface CountryRecord {
  country_code?: unknown;
}

/** Opens the bundled data; the returned database answers lookups from memory. */
export async function openBundledDatabase(files: BundledFiles = bundledFiles()): Promise<OpenIpDatabase> {
  const [countryReader, index] = await Promise.all([
    readBoundedFile(files.countryMmdb, MAX_MMDB_BYTES).then((buffer) => new Reader<Response>(buffer)),
    buildBundledAsnIndex(files),
  ]);
  return {
    lookup(ip: string): IpFacts {
      const address = addressWords(ip);
      if (!address) throw new TypeError(`not an IP address: ${JSON.stringify(ip)}`);
      // address.text is IPv4 for ::ffff:a.b.c.d, which the MMDB holds only under IPv4.
      const record = countryReader.get(address.text) as CountryRecord | null;
      const countryCode = typeof record?.country_code === 'string' ? record.country_code : null;
      return factsFromBundled(ip, index.lookup(address.family, address.words), countryCode);
    },
  };
}
