/**
 * The bundled data as installed (@ip-location-db/asn and
 * @ip-location-db/geo-whois-asn-country-mmdb 2.3.2026061719). The expected values
 * were read from asn-ipv4.csv / asn-ipv6.csv and the MMDB of that version; a new
 * package version may move them, in which case re-read the rows named here.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { createIpDataSource, type IpDataSource } from '../../../../src/probes/ipdata/source.js';
import { InputError } from '../../../../src/errors.js';
import { ProbeError } from '../../../../src/probes/errors.js';
import { SHARED_IP_DATA_DIR } from '../../../helpers/ip-data.js';

const GOOGLE_US = {
  asn: 'AS15169',
  asName: 'Google LLC',
  asDomain: '',
  countryCode: 'US',
  country: 'United States',
  continentCode: 'NA',
  continent: 'North America',
};

let source: IpDataSource;

beforeAll(async () => {
  const s = createIpDataSource({
    source: 'embedded',
    database: null,
    dataDir: SHARED_IP_DATA_DIR,
    token: null,
    baseUrl: 'http://127.0.0.1:9',
    timeoutMs: 1000,
  });
  await s.warm();
  source = s;
});

describe('bundled IPv4 data', () => {
  it('knows 8.8.8.0/24 (asn-ipv4.csv: 8.8.8.0,8.8.8.255,15169,Google LLC) to its first and last address', async () => {
    for (const ip of ['8.8.8.0', '8.8.8.8', '8.8.8.255']) {
      expect(await source.lookup(ip)).toEqual({ ip, source: 'database', ...GOOGLE_US, liveError: null });
    }
  });

  it('gives the neighbouring rows to the addresses just outside', async () => {
    expect(await source.lookup('8.8.7.255')).toMatchObject({ asn: 'AS3356', asName: 'Level 3 Communications, Inc.' });
    expect(await source.lookup('8.8.9.0')).toMatchObject({ asn: 'AS23089', asName: 'Hotwire Communications' });
  });

  it('unquotes organisation names with commas', async () => {
    expect(await source.lookup('1.1.1.1')).toMatchObject({
      asn: 'AS13335',
      asName: 'Cloudflare, Inc.',
      // the whois-derived country of 1.1.1.0/24 (APNIC) in this data set
      countryCode: 'AU',
      country: 'Australia',
      continentCode: 'OC',
      continent: 'Oceania',
    });
  });

  it('resolves the overlap of AS749 214.95.0.0-215.0.255.255 and AS721 215.0.0.0-215.1.3.255 to the later row', async () => {
    expect((await source.lookup('214.95.0.0')).asn).toBe('AS749');
    expect((await source.lookup('214.255.255.255')).asn).toBe('AS749');
    expect((await source.lookup('215.0.0.0')).asn).toBe('AS721');
    expect((await source.lookup('215.1.3.255')).asn).toBe('AS721');
    expect((await source.lookup('215.1.4.0')).asn).toBe('AS27066');
  });

  it('gives empty fields, not an error, for an address without data (23.128.0.0/10 is an ARIN reserve)', async () => {
    expect(await source.lookup('23.128.77.1')).toEqual({
      ip: '23.128.77.1',
      source: 'database',
      asn: '',
      asName: '',
      asDomain: '',
      countryCode: '',
      country: '',
      continentCode: '',
      continent: '',
      liveError: null,
    });
  });

  it('looks an IPv4-mapped IPv6 address up as IPv4 and reports it as asked', async () => {
    expect(await source.lookup('::ffff:8.8.8.8')).toMatchObject({ ip: '::ffff:8.8.8.8', ...GOOGLE_US });
  });
});

describe('bundled IPv6 data', () => {
  it('knows 2001:4860::-2001:4860:4804:ffff:ffff:ffff:ffff:ffff to both ends', async () => {
    for (const ip of ['2001:4860::', '2001:4860:4860::8888', '2001:4860:4804:ffff:ffff:ffff:ffff:ffff']) {
      expect(await source.lookup(ip)).toEqual({ ip, source: 'database', ...GOOGLE_US, liveError: null });
    }
  });

  it('switches AS at the next address, and before the first', async () => {
    expect(await source.lookup('2001:4860:4805::')).toMatchObject({ asn: 'AS43515', asName: 'Google Ireland Limited' });
    expect(await source.lookup('2001:4858:ffff:ffff:ffff:ffff:ffff:ffff')).toMatchObject({
      asn: 'AS32097',
      asName: 'WholeSale Internet, Inc.',
    });
  });

  it('takes the country from the MMDB, which may differ from the AS registration', async () => {
    expect(await source.lookup('2a00:1450:4001::1')).toMatchObject({
      asn: 'AS15169',
      countryCode: 'IE',
      country: 'Ireland',
      continentCode: 'EU',
      continent: 'Europe',
    });
  });

  it('gives empty fields for unallocated global unicast space (2d00::/8)', async () => {
    expect(await source.lookup('2d00::1')).toMatchObject({
      asn: '',
      asName: '',
      countryCode: '',
      country: '',
      continent: '',
    });
  });
});

describe('the embedded data source', () => {
  it('refuses what is not an IP address', async () => {
    await expect(source.lookup('example.com')).rejects.toBeInstanceOf(InputError);
  });

  it('ends with ABORTED when the signal has fired', async () => {
    const controller = new AbortController();
    controller.abort();
    const error = await source.lookup('8.8.8.8', { signal: controller.signal }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProbeError);
    expect((error as ProbeError).kind).toBe('ABORTED');
  });

  it('returns plain objects that survive JSON and structuredClone unchanged', async () => {
    const facts = await source.lookup('1.1.1.1');
    expect(JSON.parse(JSON.stringify(facts))).toEqual(facts);
    expect(structuredClone(facts)).toEqual(facts);
    expect(Object.getPrototypeOf(facts)).toBe(Object.prototype);
  });
});
