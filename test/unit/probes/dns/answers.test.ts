import { describe, expect, it } from 'vitest';
import { createDnsClient, recordsOfType, responseTtl } from '../../../../src/probes/dns/client.js';
import type { DnsRecord, DnsResponse } from '../../../../src/probes/dns/client.js';
import { rr, startDnsLab } from '../../../lab/dns-server.js';
import type { DnsLab } from '../../../lab/dns-server.js';

function response(parts: Partial<DnsResponse>): DnsResponse {
  return {
    rcode: 'NOERROR',
    authoritative: false,
    authenticData: false,
    recursionAvailable: true,
    truncated: false,
    answers: [],
    authority: [],
    server: '127.0.0.1:53',
    elapsedMs: 1,
    transport: 'udp',
    ...parts,
  };
}
const rec = (name: string, type: string, data: DnsRecord['data'], ttl = 300): DnsRecord => ({ name, type, ttl, data });
const soa = (ttl: number, minimum: number): DnsRecord =>
  rec(
    'zone.test',
    'SOA',
    { mname: 'ns.zone.test', rname: 'h.zone.test', serial: 1, refresh: 1, retry: 1, expire: 1, minimum },
    ttl,
  );

describe('recordsOfType', () => {
  it('follows a CNAME chain inside a real answer to the records at its end', async () => {
    const lab: DnsLab = await startDnsLab({
      records: [
        rr.cname('www.chain.test', 'edge.chain.test'),
        rr.cname('edge.chain.test', 'origin.chain.test'),
        rr.a('origin.chain.test', '192.0.2.40'),
        rr.a('origin.chain.test', '192.0.2.41'),
      ],
    });
    try {
      const r = await createDnsClient({ timeoutMs: 2000 }).query({
        name: 'www.chain.test',
        type: 'A',
        server: lab.address,
      });
      expect(r.answers.map((a) => a.type)).toEqual(['CNAME', 'CNAME', 'A', 'A']);
      expect(recordsOfType(r, 'www.chain.test', 'A').map((a) => a.data)).toEqual(['192.0.2.40', '192.0.2.41']);
      expect(recordsOfType(r, 'WWW.Chain.Test.', 'A')).toHaveLength(2);
      expect(recordsOfType(r, 'www.chain.test', 'CNAME').map((a) => a.data)).toEqual(['edge.chain.test']);
    } finally {
      await lab.close();
    }
  });

  it('ignores records that do not belong to the question', () => {
    const r = response({
      answers: [rec('other.test', 'A', '192.0.2.1'), rec('a.test', 'TXT', 'x'), rec('a.test', 'A', '192.0.2.2')],
    });
    expect(recordsOfType(r, 'a.test', 'A').map((a) => a.data)).toEqual(['192.0.2.2']);
  });

  it('gives nothing for a chain that leaves the answer or loops', () => {
    const dangling = response({ answers: [rec('a.test', 'CNAME', 'b.test')] });
    expect(recordsOfType(dangling, 'a.test', 'A')).toEqual([]);
    const loop = response({ answers: [rec('a.test', 'CNAME', 'b.test'), rec('b.test', 'CNAME', 'a.test')] });
    expect(recordsOfType(loop, 'a.test', 'A')).toEqual([]);
  });

  it('stops after 16 hops', () => {
    const hops = (n: number) => [
      ...Array.from({ length: n }, (_, i) => rec(`h${i}.test`, 'CNAME', `h${i + 1}.test`)),
      rec(`h${n}.test`, 'A', '192.0.2.9'),
    ];
    expect(recordsOfType(response({ answers: hops(16) }), 'h0.test', 'A')).toHaveLength(1);
    expect(recordsOfType(response({ answers: hops(17) }), 'h0.test', 'A')).toEqual([]);
  });
});

describe('responseTtl', () => {
  it('a positive answer: the smallest TTL of the answer section', () => {
    const r = response({ answers: [rec('a.test', 'CNAME', 'b.test', 600), rec('b.test', 'A', '192.0.2.1', 90)] });
    expect(responseTtl(r)).toBe(90);
  });

  it('NXDOMAIN: min(SOA TTL, SOA MINIMUM) (RFC 2308 §5)', () => {
    expect(responseTtl(response({ rcode: 'NXDOMAIN', authority: [soa(3600, 300)] }))).toBe(300);
    expect(responseTtl(response({ rcode: 'NXDOMAIN', authority: [soa(120, 900)] }))).toBe(120);
  });

  it('NODATA: the same negative TTL', () => {
    expect(responseTtl(response({ authority: [soa(3600, 60)] }))).toBe(60);
  });

  it('a negative answer without SOA is not cached', () => {
    expect(responseTtl(response({ rcode: 'NXDOMAIN' }))).toBe(0);
    expect(responseTtl(response({}))).toBe(0);
  });

  it('a CNAME that ends in NODATA is bounded by both', () => {
    const r = response({ answers: [rec('a.test', 'CNAME', 'b.test', 900)], authority: [soa(3600, 45)] });
    expect(responseTtl(r)).toBe(45);
  });

  it('works on what the lab sends: SOA minimum for NXDOMAIN, record TTL for an answer', async () => {
    const lab = await startDnsLab({
      records: [rr.soa('ttl.test', { minimum: 30 }, 3600), rr.a('x.ttl.test', '192.0.2.1', 75)],
    });
    try {
      const client = createDnsClient({ timeoutMs: 2000 });
      expect(responseTtl(await client.query({ name: 'x.ttl.test', type: 'A', server: lab.address }))).toBe(75);
      expect(responseTtl(await client.query({ name: 'y.ttl.test', type: 'A', server: lab.address }))).toBe(30);
    } finally {
      await lab.close();
    }
  });
});
