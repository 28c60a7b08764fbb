import { describe, expect, it } from 'vitest';
import { parsePingOutput } from '../../../probes/ping/parse.js';
import { addressToPing, pingData, reverseDnsFromResponse, reverseLookupName } from './result.js';
import type { DnsRecord, DnsResponse } from '../../../probes/dns/client.js';

function response(rcode: 'NOERROR' | 'NXDOMAIN', answers: DnsRecord[]): DnsResponse {
  return {
    rcode,
    authoritative: false,
    authenticData: false,
    recursionAvailable: true,
    truncated: false,
    answers,
    authority: [],
    server: '127.0.0.1:53',
    elapsedMs: 1,
    transport: 'udp',
  };
}

describe('reverseLookupName', () => {
  it('reverses IPv4 octets under in-addr.arpa (RFC 1035 §3.5)', () => {
    expect(reverseLookupName('192.0.2.10')).toBe('10.2.0.192.in-addr.arpa');
  });

  it('writes IPv6 as 32 nibbles under ip6.arpa (RFC 3596 §2.5)', () => {
    expect(reverseLookupName('2001:db8::567:89ab')).toBe(
      'b.a.9.8.7.6.5.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.0.8.b.d.0.1.0.0.2.ip6.arpa',
    );
    expect(reverseLookupName('::1')).toBe(`1.${'0.'.repeat(31)}ip6.arpa`);
  });
});

describe('reverseDnsFromResponse', () => {
  const name = '10.2.0.192.in-addr.arpa';

  it('takes the first PTR target without its trailing dot', () => {
    const answer = response('NOERROR', [
      { name, type: 'PTR', ttl: 300, data: 'host.example.' },
      { name, type: 'PTR', ttl: 300, data: 'alias.example' },
    ]);
    expect(reverseDnsFromResponse(answer, name)).toEqual({ name: 'host.example', error: null });
  });

  it('follows a CNAME as RFC 2317 classless delegation uses it', () => {
    const answer = response('NOERROR', [
      { name, type: 'CNAME', ttl: 300, data: '10.0-25.2.0.192.in-addr.arpa' },
      { name: '10.0-25.2.0.192.in-addr.arpa', type: 'PTR', ttl: 300, data: 'delegated.example' },
    ]);
    expect(reverseDnsFromResponse(answer, name).name).toBe('delegated.example');
  });

  it('is "" without an error for NXDOMAIN and for no PTR record', () => {
    expect(reverseDnsFromResponse(response('NXDOMAIN', []), name)).toEqual({ name: '', error: null });
    expect(
      reverseDnsFromResponse(
        response('NOERROR', [{ name: 'other.arpa', type: 'PTR', ttl: 1, data: 'x.example' }]),
        name,
      ),
    ).toEqual({
      name: '',
      error: null,
    });
  });
});

describe('addressToPing', () => {
  it('takes the first IPv4 address, else the first IPv6 one', () => {
    expect(
      addressToPing([
        { address: '2001:db8::1', family: 6 },
        { address: '192.0.2.1', family: 4 },
        { address: '192.0.2.2', family: 4 },
      ]),
    ).toEqual({ address: '192.0.2.1', family: 4 });
    expect(
      addressToPing([
        { address: '2001:db8::2', family: 6 },
        { address: '2001:db8::1', family: 6 },
      ]).address,
    ).toBe('2001:db8::2');
    expect(() => addressToPing([])).toThrow(RangeError);
  });
});

describe('pingData', () => {
  it('carries the statistics, with null times when Offline', () => {
    const offline = parsePingOutput(
      '--- 192.0.2.1 ping statistics ---\n4 packets transmitted, 0 received, +2 errors, 100% packet loss, time 3049ms\n',
    )!;
    expect(pingData('example.com', '192.0.2.1', { name: '', error: 'timed out' }, offline)).toEqual({
      host: 'example.com',
      ip: '192.0.2.1',
      reverseDns: '',
      reverseDnsError: 'timed out',
      status: 'Offline',
      sent: 4,
      received: 0,
      lost: 4,
      lossPercent: 100,
      min: null,
      max: null,
      average: null,
      duplicates: 0,
      icmpErrors: 2,
      text: '--- 192.0.2.1 ping statistics ---\n4 packets transmitted, 0 received, +2 errors, 100% packet loss, time 3049ms',
    });
  });
});
