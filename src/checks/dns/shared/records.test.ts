import { describe, expect, it } from 'vitest';
import { formatLookupRecords, recordText, recordTexts } from './records.js';
import type { DnsRecord } from '../../../probes/dns/types.js';

const soa = {
  mname: 'ns1.example.com',
  rname: 'hostmaster.example.com',
  serial: 2026010101,
  refresh: 7200,
  retry: 900,
  expire: 1209600,
  minimum: 300,
};

const answers: DnsRecord[] = [
  { name: 'www.example.com', type: 'CNAME', ttl: 300, data: 'example.com' },
  { name: 'example.com', type: 'A', ttl: 300, data: '192.0.2.1' },
  { name: 'example.com', type: 'A', ttl: 300, data: '192.0.2.2' },
  { name: 'www.example.com', type: 'CNAME', ttl: 300, data: 'example.com' }, // again, from the AAAA answer
  { name: 'example.com', type: 'AAAA', ttl: 300, data: '2001:db8::1' },
  { name: 'example.com', type: 'MX', ttl: 300, data: { preference: 20, exchange: 'mx2.example.com' } },
  { name: 'example.com', type: 'MX', ttl: 300, data: { preference: 10, exchange: 'mx1.example.com' } },
  { name: 'example.com', type: 'TXT', ttl: 300, data: 'v=spf1 -all' },
  { name: 'example.com', type: 'NS', ttl: 300, data: 'ns1.example.com' },
  { name: 'example.com', type: 'SOA', ttl: 300, data: soa },
  { name: 'example.com', type: 'RRSIG', ttl: 300, data: { rdataHex: '00' } },
];

describe('formatLookupRecords', () => {
  it('builds the dns-lookup records object', () => {
    expect(formatLookupRecords(answers)).toEqual({
      A: ['192.0.2.1', '192.0.2.2'],
      AAAA: ['2001:db8::1'],
      MX: [
        { exchange: 'mx1.example.com', priority: 10, type: 'MX' },
        { exchange: 'mx2.example.com', priority: 20, type: 'MX' },
      ],
      TXT: ['v=spf1 -all'],
      CNAME: ['example.com'],
      NS: ['ns1.example.com'],
      SOA: [
        {
          nsname: 'ns1.example.com',
          hostmaster: 'hostmaster.example.com',
          serial: 2026010101,
          refresh: 7200,
          retry: 900,
          expire: 1209600,
          minttl: 300,
        },
      ],
    });
  });

  it('gives empty arrays for an empty answer (NXDOMAIN is a result)', () => {
    expect(formatLookupRecords([])).toEqual({ A: [], AAAA: [], MX: [], TXT: [], CNAME: [], NS: [], SOA: [] });
  });

  it('refuses data of the wrong shape instead of printing undefined', () => {
    expect(() => formatLookupRecords([{ name: 'x', type: 'MX', ttl: 1, data: 'mx.example.com' }])).toThrow(TypeError);
    expect(() => formatLookupRecords([{ name: 'x', type: 'A', ttl: 1, data: { rdataHex: '00' } }])).toThrow(TypeError);
  });
});

describe('recordText', () => {
  it.each([
    [{ name: 'e', type: 'A', ttl: 1, data: '192.0.2.1' }, '192.0.2.1'],
    [{ name: 'e', type: 'MX', ttl: 1, data: { preference: 10, exchange: 'mx.example.com' } }, '10 mx.example.com'],
    [
      { name: 'e', type: 'SOA', ttl: 1, data: soa },
      'ns1.example.com hostmaster.example.com 2026010101 7200 900 1209600 300',
    ],
    [{ name: 'e', type: 'TXT', ttl: 1, data: 'hello world' }, 'hello world'],
    [
      { name: 'e', type: 'DS', ttl: 1, data: { keyTag: 1, algorithm: 13, digestType: 2, digest: 'AB' } },
      '{"keyTag":1,"algorithm":13,"digestType":2,"digest":"AB"}',
    ],
  ] as [DnsRecord, string][])('%j → %s', (record, text) => {
    expect(recordText(record)).toBe(text);
  });

  it('keeps only the asked type (the CNAME chain of an A answer is left out)', () => {
    expect(recordTexts('A', answers)).toEqual(['192.0.2.1', '192.0.2.2']);
    expect(recordTexts('MX', answers)).toEqual(['20 mx2.example.com', '10 mx1.example.com']);
  });
});
