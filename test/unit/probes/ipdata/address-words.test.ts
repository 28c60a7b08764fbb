import { describe, expect, it } from 'vitest';
import {
  addressWords,
  compareWords,
  parseIpv4Bytes,
  parseIpv6Bytes,
  writeSuccessor,
} from '../../../../src/probes/ipdata/address-words.js';

const ascii = (s: string): Uint8Array => new TextEncoder().encode(s);

function v6(text: string): number[] | null {
  const bytes = ascii(text);
  const out = new Uint32Array(4);
  return parseIpv6Bytes(bytes, 0, bytes.length, out, 0) ? [...out] : null;
}

describe('parseIpv4Bytes', () => {
  it('reads dotted quads, including the ends of the space', () => {
    const p = (s: string): number => parseIpv4Bytes(ascii(s), 0, s.length);
    expect(p('8.8.8.8')).toBe(0x08080808);
    expect(p('0.0.0.0')).toBe(0);
    expect(p('255.255.255.255')).toBe(0xffffffff);
    expect(p('1.0.4.0')).toBe(16778240);
  });

  it('refuses anything else', () => {
    for (const bad of [
      '',
      '1.2.3',
      '1.2.3.4.5',
      '256.1.1.1',
      '1..2.3',
      '1.2.3.',
      'a.b.c.d',
      '1.2.3.4 ',
      '1234.1.1.1',
      '010.0.0.1',
      '1.2.3.04',
    ]) {
      expect(parseIpv4Bytes(ascii(bad), 0, bad.length), bad).toBe(-1);
    }
  });

  it('parses only the given slice', () => {
    const line = ascii('1.0.0.0,1.0.0.255,13335');
    expect(parseIpv4Bytes(line, 8, 17)).toBe(0x010000ff);
  });
});

describe('parseIpv6Bytes', () => {
  it('reads full, compressed and dotted-tail forms', () => {
    expect(v6('2001:4860:4860::8888')).toEqual([0x20014860, 0x48600000, 0, 0x8888]);
    expect(v6('::')).toEqual([0, 0, 0, 0]);
    expect(v6('::1')).toEqual([0, 0, 0, 1]);
    expect(v6('2001::')).toEqual([0x20010000, 0, 0, 0]);
    expect(v6('ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff')).toEqual([0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff]);
    expect(v6('2001:200:1b9:ffff:ffff:ffff:ffff:ffff')).toEqual([0x20010200, 0x01b9ffff, 0xffffffff, 0xffffffff]);
    expect(v6('::ffff:192.0.2.1')).toEqual([0, 0, 0xffff, 0xc0000201]);
    expect(v6('1:2:3:4:5:6:7::')).toEqual([0x00010002, 0x00030004, 0x00050006, 0x00070000]);
    expect(v6('2A00:1450::')).toEqual([0x2a001450, 0, 0, 0]);
  });

  it('refuses malformed text', () => {
    for (const bad of [
      '',
      ':',
      ':1',
      '1:',
      '1::2::3',
      '12345::',
      '1:2:3:4:5:6:7:8:9',
      '1:2:3:4:5:6:7',
      'g::',
      '1:2:3:4:5:6:7:8::',
      '::1.2.3',
      '1.2.3.4',
    ]) {
      expect(v6(bad), bad).toBeNull();
    }
  });
});

describe('addressWords', () => {
  it('gives one word for IPv4 and four for IPv6', () => {
    expect(addressWords('8.8.8.8')).toEqual({ family: 4, words: Uint32Array.of(0x08080808), text: '8.8.8.8' });
    const a = addressWords('2001:4860::1')!;
    expect(a.family).toBe(6);
    expect([...a.words]).toEqual([0x20014860, 0, 0, 1]);
  });

  it('looks an IPv4-mapped IPv6 address up as IPv4', () => {
    expect(addressWords('::ffff:8.8.4.4')).toEqual({ family: 4, words: Uint32Array.of(0x08080404), text: '8.8.4.4' });
  });

  it('keeps an IPv4-compatible address (::a.b.c.d) in IPv6 space', () => {
    const a = addressWords('::1.0.0.1')!;
    expect(a.family).toBe(6);
    expect([...a.words]).toEqual([0, 0, 0, 0x01000001]);
    expect(a.text).toBe('::100:1');
  });

  it('gives the RFC 5952 text of an IPv6 address', () => {
    expect(addressWords('2001:0DB8:0000:0000:0000:0000:0000:0001')?.text).toBe('2001:db8::1');
  });

  it('returns null for what is not an address', () => {
    for (const bad of [
      'example.com',
      '',
      '0x8.8.8.8',
      '134744072',
      '010.8.8.8',
      'fe80::1%eth0',
      '[::1]',
      '1.2.3.4/24',
    ]) {
      expect(addressWords(bad), bad).toBeNull();
    }
  });
});

describe('compareWords and writeSuccessor', () => {
  it('orders 128-bit values word by word', () => {
    const a = Uint32Array.of(1, 0, 0, 0xffffffff);
    const b = Uint32Array.of(1, 0, 1, 0);
    expect(compareWords(a, 0, b, 0, 4)).toBe(-1);
    expect(compareWords(b, 0, a, 0, 4)).toBe(1);
    expect(compareWords(a, 0, a, 0, 4)).toBe(0);
  });

  it('carries into the next word and reports the end of the space', () => {
    const out = new Uint32Array(4);
    expect(writeSuccessor(Uint32Array.of(1, 0, 0xffffffff, 0xffffffff), 0, 4, out, 0)).toBe(true);
    expect([...out]).toEqual([1, 1, 0, 0]);
    expect(writeSuccessor(Uint32Array.of(0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff), 0, 4, out, 0)).toBe(false);
    const one = new Uint32Array(1);
    expect(writeSuccessor(Uint32Array.of(0x080808ff), 0, 1, one, 0)).toBe(true);
    expect(one[0]).toBe(0x08080900);
    expect(writeSuccessor(Uint32Array.of(0xffffffff), 0, 1, one, 0)).toBe(false);
  });
});
