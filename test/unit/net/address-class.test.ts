import { describe, expect, it } from 'vitest';
import {
  SPECIAL_PURPOSE_BLOCKS,
  classifyAddress,
  compileCidrs,
  formatIp,
  isInCidrs,
  normaliseIp,
  parseIp,
} from '../../../src/net/address-class.js';

/**
 * [address, expected range or null for "not special"]. For each block: an
 * address inside (usually both ends) and the addresses just outside. Public
 * addresses are used as values only; nothing here opens a socket.
 */
const IPV4_TABLE: readonly (readonly [string, string | null])[] = [
  ['0.0.0.0', 'unspecified'],
  ['0.0.0.1', 'current-network'],
  ['0.255.255.255', 'current-network'],
  ['1.0.0.0', null],
  ['9.255.255.255', null],
  ['10.0.0.0', 'private'],
  ['10.255.255.255', 'private'],
  ['11.0.0.0', null],
  ['100.63.255.255', null],
  ['100.64.0.0', 'carrier-grade NAT'],
  ['100.127.255.255', 'carrier-grade NAT'],
  ['100.128.0.0', null],
  ['126.255.255.255', null],
  ['127.0.0.0', 'loopback'],
  ['127.0.0.1', 'loopback'],
  ['127.255.255.255', 'loopback'],
  ['128.0.0.0', null],
  ['169.253.255.255', null],
  ['169.254.0.0', 'link-local'],
  ['169.254.169.254', 'link-local'],
  ['169.254.255.255', 'link-local'],
  ['169.255.0.0', null],
  ['172.15.255.255', null],
  ['172.16.0.0', 'private'],
  ['172.31.255.255', 'private'],
  ['172.32.0.0', null],
  ['191.255.255.255', null],
  ['192.0.0.0', 'DS-Lite'],
  ['192.0.0.7', 'DS-Lite'],
  ['192.0.0.8', 'IPv4 dummy'],
  ['192.0.0.9', 'PCP anycast'],
  ['192.0.0.10', 'TURN anycast'],
  ['192.0.0.11', 'IETF protocol assignment'],
  ['192.0.0.170', 'NAT64 discovery'],
  ['192.0.0.171', 'NAT64 discovery'],
  ['192.0.0.172', 'IETF protocol assignment'],
  ['192.0.0.255', 'IETF protocol assignment'],
  ['192.0.1.0', null],
  ['192.0.1.255', null],
  ['192.0.2.0', 'documentation'],
  ['192.0.2.255', 'documentation'],
  ['192.0.3.0', null],
  ['192.31.195.255', null],
  ['192.31.196.0', 'AS112'],
  ['192.31.196.255', 'AS112'],
  ['192.31.197.0', null],
  ['192.52.192.255', null],
  ['192.52.193.0', 'AMT'],
  ['192.52.193.255', 'AMT'],
  ['192.52.194.0', null],
  ['192.88.98.255', null],
  ['192.88.99.0', '6to4 relay anycast'],
  ['192.88.99.255', '6to4 relay anycast'],
  ['192.88.100.0', null],
  ['192.167.255.255', null],
  ['192.168.0.0', 'private'],
  ['192.168.255.255', 'private'],
  ['192.169.0.0', null],
  ['192.175.47.255', null],
  ['192.175.48.0', 'AS112'],
  ['192.175.48.255', 'AS112'],
  ['192.175.49.0', null],
  ['198.17.255.255', null],
  ['198.18.0.0', 'benchmarking'],
  ['198.19.255.255', 'benchmarking'],
  ['198.20.0.0', null],
  ['198.51.99.255', null],
  ['198.51.100.0', 'documentation'],
  ['198.51.100.255', 'documentation'],
  ['198.51.101.0', null],
  ['203.0.112.255', null],
  ['203.0.113.0', 'documentation'],
  ['203.0.113.255', 'documentation'],
  ['203.0.114.0', null],
  ['223.255.255.255', null],
  ['224.0.0.0', 'multicast'],
  ['239.255.255.255', 'multicast'],
  ['240.0.0.0', 'reserved'],
  ['255.255.255.254', 'reserved'],
  ['255.255.255.255', 'limited-broadcast'],
  ['93.184.216.34', null],
  ['8.8.8.8', null],
];

const IPV6_TABLE: readonly (readonly [string, string | null])[] = [
  ['::', 'unspecified'],
  ['::1', 'loopback'],
  ['::2', 'reserved'],
  // IPv4-mapped (RFC 4291 §2.5.5.2): the embedded IPv4 address decides
  ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
  ['::ffff:7f00:1', 'IPv4-mapped loopback'],
  ['::ffff:10.1.2.3', 'IPv4-mapped private'],
  ['::ffff:0.0.0.0', 'IPv4-mapped unspecified'],
  ['::ffff:169.254.169.254', 'IPv4-mapped link-local'],
  ['::ffff:93.184.216.34', null],
  ['::fffe:ffff:ffff', 'reserved'], // just below ::ffff:0:0/96
  ['::1:0:0:0', 'reserved'], // just above ::ffff:0:0/96
  ['::127.0.0.1', 'reserved'], // IPv4-compatible, deprecated (RFC 4291 §2.5.5.1)
  ['::ffff:0:7f00:1', 'reserved'], // SIIT "IPv4-translated" form, not a mapping
  // NAT64 well-known prefix (RFC 6052)
  ['64:ff9b::7f00:1', 'NAT64 of loopback'],
  ['64:ff9b::a00:1', 'NAT64 of private'],
  ['64:ff9b::192.168.1.1', 'NAT64 of private'],
  ['64:ff9b::5db8:d822', null],
  ['64:ff9b::1:5db8:d822', 'reserved'], // inside 64:ff9b::/32 but outside the /96
  ['64:ff9b:1::', 'local-use NAT64'],
  ['64:ff9b:1:ffff:ffff:ffff:ffff:ffff', 'local-use NAT64'],
  ['64:ff9b:1::5db8:d822', 'local-use NAT64'],
  ['64:ff9b:2::', 'reserved'],
  ['100::', 'discard-only'],
  ['100::ffff:ffff:ffff:ffff', 'discard-only'],
  ['100:0:0:1::', 'reserved'],
  ['1fff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'reserved'],
  ['2000::', null],
  ['2000:ffff:ffff:ffff:ffff:ffff:ffff:ffff', null],
  // 2001::/23 IETF protocol assignments and its more specific entries
  ['2001::', 'Teredo'],
  ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'Teredo'],
  ['2001:0:ffff:ffff:ffff:ffff:ffff:ffff', 'Teredo'],
  ['2001:1::1', 'PCP anycast'],
  ['2001:1::2', 'TURN anycast'],
  ['2001:1::3', 'DNS-SD SRP anycast'],
  ['2001:1::4', 'IETF protocol assignment'],
  ['2001:2::', 'benchmarking'],
  ['2001:2:0:ffff:ffff:ffff:ffff:ffff', 'benchmarking'],
  ['2001:2:1::', 'IETF protocol assignment'],
  ['2001:3::', 'AMT'],
  ['2001:4:112::', 'AS112'],
  ['2001:4:113::', 'IETF protocol assignment'],
  ['2001:10::', 'ORCHID'],
  ['2001:20::', 'ORCHIDv2'],
  ['2001:2f:ffff::', 'ORCHIDv2'],
  ['2001:30::', 'drone remote ID'],
  ['2001:1ff:ffff:ffff:ffff:ffff:ffff:ffff', 'IETF protocol assignment'],
  ['2001:200::', null],
  ['2001:db7:ffff:ffff:ffff:ffff:ffff:ffff', null],
  ['2001:db8::', 'documentation'],
  ['2001:db8:ffff:ffff:ffff:ffff:ffff:ffff', 'documentation'],
  ['2001:db9::', null],
  // 6to4 (RFC 3056): the embedded IPv4 address decides
  ['2002:7f00:1::', '6to4 of loopback'],
  ['2002:a00:1::1', '6to4 of private'],
  ['2002:c0a8:101::1', '6to4 of private'],
  ['2002:5db8:d822::1', null],
  ['2001:ffff:ffff:ffff:ffff:ffff:ffff:ffff', null],
  ['2003::', null],
  ['2606:4700::1', null],
  ['2620:4f:7fff:ffff:ffff:ffff:ffff:ffff', null],
  ['2620:4f:8000::', 'AS112'],
  ['2620:4f:8000:ffff:ffff:ffff:ffff:ffff', 'AS112'],
  ['2620:4f:8001::', null],
  ['3ffe:ffff:ffff:ffff:ffff:ffff:ffff:ffff', null],
  ['3fff::', 'documentation'],
  ['3fff:fff:ffff:ffff:ffff:ffff:ffff:ffff', 'documentation'],
  ['3fff:1000::', null],
  ['3fff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', null],
  ['4000::', 'reserved'],
  ['5eff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'reserved'],
  ['5f00::', 'SRv6 SID'],
  ['5f00:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'SRv6 SID'],
  ['5f01::', 'reserved'],
  ['fbff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'reserved'],
  ['fc00::', 'unique-local'],
  ['fd00:ec2::254', 'unique-local'],
  ['fdff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'unique-local'],
  ['fe00::', 'reserved'],
  ['fe7f:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'reserved'],
  ['fe80::', 'link-local'],
  ['febf:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'link-local'],
  ['fec0::', 'site-local'],
  ['feff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'site-local'],
  ['ff00::', 'multicast'],
  ['ff02::1', 'multicast'],
  ['ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff', 'multicast'],
];

describe('classifyAddress', () => {
  it.each([...IPV4_TABLE, ...IPV6_TABLE])('%s → %s', (address, range) => {
    expect(classifyAddress(address)).toEqual(range === null ? { special: false } : { special: true, range });
  });

  it('classifies every registry block at both of its ends', () => {
    for (const block of SPECIAL_PURPOSE_BLOCKS) {
      const first = formatIp({ family: block.family, bytes: block.bytes });
      const lastBytes = Uint8Array.from(block.bytes, (b, i) => {
        const fixedBits = Math.min(8, Math.max(0, block.prefixLength - 8 * i));
        return b | (0xff >> fixedBits);
      });
      const last = formatIp({ family: block.family, bytes: lastBytes });
      expect(classifyAddress(first).special, first).toBe(true);
      expect(classifyAddress(last).special, last).toBe(true);
    }
  });

  it('ignores an IPv6 zone identifier', () => {
    expect(classifyAddress('fe80::1%eth0')).toEqual({ special: true, range: 'link-local' });
  });

  it.each([
    '2130706433',
    '127.1',
    '0177.0.0.1',
    '0x7f.0.0.1',
    '01.2.3.4',
    '1.2.3.4.',
    'example.com',
    '',
    '::ffff:1.2.3.04',
  ])('throws on a non-canonical or non-IP text %j', (text) => {
    expect(() => classifyAddress(text)).toThrow(TypeError);
  });
});

describe('parseIp and formatIp', () => {
  const valid = [
    '1.2.3.4',
    '0.0.0.0',
    '255.255.255.255',
    '::',
    '::1',
    '1::',
    '1:2:3:4:5:6:7::',
    '::2:3:4:5:6:7:8',
    '1::2:3:4:5:6:7',
    '1:0:0:1:0:0:0:1',
    '0:0:1:0:0:1:0:0',
    '1:0:0:2:0:0:3:4',
    '2001:DB8::A',
    '2001:0db8:0000:0000:0000:0000:0000:0001',
    '::1.2.3.4',
    '64:ff9b::1.2.3.4',
    '1:2:3:4:5:6:1.2.3.4',
    'fe80::1:0:0:0',
  ];
  it.each(valid)('%s formats as the WHATWG URL serialiser does (RFC 5952)', (text) => {
    const parsed = parseIp(text);
    expect(parsed).not.toBeNull();
    const viaUrl = new URL(`http://${parsed!.family === 6 ? `[${text}]` : text}/`).hostname.replace(/^\[|\]$/g, '');
    expect(formatIp(parsed!)).toBe(viaUrl);
  });

  it('writes an IPv4-mapped address with a dotted tail (RFC 5952 §5), where URL writes hex', () => {
    expect(formatIp(parseIp('::ffff:7f00:1')!)).toBe('::ffff:127.0.0.1');
    expect(formatIp(parseIp('::FFFF:1.2.3.4')!)).toBe('::ffff:1.2.3.4');
  });

  it.each([
    '1.2.3',
    '1.2.3.4.5',
    '1.2.3.256',
    '01.2.3.4',
    '1.2.3.-1',
    '1.2.3.4 ',
    '0x1.2.3.4',
    ':::',
    '1:::2',
    '1::2::3',
    ':1::2',
    '1::2:',
    '1:2:3:4:5:6:7:8:9',
    '1:2:3:4:5:6:7',
    '1:2:3:4:5:6:7::8',
    '12345::',
    '::ffff:1.2.3',
    '::1.2.3.4:5',
    '1.2.3.4::',
    'fe80::1%eth0',
    '[::1]',
    'g::',
    '',
  ])('rejects %j', (text) => {
    expect(parseIp(text)).toBeNull();
  });
});

describe('isInCidrs and compileCidrs', () => {
  it.each([
    ['10.1.2.3', ['10.0.0.0/8'], true],
    ['11.0.0.0', ['10.0.0.0/8'], false],
    ['192.168.1.1', ['192.168.1.0/25'], true],
    ['192.168.1.128', ['192.168.1.0/25'], false],
    ['192.168.1.7', ['192.168.1.7'], true], // a bare address is a /32
    ['192.168.1.8', ['192.168.1.7'], false],
    ['10.9.9.9', ['10.1.2.3/8'], true], // host bits in the CIDR are ignored
    ['1.2.3.4', ['0.0.0.0/0'], true],
    ['fd00::1', ['fc00::/7'], true],
    ['fe00::1', ['fc00::/7'], false],
    ['2001:db8::1', ['2001:db8::1'], true],
    ['::ffff:10.1.2.3', ['10.0.0.0/8'], true], // IPv4 CIDR matches the mapped form
    ['::ffff:a01:203', ['10.0.0.0/8'], true],
    ['::ffff:11.0.0.0', ['10.0.0.0/8'], false],
    ['10.1.2.3', ['::ffff:10.0.0.0/104'], true], // and the other way round
    ['10.1.2.3', ['fc00::/7'], false],
    ['fd00::1', ['10.0.0.0/8'], false],
    ['64:ff9b::a00:1', ['10.0.0.0/8'], false], // NAT64 forms are not mapped forms
    ['10.1.2.3', [], false],
  ] as const)('%s in %j → %s', (ip, cidrs, expected) => {
    expect(isInCidrs(ip, cidrs)).toBe(expected);
  });

  it.each(['10.0.0.0/33', '::/129', '10.0.0.0/-1', '10.0.0.0/', '10.0.0.0/8/8', 'example.com/8', '10.0.0/8'])(
    'refuses the malformed CIDR %j',
    (cidr) => {
      expect(() => compileCidrs([cidr])).toThrow(TypeError);
    },
  );

  it('throws on an address that is not an IP literal', () => {
    expect(() => isInCidrs('example.com', ['10.0.0.0/8'])).toThrow(TypeError);
  });
});

describe('normaliseIp', () => {
  it.each([
    ['::ffff:203.0.113.9', '203.0.113.9', 4],
    ['::ffff:cb00:7109', '203.0.113.9', 4],
    ['::FFFF:93.184.216.34', '93.184.216.34', 4],
    ['93.184.216.34', '93.184.216.34', 4],
    ['2606:4700:0000:0000:0000:0000:0000:0001', '2606:4700::1', 6],
    ['2001:DB8::1', '2001:db8::1', 6],
    ['64:ff9b::1.2.3.4', '64:ff9b::102:304', 6],
    ['::1', '::1', 6],
  ] as const)('%s → %s (IPv%d)', (input, ip, family) => {
    expect(normaliseIp(input)).toEqual({ ip, family });
  });

  it.each(['2130706433', '1.2.3.04', 'example.com', '', 'fe80::1%eth0'])('throws on %j', (input) => {
    expect(() => normaliseIp(input)).toThrow(TypeError);
  });
});
