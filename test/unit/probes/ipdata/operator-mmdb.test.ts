/**
 * An operator-supplied IPinfo Lite MMDB (`ipInfo.database`). maxmind has no
 * writer, so test/lab/mmdb-writer.ts writes a small one per the MaxMind DB spec.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UnavailableError } from '../../../../src/errors.js';
import { createIpDataSource } from '../../../../src/probes/ipdata/source.js';
import { ipinfoMmdbDatabase } from '../../../../src/probes/ipdata/operator-mmdb.js';
import { writeMmdb, type MmdbNetwork } from '../../../lab/mmdb-writer.js';
import { SHARED_IP_DATA_DIR } from '../../../helpers/ip-data.js';

const NETWORKS: MmdbNetwork[] = [
  {
    network: '8.8.8.0/24',
    data: {
      asn: 'AS15169',
      as_name: 'Google LLC',
      as_domain: 'google.com',
      country_code: 'US',
      country: 'United States',
      continent_code: 'NA',
      continent: 'North America',
    },
  },
  {
    network: '2a00:1450::/32',
    data: {
      asn: 'AS15169',
      as_name: 'Google LLC',
      as_domain: 'google.com',
      country_code: 'IE',
      country: 'Ireland',
      continent_code: 'EU',
      continent: 'Europe',
    },
  },
  // a record with codes only and a numeric asn, as other MMDB builds have
  { network: '1.1.1.0/24', data: { asn: 13335, as_name: 'Cloudflare, Inc.', country_code: 'AU' } },
  // a record of the wrong shape
  { network: '9.9.9.0/24', data: { asn: 'AS19281', country: { en: 'Switzerland' } } },
];

let dir: string;
let path: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'netdiag-ipdata-'));
  path = join(dir, 'ipinfo_lite.mmdb');
  await writeFile(path, writeMmdb(NETWORKS));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const embedded = (database: string | null) =>
  createIpDataSource({
    source: 'embedded',
    database,
    dataDir: SHARED_IP_DATA_DIR,
    token: null,
    baseUrl: 'http://127.0.0.1:9',
    timeoutMs: 1000,
  });

describe('an operator IPinfo Lite MMDB', () => {
  it('answers every field from the MMDB, AS domain included', async () => {
    expect(await embedded(path).lookup('8.8.8.8')).toEqual({
      ip: '8.8.8.8',
      source: 'database',
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

  it('answers IPv6 addresses', async () => {
    expect(await embedded(path).lookup('2a00:1450:4001::1')).toMatchObject({
      asn: 'AS15169',
      asDomain: 'google.com',
      countryCode: 'IE',
      continent: 'Europe',
    });
  });

  it('replaces the bundled data: an address it lacks has empty fields', async () => {
    // 8.8.4.4 is Google in the bundled data, but the operator's file has no record for it.
    expect(await embedded(path).lookup('8.8.4.4')).toMatchObject({
      asn: '',
      asName: '',
      asDomain: '',
      countryCode: '',
      country: '',
    });
    expect(await embedded(path).lookup('2d00::1')).toMatchObject({ asn: '', countryCode: '' });
  });

  it('normalises a numeric asn and names a country given by code only', async () => {
    expect(await embedded(path).lookup('1.1.1.1')).toMatchObject({
      asn: 'AS13335',
      asName: 'Cloudflare, Inc.',
      asDomain: '',
      countryCode: 'AU',
      country: 'Australia',
      continentCode: 'OC',
      continent: 'Oceania',
    });
  });

  it('fails loudly (503) on a record of the wrong shape rather than answering empty fields', async () => {
    const error = await embedded(path)
      .lookup('9.9.9.9')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnavailableError);
    expect((error as UnavailableError).message).toContain('field "country" is not a string');
  });

  it('is UNAVAILABLE while the file is missing or not an MMDB, and opens once it is there', async () => {
    const later = join(dir, 'later.mmdb');
    const source = embedded(later);
    await expect(source.lookup('8.8.8.8')).rejects.toBeInstanceOf(UnavailableError);
    await expect(source.warm()).rejects.toThrow(/ENOENT/);
    await writeFile(later, 'this is not an mmdb');
    await expect(source.lookup('8.8.8.8')).rejects.toBeInstanceOf(UnavailableError);
    await writeFile(later, writeMmdb(NETWORKS));
    expect((await source.lookup('8.8.8.8')).asDomain).toBe('google.com');
  });
});

describe('ipinfoMmdbDatabase with an injected reader', () => {
  it('asks the reader for IPv4 when given an IPv4-mapped address', async () => {
    const asked: string[] = [];
    const database = ipinfoMmdbDatabase({
      metadata: { ipVersion: 6 } as never,
      get: (ip: string) => {
        asked.push(ip);
        return { asn: 'AS15169', country_code: 'US' } as never;
      },
    });
    expect(await database.lookup('::ffff:8.8.8.8')).toMatchObject({
      ip: '::ffff:8.8.8.8',
      asn: 'AS15169',
      country: 'United States',
    });
    expect(asked).toEqual(['8.8.8.8']);
  });

  it('does not ask an IPv4-only tree about IPv6', async () => {
    const database = ipinfoMmdbDatabase({
      metadata: { ipVersion: 4 } as never,
      get: () => {
        throw new Error('must not be asked');
      },
    });
    expect(await database.lookup('2001:4860::1')).toMatchObject({ asn: '', countryCode: '' });
  });
});
