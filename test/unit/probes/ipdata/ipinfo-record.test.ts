import { describe, expect, it } from 'vitest';
import { factsFromIpinfoRecord, IpinfoRecordError } from '../../../../src/probes/ipdata/ipinfo-record.js';
import { factsFromBundled, formatAsn } from '../../../../src/probes/ipdata/facts.js';

describe('factsFromIpinfoRecord', () => {
  it('maps the IPinfo Lite fields', () => {
    const record = {
      ip: '8.8.8.8',
      asn: 'AS15169',
      as_name: 'Google LLC',
      as_domain: 'google.com',
      country_code: 'US',
      country: 'United States',
      continent_code: 'NA',
      continent: 'North America',
    };
    expect(factsFromIpinfoRecord('8.8.8.8', record, 'live')).toEqual({
      ip: '8.8.8.8',
      source: 'live',
      asn: 'AS15169',
      asName: 'Google LLC',
      asDomain: 'google.com',
      countryCode: 'US',
      country: 'United States',
      continentCode: 'NA',
      continent: 'North America',
      liveError: null,
    });
  });

  it('fills names missing from the record from the tables, and keeps names it has', () => {
    const facts = factsFromIpinfoRecord('1.1.1.1', { asn: 'as13335', country_code: 'au' }, 'database');
    expect(facts).toMatchObject({
      asn: 'AS13335',
      asName: '',
      asDomain: '',
      countryCode: 'AU',
      country: 'Australia',
      continentCode: 'OC',
      continent: 'Oceania',
    });
    const named = factsFromIpinfoRecord(
      '1.1.1.1',
      { country_code: 'CZ', country: 'Czech Republic', continent_code: 'EU' },
      'database',
    );
    expect(named).toMatchObject({ country: 'Czech Republic', continent: 'Europe' });
  });

  it('accepts a numeric asn (other MMDB builds) and normalises it', () => {
    expect(factsFromIpinfoRecord('8.8.8.8', { asn: 15169 }, 'database').asn).toBe('AS15169');
  });

  it('gives empty fields for an address IPinfo has nothing on (empty record, bogon)', () => {
    for (const record of [{}, { ip: '8.8.8.8', bogon: true }]) {
      expect(factsFromIpinfoRecord('8.8.8.8', record, 'live')).toEqual({
        ip: '8.8.8.8',
        source: 'live',
        asn: '',
        asName: '',
        asDomain: '',
        countryCode: '',
        country: '',
        continentCode: '',
        continent: '',
        liveError: null,
      });
    }
  });

  it('refuses records that are not IPinfo-shaped', () => {
    expect(() => factsFromIpinfoRecord('8.8.8.8', 'garbage', 'live')).toThrow(IpinfoRecordError);
    expect(() => factsFromIpinfoRecord('8.8.8.8', [1, 2], 'live')).toThrow(IpinfoRecordError);
    expect(() => factsFromIpinfoRecord('8.8.8.8', null, 'live')).toThrow(IpinfoRecordError);
    expect(() => factsFromIpinfoRecord('8.8.8.8', { country: 7 }, 'live')).toThrow('field "country" is not a string');
    expect(() => factsFromIpinfoRecord('8.8.8.8', { asn: 'Google' }, 'live')).toThrow(
      'field "asn" is not an AS number',
    );
    expect(() => factsFromIpinfoRecord('8.8.8.8', { asn: 0 }, 'live')).toThrow(IpinfoRecordError);
  });
});

describe('bundled facts', () => {
  it('formats AS numbers as AS<number> and nothing for no AS', () => {
    expect(formatAsn(15169)).toBe('AS15169');
    expect(formatAsn(4294967294)).toBe('AS4294967294');
    expect(formatAsn(0)).toBe('');
    expect(formatAsn(2 ** 32)).toBe('');
  });

  it('never has an AS domain and names the country from the tables', () => {
    expect(factsFromBundled('8.8.8.8', { asn: 15169, organisation: 'Google LLC' }, 'US')).toEqual({
      ip: '8.8.8.8',
      source: 'database',
      asn: 'AS15169',
      asName: 'Google LLC',
      asDomain: '',
      countryCode: 'US',
      country: 'United States',
      continentCode: 'NA',
      continent: 'North America',
      liveError: null,
    });
    expect(factsFromBundled('23.128.77.1', null, null)).toMatchObject({
      asn: '',
      asName: '',
      countryCode: '',
      continent: '',
    });
  });
});
