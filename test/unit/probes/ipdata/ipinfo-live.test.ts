/**
 * The live IPinfo Lite source against a fake IPinfo on 127.0.0.1 (never the real
 * one), and its fall-back to the database. The fall-back database here is a
 * small operator MMDB, so that "from the database" is recognisable: its 8.8.8.0/24
 * record says AS64500 "Fallback AS".
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type net from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Agent } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createIpDataSource, type IpDataSourceOptions } from '../../../../src/probes/ipdata/source.js';
import { ProbeError } from '../../../../src/probes/errors.js';
import { liteRecord, startFakeIpinfo, type FakeIpinfo } from '../../../lab/ipinfo-server.js';
import { writeMmdb } from '../../../lab/mmdb-writer.js';

const TOKEN = 'test-token-5f2a9c';
const FALLBACK = {
  asn: 'AS64500',
  asName: 'Fallback AS',
  asDomain: 'fallback.example',
  countryCode: 'DE',
  country: 'Germany',
};

let fake: FakeIpinfo;
let agent: Agent;
let dir: string;
let fallbackDb: string;

beforeAll(async () => {
  fake = await startFakeIpinfo();
  agent = new Agent();
  dir = await mkdtemp(join(tmpdir(), 'netdiag-ipinfo-'));
  fallbackDb = join(dir, 'fallback.mmdb');
  await writeFile(
    fallbackDb,
    writeMmdb([
      {
        network: '8.8.8.0/24',
        data: {
          asn: 'AS64500',
          as_name: 'Fallback AS',
          as_domain: 'fallback.example',
          country_code: 'DE',
          country: 'Germany',
          continent_code: 'EU',
          continent: 'Europe',
        },
      },
    ]),
  );
});

afterAll(async () => {
  await agent.close();
  await fake.close();
  await rm(dir, { recursive: true, force: true });
});

function live(overrides: Partial<IpDataSourceOptions> = {}) {
  return createIpDataSource({
    source: 'ipinfo',
    database: fallbackDb,
    dataDir: dir,
    token: TOKEN,
    baseUrl: fake.url,
    timeoutMs: 2000,
    dispatcher: agent,
    ...overrides,
  });
}

/** Runs one lookup and returns the requests the fake saw meanwhile. */
async function lookupSeen(ip: string, options: Partial<IpDataSourceOptions> = {}) {
  const before = fake.requests.length;
  const facts = await live(options).lookup(ip);
  return { facts, requests: fake.requests.slice(before) };
}

describe('a live answer', () => {
  it('is used as IPinfo gives it, with source "live", and the token goes in the query', async () => {
    fake.reply('8.8.8.8', { kind: 'json', record: liteRecord('8.8.8.8') });
    const { facts, requests } = await lookupSeen('8.8.8.8');
    expect(facts).toEqual({
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
    expect(requests).toHaveLength(1);
    expect(requests[0]).toMatchObject({ method: 'GET', path: '/lite/8.8.8.8', query: { token: TOKEN } });
    expect(requests[0]!.headers.accept).toBe('application/json');
  });

  it('honours a base URL with a path prefix and a trailing slash', async () => {
    fake.reply('8.8.8.8', { kind: 'json', record: liteRecord('8.8.8.8') });
    const { facts, requests } = await lookupSeen('8.8.8.8', { baseUrl: `${fake.url}/ipinfo-proxy/` });
    expect(facts.source).toBe('live');
    expect(requests.map((r) => r.path)).toEqual(['/ipinfo-proxy/lite/8.8.8.8']);
  });

  it('asks about IPv6 addresses in their RFC 5952 form', async () => {
    fake.reply('2001:4860:4860::8888', { kind: 'json', record: liteRecord('2001:4860:4860::8888') });
    const { facts, requests } = await lookupSeen('2001:4860:4860:0:0:0:0:8888');
    expect(facts).toMatchObject({ ip: '2001:4860:4860:0:0:0:0:8888', source: 'live', asn: 'AS15169' });
    expect(requests[0]!.path).toBe('/lite/2001:4860:4860::8888');
  });

  it('sends no token parameter when none is configured', async () => {
    fake.reply('8.8.8.8', { kind: 'json', record: liteRecord('8.8.8.8') });
    const { requests } = await lookupSeen('8.8.8.8', { token: null });
    expect(requests[0]!.query).toEqual({});
  });

  it('gives empty fields, still live, for an address IPinfo has nothing on', async () => {
    fake.reply('23.128.77.1', { kind: 'json', record: { ip: '23.128.77.1' } });
    const { facts } = await lookupSeen('23.128.77.1');
    expect(facts).toMatchObject({
      source: 'live',
      asn: '',
      asName: '',
      countryCode: '',
      continent: '',
      liveError: null,
    });
  });
});

describe('a live failure falls back to the database and says why', () => {
  async function fallback(reply: Parameters<FakeIpinfo['reply']>[1], options: Partial<IpDataSourceOptions> = {}) {
    fake.reply('8.8.8.8', reply);
    const { facts, requests } = await lookupSeen('8.8.8.8', options);
    expect(requests).toHaveLength(1);
    expect(facts).toMatchObject({ ip: '8.8.8.8', source: 'database', ...FALLBACK });
    expect(facts.liveError).toEqual(expect.any(String));
    // The token is in the URL; no message may carry it.
    expect(facts.liveError).not.toContain(TOKEN);
    return facts.liveError!;
  }

  it('on 429 (quota used up)', async () => {
    expect(await fallback({ kind: 'status', status: 429 })).toBe(
      `IPinfo (${new URL(fake.url).host}) answered HTTP 429: the request quota is used up`,
    );
  });

  it('on 403 (token refused)', async () => {
    expect(await fallback({ kind: 'status', status: 403 })).toContain('HTTP 403: the token was refused');
  });

  it('on 500', async () => {
    expect(await fallback({ kind: 'status', status: 500, body: 'oops' })).toContain('answered HTTP 500');
  });

  it('on a body that is not JSON', async () => {
    expect(await fallback({ kind: 'raw', contentType: 'text/html', body: '<html>captive portal</html>' })).toContain(
      'not JSON',
    );
  });

  it('on JSON about another address', async () => {
    expect(await fallback({ kind: 'json', record: liteRecord('8.8.4.4') })).toContain('not about the address asked');
  });

  it('on JSON that is not an object', async () => {
    expect(await fallback({ kind: 'raw', contentType: 'application/json', body: '["8.8.8.8"]' })).toContain(
      'not about the address asked',
    );
  });

  it('on a record with fields of the wrong type', async () => {
    expect(await fallback({ kind: 'json', record: { ...liteRecord('8.8.8.8'), country: 840 } })).toContain(
      'field "country" is not a string',
    );
  });

  it('on headers slower than the time-out, ending well before the server would answer', async () => {
    const started = performance.now();
    const error = await fallback(
      { kind: 'slow-headers', ms: 15_000, record: liteRecord('8.8.8.8') },
      { timeoutMs: 300 },
    );
    expect(error).toContain('did not answer within 300 ms');
    expect(performance.now() - started).toBeLessThan(10_000);
  });

  it('on a body that stalls past the time-out', async () => {
    expect(await fallback({ kind: 'stalled-body' }, { timeoutMs: 300 })).toContain('did not answer within 300 ms');
  });

  it('on a body over the byte bound, declared or streamed, and closes that connection', async () => {
    const big = { ...liteRecord('8.8.8.8'), as_name: 'x'.repeat(4096) };
    expect(await fallback({ kind: 'json', record: big }, { maxBodyBytes: 1024 })).toMatch(
      /answered \d+ bytes, more than the 1024 allowed/,
    );
    expect(await fallback({ kind: 'endless-body' }, { maxBodyBytes: 1024 })).toContain('answered more than 1024 bytes');
    // The endless body stops only when the client closes the connection.
    await expect.poll(() => fake.endlessBodiesOpen(), { timeout: 5000 }).toBe(0);
  });

  it('on a refused connection', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as net.AddressInfo;
    await new Promise<void>((resolve) => closed.close(() => resolve()));
    const facts = await live({ baseUrl: `http://127.0.0.1:${port}` }).lookup('8.8.8.8');
    expect(facts).toMatchObject({
      source: 'database',
      ...FALLBACK,
      liveError: `IPinfo (127.0.0.1:${port}) refused the connection`,
    });
  });

  it('to the bundled data when no operator database is set', async () => {
    fake.reply('8.8.8.8', { kind: 'status', status: 429 });
    const facts = await live({ database: null }).lookup('8.8.8.8');
    expect(facts).toMatchObject({
      source: 'database',
      asn: 'AS15169',
      asName: 'Google LLC',
      asDomain: '',
      countryCode: 'US',
    });
    expect(facts.liveError).toContain('HTTP 429');
  });
});

describe('the caller ending the request', () => {
  it('ends the lookup with ABORTED and no fall-back', async () => {
    fake.reply('8.8.8.8', { kind: 'slow-headers', ms: 15_000, record: liteRecord('8.8.8.8') });
    const controller = new AbortController();
    const before = fake.requests.length;
    const pending = live({ timeoutMs: 10_000 }).lookup('8.8.8.8', { signal: controller.signal });
    await expect.poll(() => fake.requests.length).toBe(before + 1);
    controller.abort();
    const error = await pending.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProbeError);
    expect((error as ProbeError).kind).toBe('ABORTED');
    expect((error as ProbeError).status).toBe(504);
  });

  it('sends nothing when the signal has already fired', async () => {
    const controller = new AbortController();
    controller.abort();
    const before = fake.requests.length;
    await expect(live().lookup('8.8.8.8', { signal: controller.signal })).rejects.toMatchObject({ kind: 'ABORTED' });
    expect(fake.requests.length).toBe(before);
  });
});
