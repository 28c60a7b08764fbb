/**
 * An operator-supplied MMDB in IPinfo Lite format (`ipInfo.database`), which
 * replaces both bundled sources when set. Its records carry asn, as_name,
 * as_domain, country_code, country, continent_code and continent, mapped by
 * ./ipinfo-record.ts.
 */
import { Reader, type Response } from 'maxmind';
import { addressWords } from './address-words.js';
import { factsFromIpinfoRecord, IpinfoRecordError } from './ipinfo-record.js';
import { UnavailableError } from '../../errors.js';
import type { IpFacts } from './facts.js';
import type { OpenIpDatabase } from './bundled.js';
import { readBoundedFile } from './files.js';

/** IPinfo Lite's MMDB is some tens of megabytes; a gigabyte is not an IP database. */
const MAX_OPERATOR_MMDB_BYTES = 1024 * 1024 * 1024;

/** Builds an OpenIpDatabase over any reader (the unit tests inject one). */
export function ipinfoMmdbDatabase(reader: Pick<Reader<Response>, 'get' | 'metadata'>): OpenIpDatabase {
  return {
    async lookup(ip: string): Promise<IpFacts> {
      const address = addressWords(ip);
      if (!address) throw new TypeError(`not an IP address: ${JSON.stringify(ip)}`);
      // An IPv4-only tree (ip_version 4) cannot hold IPv6 data.
      if (address.family === 6 && reader.metadata.ipVersion === 4) return factsFromIpinfoRecord(ip, {}, 'database');
      const record: unknown = reader.get(address.text);
      try {
        // No record: IPinfo has nothing for this address (unallocated or unannounced).
        return factsFromIpinfoRecord(ip, record ?? {}, 'database');
      } catch (e) {
        if (!(e instanceof IpinfoRecordError)) throw e;
        // The operator's file is not in IPinfo Lite format: a service fault, not the caller's.
        throw new UnavailableError(
          `IP data is unavailable: the IP database is not in IPinfo Lite format (${e.message})`,
          { cause: e },
        );
      }
    },
    // The reader holds a buffer, not a file.
    close: async () => {},
  };
}

/** Reads the file once and checks that it is an MMDB. */
export async function openOperatorMmdb(path: string): Promise<OpenIpDatabase> {
  const buffer = await readBoundedFile(path, MAX_OPERATOR_MMDB_BYTES);
  return ipinfoMmdbDatabase(new Reader<Response>(buffer));
}
