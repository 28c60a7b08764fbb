/** Wire forms the verification rebuilds: RFC 4034 §4.3's NSEC RDATA, trust anchors, RRSIG time arithmetic. */
import { describe, expect, it } from 'vitest';
import { parseTrustAnchors } from './anchors.js';
import { canonicalRdata } from './rdata.js';
import { absoluteTime, isoTime } from './time.js';

describe('canonical RDATA', () => {
  it('RFC 4034 §4.3: alfa.example.com NSEC host.example.com (A MX RRSIG NSEC TYPE1234)', () => {
    const rdata = canonicalRdata({
      name: 'alfa.example.com',
      type: 'NSEC',
      ttl: 86400,
      data: { nextDomain: 'host.example.com', types: ['A', 'MX', 'RRSIG', 'NSEC', 'TYPE1234'] },
    });
    const expected = Buffer.concat([
      Buffer.from('04686f7374076578616d706c6503636f6d00', 'hex'),
      Buffer.from('0006400100000003', 'hex'),
      Buffer.from([0x04, 0x1b, ...Array(26).fill(0), 0x20]),
    ]);
    expect(rdata?.toString('hex')).toBe(expected.toString('hex'));
  });

  it('lower-cases the names of the types RFC 4034 §6.2 lists, and keeps the NSEC next name as written (RFC 6840 §5.1)', () => {
    expect(
      canonicalRdata({ name: 'x', type: 'MX', ttl: 1, data: { preference: 10, exchange: 'Mail.Example' } }),
    ).toEqual(Buffer.from('000a046d61696c076578616d706c6500', 'hex'));
    expect(
      canonicalRdata({ name: 'x', type: 'NSEC', ttl: 1, data: { nextDomain: 'B.example', types: [] } })?.subarray(0, 2),
    ).toEqual(Buffer.from('0142', 'hex'));
  });

  it('keeps the character-strings of a TXT record where they were split', () => {
    const record = { name: 'x', type: 'TXT', ttl: 1, data: 'ab', characterStrings: ['YQ==', 'Yg=='] };
    expect(canonicalRdata(record)).toEqual(Buffer.from('01610162', 'hex'));
    expect(canonicalRdata({ name: 'x', type: 'TXT', ttl: 1, data: 'ab' })).toEqual(Buffer.from('026162', 'hex'));
  });

  it('writes AAAA addresses with "::" and a dotted quad', () => {
    expect(canonicalRdata({ name: 'x', type: 'AAAA', ttl: 1, data: '2001:db8::1' })?.toString('hex')).toBe(
      '20010db8000000000000000000000001',
    );
    expect(canonicalRdata({ name: 'x', type: 'AAAA', ttl: 1, data: '::ffff:192.0.2.1' })?.toString('hex')).toBe(
      '00000000000000000000ffffc0000201',
    );
  });
});

describe('trust anchors', () => {
  it('reads DS records in presentation format, with or without TTL and class', () => {
    expect(
      parseTrustAnchors([
        '. IN DS 20326 8 2 E06D44B80B8F1D39A95C0B0D7C65D08458E880409BBC683457104237C7F8EC8D',
        '. 3600 DS 38696 8 2 683d2d0a cb8c9b71 2a1948b2 7f741219 298d0a45 0d612c48 3af444a4 c0fb2b16',
      ]),
    ).toEqual([
      {
        owner: '.',
        ds: {
          keyTag: 20326,
          algorithm: 8,
          digestType: 2,
          digest: 'E06D44B80B8F1D39A95C0B0D7C65D08458E880409BBC683457104237C7F8EC8D',
        },
      },
      {
        owner: '.',
        ds: {
          keyTag: 38696,
          algorithm: 8,
          digestType: 2,
          digest: '683D2D0ACB8C9B712A1948B27F741219298D0A450D612C483AF444A4C0FB2B16',
        },
      },
    ]);
  });

  it('refuses anchors for several zones', () => {
    expect(() => parseTrustAnchors(['. IN DS 1 8 2 AA', 'lab. IN DS 2 8 2 BB'])).toThrow(/several zones/);
  });
});

describe('RRSIG times (RFC 4034 §3.1.5 serial arithmetic)', () => {
  it('reads a 32-bit time as the instant nearest to now, also past 2106', () => {
    const now = Date.UTC(2026, 0, 1) / 1000;
    expect(absoluteTime(now + 3600, now)).toBe(now + 3600);
    const after2106 = 2 ** 32 + 1000;
    expect(absoluteTime(after2106 % 2 ** 32, after2106 - 500)).toBe(after2106);
    expect(isoTime(1281607479, 1281607479)).toBe('2010-08-12T10:04:39Z');
  });
});
