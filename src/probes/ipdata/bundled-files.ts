/** Where the installed packages of the bundled IP data (./bundled.ts) keep their files. */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

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
