/**
 * Country and continent names for the two-letter codes found in IP data, from
 * the countries-list tables (ISO 3166-1 alpha-2 names in English; continent
 * codes AF, AN, AS, EU, NA, OC, SA). No name is made up here except for the few
 * codes below that registries use but ISO 3166-1 does not assign.
 */
import { continents, countries, type ICountry } from 'countries-list';

export interface Geography {
  /** ISO 3166-1 alpha-2 (upper case), a registry region code (EU, AP), or "" when unknown. */
  readonly countryCode: string;
  readonly country: string;
  /** AF, AN, AS, EU, NA, OC, SA, or "" when unknown. */
  readonly continentCode: string;
  readonly continent: string;
}

export const UNKNOWN_GEOGRAPHY: Geography = Object.freeze({
  countryCode: '',
  country: '',
  continentCode: '',
  continent: '',
});

/**
 * Codes that appear in RIR delegation files and WHOIS-derived data sets but are
 * not ISO 3166-1 country assignments:
 * - EU: a whole-region RIPE NCC registration ("European Union" in the ISO list of
 *   exceptionally reserved codes); it lies in Europe.
 * - AP: an APNIC region-wide registration ("Asia/Pacific Region"); it spans Asia
 *   and Oceania, so no single continent is claimed.
 * - AN: Netherlands Antilles, dissolved in 2010 and moved to ISO 3166-3 (former
 *   codes), still present in some registrations (the bundled country data has
 *   it); the islands are in the Caribbean, i.e. North America.
 * XK (Kosovo, a user-assigned code in common use) is in countries-list itself.
 */
const REGISTRY_REGIONS: Readonly<Record<string, { country: string; continentCode: string }>> = {
  EU: { country: 'European Union', continentCode: 'EU' },
  AP: { country: 'Asia/Pacific Region', continentCode: '' },
  AN: { country: 'Netherlands Antilles', continentCode: 'NA' },
};

/**
 * Markers meaning "no country": ZZ (ISO "unknown or unspecified"), XX (used by
 * some data sets alike) and "--" (MaxMind legacy / RIR placeholders).
 */
const UNKNOWN_MARKERS = new Set(['ZZ', 'XX', '--']);

const countryTable = countries as Readonly<Record<string, ICountry | undefined>>;
const continentTable = continents as Readonly<Record<string, string | undefined>>;

/** The English name of a continent code, or "" when the code is not one of the seven. */
export function continentName(code: string): string {
  return continentTable[code.toUpperCase()] ?? '';
}

/**
 * Geography of a country code as found in IP data. Unknown markers and anything
 * that is not two letters give UNKNOWN_GEOGRAPHY; a well-formed code missing from
 * the tables keeps its code with empty names (the data knows more than we do).
 */
export function describeCountry(rawCode: string): Geography {
  const code = rawCode.trim().toUpperCase();
  if (!/^[A-Z]{2}$/.test(code) || UNKNOWN_MARKERS.has(code)) return UNKNOWN_GEOGRAPHY;
  const entry = countryTable[code];
  const named = entry ? { country: entry.name, continentCode: entry.continent } : REGISTRY_REGIONS[code];
  if (!named) return { countryCode: code, country: '', continentCode: '', continent: '' };
  return {
    countryCode: code,
    country: named.country,
    continentCode: named.continentCode,
    continent: continentName(named.continentCode),
  };
}
