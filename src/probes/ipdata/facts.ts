/**
 * The IP facts behind ip-info, asn-lookup and what-is-my-ip (api-v1.md), as plain
 * objects so that the caller can cache them (decisions §9: 24 h) and serialise
 * them as they are.
 *
 * Every string field is "" when the source has no data for the address, e.g. an
 * address that no registry has allocated or no network announces: that is a
 * result, not an error.
 */
import type { AsnEntry } from './asn-index.js';
import { describeCountry, type Geography } from './geography.js';

export interface IpFacts {
  ip: string;
  /** decisions §5: `live` from a live provider (IPinfo Lite API), `database` from a database file. */
  source: 'live' | 'database';
  /** "AS15169", or "" when no AS covers the address. */
  asn: string;
  asName: string;
  /**
   * The AS's web domain ("google.com"). Only IPinfo sources carry it: the live
   * IPinfo Lite API and an operator-supplied IPinfo Lite MMDB (`ipInfo.database`).
   * Always "" from the bundled data, and "" when IPinfo has none for the AS.
   */
  asDomain: string;
  countryCode: string;
  country: string;
  continentCode: string;
  continent: string;
  /**
   * Added field (non-breaking): why the live provider could not answer when
   * `ipInfo.source` is `ipinfo` and these facts therefore come from the database;
   * null otherwise.
   */
  liveError: string | null;
}

/** "AS<number>" (api-v1.md), or "" for no AS (0 is never assigned, RFC 7607). */
export function formatAsn(asn: number): string {
  return Number.isInteger(asn) && asn > 0 && asn <= 0xffffffff ? `AS${asn}` : '';
}

/** Facts from the bundled data: AS from the ASN index, country from the country MMDB. */
export function factsFromBundled(ip: string, as: AsnEntry | null, countryCode: string | null): IpFacts {
  const geography: Geography = describeCountry(countryCode ?? '');
  return {
    ip,
    source: 'database',
    asn: as ? formatAsn(as.asn) : '',
    asName: as?.organisation ?? '',
    asDomain: '',
    ...geography,
    liveError: null,
  };
}
