/**
 * authoritativeRecords against an in-memory check context: which servers it asks (and never asks),
 * and how it reads their answers. End-to-end behaviour is in src/checks/dns/dns-propagation/propagation.integration.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { authoritativeRecords, type AuthoritativeContext } from './authoritative-run.js';
import type { DnsQuery, DnsRecord, DnsResponse } from '../../../probes/dns/client.js';
import { ProbeError } from '../../../probes/errors.js';
import { createTargetGuard, type ResolvedAddress } from '../../../probes/guard.js';

const PORT = 5300;

const record = (name: string, type: string, data: DnsRecord['data']): DnsRecord => ({ name, type, ttl: 300, data });
const soa = (zone: string) =>
  record(zone, 'SOA', {
    mname: `ns.${zone}`,
    rname: `hostmaster.${zone}`,
    serial: 1,
    refresh: 1,
    retry: 1,
    expire: 1,
    minimum: 60,
  });

function response(fields: Partial<DnsResponse>): DnsResponse {
  return {
    rcode: 'NOERROR',
    authoritative: false,
    authenticData: false,
    recursionAvailable: true,
    truncated: false,
    answers: [],
    authority: [],
    server: 'fake',
    elapsedMs: 1,
    transport: 'udp',
    ...fields,
  };
}

interface World {
  /** system resolver answers, keyed "name TYPE"; a missing key is NXDOMAIN */
  resolver: Record<string, Partial<DnsResponse>>;
  addresses: Record<string, ResolvedAddress[]>;
  /** authoritative servers by address: the answer to any question sent there */
  servers: Record<string, (q: DnsQuery) => Partial<DnsResponse> | ProbeError>;
}

function fakeContext(
  world: World,
  allow: string[] = ['127.0.0.0/8', '::1/128'],
): { ctx: AuthoritativeContext; asked: DnsQuery[] } {
  const asked: DnsQuery[] = [];
  const resolve = async (name: string, type: string) =>
    response({ rcode: 'NXDOMAIN', ...world.resolver[`${name} ${type}`] });
  const addresses = async (name: string) => world.addresses[name] ?? [];
  const ctx: AuthoritativeContext = {
    ports: { dnsAuthoritative: PORT, http: 80, https: 443, smtp: 25 },
    async dnsLive(q) {
      asked.push(q);
      const answer = world.servers[q.server.host]?.(q) ?? new ProbeError('TIMEOUT', q.server.host, 'no answer');
      if (answer instanceof ProbeError) throw answer;
      return response(answer);
    },
    resolve,
    addresses,
    guard: createTargetGuard({ allow, resolve: addresses }),
  };
  return { ctx, asked };
}

const zone = (name: string, ns: string, address: string): World['resolver'] => ({
  [`${name} SOA`]: { answers: [soa(name)] },
  [`${name} NS`]: { answers: [record(name, 'NS', ns)] },
  [`${ns} A`]: { answers: [record(ns, 'A', address)] },
});

describe('authoritativeRecords', () => {
  it("asks the zone's server directly, without recursion, on the authoritative port", async () => {
    const { ctx, asked } = fakeContext({
      resolver: zone('a.test', 'ns1.a.test', '127.0.0.1'),
      addresses: { 'ns1.a.test': [{ address: '127.0.0.1', family: 4 }] },
      servers: { '127.0.0.1': () => ({ authoritative: true, answers: [record('a.test', 'A', '192.0.2.1')] }) },
    });
    expect(await authoritativeRecords(ctx, 'a.test', 'A')).toEqual(['192.0.2.1']);
    expect(asked).toEqual([
      { name: 'a.test', type: 'A', server: { host: '127.0.0.1', port: PORT }, recursionDesired: false },
    ]);
  });

  it("follows an alias that leaves the zone into the target's zone", async () => {
    const { ctx, asked } = fakeContext({
      resolver: {
        // the resolver follows www.a.test's alias, so its SOA is the target zone's: the parent is asked instead
        'www.a.test SOA': { answers: [record('www.a.test', 'CNAME', 'cdn.b.test'), soa('b.test')] },
        ...zone('a.test', 'ns1.a.test', '127.0.0.1'),
        'cdn.b.test SOA': { authority: [soa('b.test')] },
        ...zone('b.test', 'ns.b.test', '127.0.0.2'),
      },
      addresses: {
        'ns1.a.test': [{ address: '127.0.0.1', family: 4 }],
        'ns.b.test': [{ address: '127.0.0.2', family: 4 }],
      },
      servers: {
        '127.0.0.1': () => ({ authoritative: true, answers: [record('www.a.test', 'CNAME', 'cdn.b.test')] }),
        '127.0.0.2': () => ({ authoritative: true, answers: [record('cdn.b.test', 'A', '192.0.2.7')] }),
      },
    });
    expect(await authoritativeRecords(ctx, 'www.a.test', 'A')).toEqual(['192.0.2.7']);
    expect(asked.map((q) => `${q.server.host} ${q.name}`)).toEqual(['127.0.0.1 www.a.test', '127.0.0.2 cdn.b.test']);
  });

  it('reads an alias inside the zone ending in NODATA, and an NXDOMAIN, as no records', async () => {
    const { ctx, asked } = fakeContext({
      resolver: { 'x.a.test SOA': { authority: [soa('a.test')] }, ...zone('a.test', 'ns1.a.test', '127.0.0.1') },
      addresses: { 'ns1.a.test': [{ address: '127.0.0.1', family: 4 }] },
      servers: {
        '127.0.0.1': (q) =>
          q.name === 'x.a.test'
            ? { authoritative: true, answers: [record('x.a.test', 'CNAME', 'y.a.test')], authority: [soa('a.test')] }
            : { authoritative: true, rcode: 'NXDOMAIN', authority: [soa('a.test')] },
      },
    });
    expect(await authoritativeRecords(ctx, 'x.a.test', 'AAAA')).toEqual([]);
    expect(await authoritativeRecords(ctx, 'a.test', 'MX')).toEqual([]);
    expect(asked).toHaveLength(2);
  });

  it('never asks a refused address, prefers IPv4, and ignores servers that are not authoritative', async () => {
    const { ctx, asked } = fakeContext({
      resolver: {
        'a.test SOA': { answers: [soa('a.test')] },
        'a.test NS': { answers: ['ns1.a.test', 'ns2.a.test', 'ns3.a.test'].map((ns) => record('a.test', 'NS', ns)) },
      },
      addresses: {
        'ns1.a.test': [{ address: '10.0.0.53', family: 4 }],
        'ns2.a.test': [
          { address: '::1', family: 6 },
          { address: '127.0.0.3', family: 4 },
        ],
        'ns3.a.test': [{ address: '127.0.0.4', family: 4 }],
      },
      servers: {
        '10.0.0.53': () => ({ authoritative: true, answers: [record('a.test', 'A', '192.0.2.66')] }),
        '127.0.0.3': () => ({ authoritative: true, answers: [record('a.test', 'A', '192.0.2.1')] }),
        '127.0.0.4': () => ({ authoritative: false, answers: [record('a.test', 'A', '192.0.2.44')] }),
      },
    });
    expect(await authoritativeRecords(ctx, 'a.test', 'A')).toEqual(['192.0.2.1']);
    expect(asked.map((q) => q.server.host).sort()).toEqual(['127.0.0.3', '127.0.0.4']);
  });

  it('gives null when every server is lame or fails, when none may be asked, and for the root zone', async () => {
    const lame = fakeContext({
      resolver: zone('a.test', 'ns1.a.test', '127.0.0.1'),
      addresses: { 'ns1.a.test': [{ address: '127.0.0.1', family: 4 }] },
      servers: { '127.0.0.1': () => ({ authoritative: false }) },
    });
    expect(await authoritativeRecords(lame.ctx, 'a.test', 'A')).toBeNull();

    const failing = fakeContext({
      resolver: zone('a.test', 'ns1.a.test', '127.0.0.1'),
      addresses: { 'ns1.a.test': [{ address: '127.0.0.1', family: 4 }] },
      servers: { '127.0.0.1': () => new ProbeError('REFUSED', '127.0.0.1', 'refused') },
    });
    expect(await authoritativeRecords(failing.ctx, 'a.test', 'A')).toBeNull();

    const strict = fakeContext(
      {
        resolver: zone('a.test', 'ns1.a.test', '127.0.0.1'),
        addresses: { 'ns1.a.test': [{ address: '127.0.0.1', family: 4 }] },
        servers: {},
      },
      [],
    );
    expect(await authoritativeRecords(strict.ctx, 'a.test', 'A')).toBeNull();
    expect(strict.asked).toEqual([]);

    const rootward = fakeContext({
      resolver: { 'a.nosuchtld SOA': { rcode: 'NXDOMAIN', authority: [soa('')] } },
      addresses: {},
      servers: {},
    });
    expect(await authoritativeRecords(rootward.ctx, 'a.nosuchtld', 'A')).toBeNull();
    expect(rootward.asked).toEqual([]);
  });

  it('lets a failure of the system resolver through: the caller decides what it means', async () => {
    const { ctx } = fakeContext({ resolver: {}, addresses: {}, servers: {} });
    ctx.resolve = () => Promise.reject(new ProbeError('SERVFAIL', '127.0.0.1:53', 'SERVFAIL'));
    await expect(authoritativeRecords(ctx, 'a.test', 'A')).rejects.toMatchObject({ kind: 'SERVFAIL' });
  });
});
