import { describe, expect, it } from 'vitest';
import { classifyDnsblOutcome, countListed, dnsblQueryName, reversedAddressLabels } from './dnsbl.js';
import type { DnsblOutcome } from './dnsbl.js';
import { InputError } from '../../../errors.js';
import { ProbeError } from '../../../probes/errors.js';

const spamhaus = { zone: 'zen.spamhaus.org', name: 'Spamhaus ZEN' };
const spamcop = { zone: 'bl.spamcop.net', name: 'SpamCop' };

describe('dnsblQueryName (RFC 5782 §2.1, §2.4)', () => {
  it.each([
    ['192.0.2.99', 'zen.spamhaus.org', '99.2.0.192.zen.spamhaus.org'],
    ['127.0.0.2', 'bl.spamcop.net.', '2.0.0.127.bl.spamcop.net'],
    ['::ffff:192.0.2.99', 'zen.spamhaus.org', '99.2.0.192.zen.spamhaus.org'],
    [
      '2001:db8:1:2:3:4:567:89ab',
      'zen.spamhaus.org',
      'b.a.9.8.7.6.5.0.4.0.0.0.3.0.0.0.2.0.0.0.1.0.0.0.8.b.d.0.1.0.0.2.zen.spamhaus.org',
    ],
  ])('%s in %s → %s', (ip, zone, name) => {
    expect(dnsblQueryName(ip, zone)).toBe(name);
  });

  it('writes 32 nibbles for an abbreviated IPv6 address', () => {
    const labels = reversedAddressLabels('2001:db8::1').split('.');
    expect(labels).toHaveLength(32);
    expect(labels[0]).toBe('1');
    expect(labels.slice(-4)).toEqual(['1', '0', '0', '2']);
  });

  it.each(['example.com', '1.2.3', '300.1.1.1', ''])('refuses %j', (bad) => {
    expect(() => dnsblQueryName(bad, 'zen.spamhaus.org')).toThrow(InputError);
  });
});

describe('classifyDnsblOutcome', () => {
  const query = '99.2.0.192.zen.spamhaus.org';
  const answerOf = (addresses: string[], txt?: string[]): DnsblOutcome => ({
    kind: 'answer',
    rcode: 'NOERROR',
    addresses,
    ...(txt ? { txt } : {}),
  });

  it.each([
    ['NXDOMAIN', { kind: 'answer', rcode: 'NXDOMAIN', addresses: [] } as DnsblOutcome],
    ['NOERROR without A records', answerOf([])],
  ])('%s → clean', (_label, outcome) => {
    expect(classifyDnsblOutcome(spamhaus, query, outcome)).toEqual({
      zone: 'zen.spamhaus.org',
      name: 'Spamhaus ZEN',
      query,
      status: 'clean',
      codes: [],
      reason: null,
    });
  });

  it.each([
    ['127.0.0.2', 'SBL'],
    ['127.0.0.4', 'XBL'],
    ['127.0.0.10', 'PBL'],
    ['127.0.0.255', 'listed (127.0.0.255)'],
    ['127.1.0.7', 'listed (127.1.0.7)'],
  ])('Spamhaus %s → listed (%s)', (code, reason) => {
    const result = classifyDnsblOutcome(spamhaus, query, answerOf([code]));
    expect(result.status).toBe('listed');
    expect(result.codes).toEqual([code]);
    expect(result.reason).toContain(reason);
  });

  it('joins several codes and prefers the list TXT as reason', () => {
    const several = classifyDnsblOutcome(spamhaus, query, answerOf(['127.0.0.2', '127.0.0.4', '127.0.0.2']));
    expect(several.reason).toBe('SBL (spam source), XBL (exploited host)');
    const withTxt = classifyDnsblOutcome(
      spamcop,
      query,
      answerOf(['127.0.0.2'], ['Blocked - see https://www.spamcop.net/bl.shtml?192.0.2.99']),
    );
    expect(withTxt.reason).toContain('spamcop.net/bl.shtml');
  });

  it.each([
    ['127.255.255.252', 'mistyped'],
    ['127.255.255.254', 'public or unattributable resolver'],
    ['127.255.255.255', 'too many queries'],
    ['127.255.255.253', 'list error code 127.255.255.253'],
  ])('Spamhaus error code %s → error, not a listing', (code, reason) => {
    const result = classifyDnsblOutcome(spamhaus, query, answerOf([code]));
    expect(result.status).toBe('error');
    expect(result.reason).toContain(reason);
    expect(result.reason).toContain('not a listing');
  });

  it('treats an error code as an error even beside a listing code, and for any list', () => {
    expect(classifyDnsblOutcome(spamhaus, query, answerOf(['127.0.0.2', '127.255.255.254'])).status).toBe('error');
    expect(classifyDnsblOutcome(spamcop, query, answerOf(['127.255.255.254'])).status).toBe('error');
  });

  it.each(['127.0.0.1', '127.0.0.0'])('%s → error (not a listing code)', (code) => {
    const result = classifyDnsblOutcome(spamcop, query, answerOf([code]));
    expect(result.status).toBe('error');
    expect(result.reason).toContain('not a listing');
  });

  it.each(['192.0.2.1', '10.0.0.1', '2001:db8::1', 'garbage'])(
    'answer %s outside 127/8 → error "unexpected answer"',
    (code) => {
      const result = classifyDnsblOutcome(spamhaus, query, answerOf(['127.0.0.2', code]));
      expect(result.status).toBe('error');
      expect(result.reason).toContain('unexpected answer');
    },
  );

  it.each([
    [new ProbeError('TIMEOUT', '127.0.0.1:53', 'no answer within 2000 ms'), 'time-out'],
    [new ProbeError('SERVFAIL', '127.0.0.1:53', 'rcode SERVFAIL'), 'SERVFAIL'],
    [new ProbeError('REFUSED', '127.0.0.1:53', 'rcode REFUSED'), 'refused'],
    [new ProbeError('MALFORMED', '127.0.0.1:53', 'undecodable answer'), 'undecodable answer'],
  ])('failed question %s → error', (error, reason) => {
    const result = classifyDnsblOutcome(spamhaus, query, { kind: 'error', error });
    expect(result).toMatchObject({ status: 'error', codes: [] });
    expect(result.reason).toContain(reason);
  });

  it('counts listings only', () => {
    const results = [
      classifyDnsblOutcome(spamhaus, query, answerOf(['127.0.0.2'])),
      classifyDnsblOutcome(spamcop, query, answerOf(['127.255.255.254'])),
      classifyDnsblOutcome(spamcop, query, { kind: 'answer', rcode: 'NXDOMAIN', addresses: [] }),
    ];
    expect(countListed(results)).toBe(1);
  });
});
