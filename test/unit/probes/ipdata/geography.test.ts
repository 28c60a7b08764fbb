import { describe, expect, it } from 'vitest';
import { continentName, describeCountry, UNKNOWN_GEOGRAPHY } from '../../../../src/probes/ipdata/geography.js';

describe('describeCountry', () => {
  it('names countries and their continents from countries-list', () => {
    expect(describeCountry('US')).toEqual({
      countryCode: 'US',
      country: 'United States',
      continentCode: 'NA',
      continent: 'North America',
    });
    expect(describeCountry('au')).toEqual({
      countryCode: 'AU',
      country: 'Australia',
      continentCode: 'OC',
      continent: 'Oceania',
    });
    expect(describeCountry('AQ')).toMatchObject({
      country: 'Antarctica',
      continentCode: 'AN',
      continent: 'Antarctica',
    });
    expect(describeCountry('BR')).toMatchObject({ continentCode: 'SA', continent: 'South America' });
  });

  it('knows Kosovo by its user-assigned code XK', () => {
    expect(describeCountry('XK')).toEqual({
      countryCode: 'XK',
      country: 'Kosovo',
      continentCode: 'EU',
      continent: 'Europe',
    });
  });

  it('maps registry region codes that ISO 3166-1 does not assign', () => {
    expect(describeCountry('EU')).toEqual({
      countryCode: 'EU',
      country: 'European Union',
      continentCode: 'EU',
      continent: 'Europe',
    });
    expect(describeCountry('AP')).toEqual({
      countryCode: 'AP',
      country: 'Asia/Pacific Region',
      continentCode: '',
      continent: '',
    });
    expect(describeCountry('AN')).toEqual({
      countryCode: 'AN',
      country: 'Netherlands Antilles',
      continentCode: 'NA',
      continent: 'North America',
    });
  });

  it('treats unknown markers and malformed codes as no country', () => {
    for (const code of ['ZZ', 'XX', '--', '', 'USA', '1A', ' '])
      expect(describeCountry(code), code).toEqual(UNKNOWN_GEOGRAPHY);
  });

  it('keeps a well-formed code that the tables lack, without inventing a name', () => {
    expect(describeCountry('QM')).toEqual({ countryCode: 'QM', country: '', continentCode: '', continent: '' });
  });
});

describe('continentName', () => {
  it('names the seven continent codes and nothing else', () => {
    expect(['AF', 'AN', 'AS', 'EU', 'NA', 'OC', 'SA'].map(continentName)).toEqual([
      'Africa',
      'Antarctica',
      'Asia',
      'Europe',
      'North America',
      'Oceania',
      'South America',
    ]);
    expect(continentName('XX')).toBe('');
    expect(continentName('')).toBe('');
  });
});
