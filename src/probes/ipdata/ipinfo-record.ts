/**
 * Maps an IPinfo Lite record to IpFacts. The same field names are used by the
 * Lite API's JSON (`GET /lite/{ip}`) and by the IPinfo Lite MMDB: `asn`
 * ("AS15169"), `as_name`, `as_domain`, `country_code`, `country`,
 * `continent_code`, `continent`; the API adds `ip`, and `bogon: true` for
 * special-purpose addresses. A field that is absent means IPinfo has no such
 * data for the address; a field of the wrong type means the record is not what
 * we think it is.
 */
import { formatAsn, type IpFacts } from './facts.js';
import { continentName, describeCountry } from './geography.js';

export class IpinfoRecordError extends Error {}

const STRING_FIELDS = ['as_name', 'as_domain', 'country_code', 'country', 'continent_code', 'continent'] as const;

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** "AS15169", "as15169" or 15169 → "AS15169"; absent or empty → "". */
function normaliseAsn(value: unknown): string {
  if (value === undefined || value === null || value === '') return '';
  if (typeof value === 'number') {
    const formatted = formatAsn(value);
    if (formatted) return formatted;
  } else if (typeof value === 'string') {
    const m = /^(?:AS)?(\d{1,10})$/i.exec(value.trim());
    const formatted = m ? formatAsn(Number(m[1])) : '';
    if (formatted) return formatted;
  }
  throw new IpinfoRecordError(`field "asn" is not an AS number: ${JSON.stringify(value).slice(0, 40)}`);
}

/**
 * IpFacts from an IPinfo Lite record. Missing country or continent names are
 * filled in from the countries-list tables (a record may carry codes only).
 * Throws IpinfoRecordError when the record is not an object or a field has the
 * wrong type.
 */
export function factsFromIpinfoRecord(ip: string, record: unknown, source: IpFacts['source']): IpFacts {
  if (!isRecord(record)) throw new IpinfoRecordError('the record is not a JSON object');
  const text: Partial<Record<(typeof STRING_FIELDS)[number], string>> = {};
  for (const field of STRING_FIELDS) {
    const value = record[field];
    if (value === undefined || value === null) continue;
    if (typeof value !== 'string') throw new IpinfoRecordError(`field "${field}" is not a string`);
    text[field] = value.trim();
  }
  const asn = normaliseAsn(record.asn);
  const fromTables = describeCountry(text.country_code ?? '');
  const continentCode = (text.continent_code ?? '').toUpperCase() || fromTables.continentCode;
  return {
    ip,
    source,
    asn,
    asName: text.as_name ?? '',
    asDomain: text.as_domain ?? '',
    countryCode: fromTables.countryCode,
    country: fromTables.countryCode ? text.country || fromTables.country : '',
    continentCode,
    continent: text.continent || continentName(continentCode),
    liveError: null,
  };
}
