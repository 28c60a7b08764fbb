import { describe, expect, it } from 'vitest';
import { parseHostOrIp } from '../../../src/validation.js';
import { expectInputError } from './expect-input-error.js';

/** Numeric IPv4 forms that inet_aton() and the WHATWG URL parser accept, and the address each one means. */
const NUMERIC_IPV4_FORMS: readonly (readonly [string, string])[] = [
  ['127.0.0.1', '127.0.0.1'],
  ['2130706433', '127.0.0.1'], // one 32-bit decimal number
  ['0x7f000001', '127.0.0.1'], // one hex number
  ['0X7F000001', '127.0.0.1'],
  ['017700000001', '127.0.0.1'], // one octal number
  ['0177.0.0.1', '127.0.0.1'], // octal first part
  ['0x7f.0.0.1', '127.0.0.1'],
  ['0x7f.1', '127.0.0.1'], // a.b: b fills 24 bits
  ['127.1', '127.0.0.1'],
  ['127.0.1', '127.0.0.1'], // a.b.c: c fills 16 bits
  ['127.000.000.001', '127.0.0.1'], // zeros-padded parts are octal
  ['0x7f.0x0.0x0.0x1', '127.0.0.1'],
  ['127.0.0.1.', '127.0.0.1'], // trailing dot
  ['0', '0.0.0.0'],
  ['0x', '0.0.0.0'],
  ['10.1', '10.0.0.1'],
  ['167772161', '10.0.0.1'],
  ['012.0.0.1', '10.0.0.1'],
  ['192.168.257', '192.168.1.1'],
  ['0xa9fea9fe', '169.254.169.254'],
  ['4294967295', '255.255.255.255'],
  ['01.02.03.04', '1.2.3.4'],
  ['１２７．０．０．１', '127.0.0.1'], // full-width digits and dots map to ASCII first (UTS #46)
  ['93.184.216.34', '93.184.216.34'],
];

const INVALID_IPV4_FORMS = [
  '4294967296', // 2^32
  '1.2.3.256',
  '256.1.1.1',
  '1.2.65536',
  '08.1.1.1', // "08" is octal with an invalid digit
  '0x.0x.0x.0x.0x',
  '1.2.3.4.5',
  '1..2.3',
  'example.1',
  'example.0x10',
  'a.b.c.d.e.1',
];

describe('parseHostOrIp: IPv4 literals', () => {
  it.each(NUMERIC_IPV4_FORMS)('%j means %s', (form, ip) => {
    expect(parseHostOrIp('host', form)).toEqual({ kind: 'ip', ip, family: 4 });
  });

  it.each(NUMERIC_IPV4_FORMS)('%j means what the WHATWG URL parser says it means', (form, ip) => {
    expect(new URL(`http://${form}/`).hostname).toBe(ip);
  });

  it.each(INVALID_IPV4_FORMS)('refuses %j, which is neither an IPv4 address nor a hostname', (form) => {
    expectInputError(() => parseHostOrIp('host', form), 'host', 'is neither a valid IPv4 address nor a hostname');
    // The URL parser refuses these too, so an http-headers URL cannot carry them either.
    expect(() => new URL(`http://${form}/`)).toThrow();
  });
});

describe('parseHostOrIp: IPv6 literals', () => {
  it.each([
    ['::1', '::1'],
    ['[::1]', '::1'],
    ['0:0:0:0:0:0:0:1', '::1'],
    ['2606:4700::1', '2606:4700::1'],
    ['[2606:4700:0000::0001]', '2606:4700::1'],
    ['2001:DB8::A', '2001:db8::a'],
    ['::ffff:127.0.0.1', '::ffff:127.0.0.1'], // kept as IPv6: the guard classifies the embedded address
    ['::ffff:7f00:1', '::ffff:127.0.0.1'],
    ['[::ffff:7f00:1]', '::ffff:127.0.0.1'],
    ['64:ff9b::7f00:1', '64:ff9b::7f00:1'],
    ['64:ff9b::127.0.0.1', '64:ff9b::7f00:1'],
    ['::127.0.0.1', '::7f00:1'],
  ])('%j → %s', (value, ip) => {
    expect(parseHostOrIp('host', value)).toEqual({ kind: 'ip', ip, family: 6 });
  });

  it.each([
    ['fe80::1%eth0', 'has an IPv6 zone identifier'],
    ['[fe80::1%25eth0]', 'has an IPv6 zone identifier'],
    ['1::2::3', 'is not a valid IPv6 address'],
    ['12345::', 'is not a valid IPv6 address'],
    ['[::1', 'is not a valid bracketed IPv6 address'],
    ['::1]', 'is not a valid bracketed IPv6 address'],
    ['[::1]:80', 'is not a valid bracketed IPv6 address'],
    ['[1.2.3.4]', 'is not a valid IPv6 address'],
    ['[example.com]', 'is not a valid IPv6 address'],
    ['::ffff:127.0.0.01', 'is not a valid IPv6 address'],
  ])('refuses %j', (value, fragment) => {
    expectInputError(() => parseHostOrIp('host', value), 'host', fragment);
  });
});

describe('parseHostOrIp: hostnames', () => {
  it.each([
    ['example.com', 'example.com'],
    ['Example.COM.', 'example.com'],
    ['bücher.example', 'xn--bcher-kva.example'],
    ['1.example', '1.example'],
    ['example.0x1g', 'example.0x1g'],
  ])('%j → %j', (value, hostname) => {
    expect(parseHostOrIp('host', value)).toEqual({ kind: 'hostname', hostname });
  });

  it.each([
    ['localhost', 'has a single label'],
    ['_dmarc.example.com', 'contains "_"'],
    [`${'a'.repeat(64)}.com`, 'a DNS label has at most 63'],
    ['example..com', 'has an empty label'],
    ['http://example.com', 'is a URL; give the host name or IP address alone'],
    ['example.com:80', 'has a port; give the host name or IP address alone'],
    ['127.0.0.1:22', 'has a port'],
    ['', 'must not be empty'],
    ['example.com\u0000', 'control character U+0000'],
  ])('refuses %j', (value, fragment) => {
    expectInputError(() => parseHostOrIp('host', value), 'host', fragment);
  });
});
