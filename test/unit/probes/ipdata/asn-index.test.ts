/** The ASN index on small CSVs written here, where every row and boundary is known. */
import { describe, expect, it } from 'vitest';
import { addressWords } from '../../../../src/probes/ipdata/address-words.js';
import { AsnIndexBuilder, buildAsnIndex, type AsnIndex } from '../../../../src/probes/ipdata/asn-index.js';

const csv = (...lines: string[]): Uint8Array => new TextEncoder().encode(lines.join('\n') + '\n');
const NONE = csv();

function at(index: AsnIndex, ip: string): [number, string] | null {
  const a = addressWords(ip)!;
  const entry = index.lookup(a.family, a.words);
  return entry ? [entry.asn, entry.organisation] : null;
}

describe('AsnIndex from IPv4 rows', () => {
  const index = buildAsnIndex(
    csv(
      '1.0.0.0,1.0.0.255,13335,"Cloudflare, Inc."',
      '1.0.4.0,1.0.7.255,38803,Gtelecom Pty Ltd',
      '2.26.200.0,2.26.215.255,201907,"LLC ""SPUTNIK"""',
      '8.8.8.0,8.8.8.255,15169,Google LLC',
      '8.8.9.0,8.8.9.255,15169,Google LLC',
      '9.0.0.0,9.0.0.255,4294967294,Last ASN ',
    ),
    NONE,
  );

  it('finds the AS at the first and last address of a range and none just outside', () => {
    expect(at(index, '1.0.0.0')).toEqual([13335, 'Cloudflare, Inc.']);
    expect(at(index, '1.0.0.255')).toEqual([13335, 'Cloudflare, Inc.']);
    expect(at(index, '1.0.1.0')).toBeNull();
    expect(at(index, '1.0.3.255')).toBeNull();
    expect(at(index, '1.0.4.0')).toEqual([38803, 'Gtelecom Pty Ltd']);
    expect(at(index, '1.0.7.255')).toEqual([38803, 'Gtelecom Pty Ltd']);
    expect(at(index, '0.255.255.255')).toBeNull();
    expect(at(index, '9.0.1.0')).toBeNull();
    expect(at(index, '255.255.255.255')).toBeNull();
  });

  it('unquotes organisations (RFC 4180 doubled quotes) and trims them', () => {
    expect(at(index, '2.26.210.1')).toEqual([201907, 'LLC "SPUTNIK"']);
    expect(at(index, '9.0.0.9')).toEqual([4294967294, 'Last ASN']);
  });

  it('merges adjacent ranges of one AS into one boundary', () => {
    expect(at(index, '8.8.8.255')).toEqual([15169, 'Google LLC']);
    expect(at(index, '8.8.9.0')).toEqual([15169, 'Google LLC']);
    // boundaries: 1.0.0.0, 1.0.1.0(gap), 1.0.4.0, 1.0.8.0(gap), 2.26.200.0, 2.26.216.0(gap), 8.8.8.0, 8.8.10.0(gap), 9.0.0.0, 9.0.1.0(gap)
    expect(index.size.v4).toBe(10);
    expect(index.size.asns).toBe(5);
  });

  it('does not mistake IPv4 for IPv6 space', () => {
    expect(at(index, '::1.0.0.1')).toBeNull();
  });
});

describe('AsnIndex from IPv6 rows', () => {
  const index = buildAsnIndex(
    NONE,
    csv(
      '2001:4860::,2001:4860:4804:ffff:ffff:ffff:ffff:ffff,15169,Google LLC',
      '2001:4860:4805::,2001:4860:4805:ffff:ffff:ffff:ffff:ffff,43515,Google Ireland Limited',
      '2001:db9::,2001:db9::2f,396585,VeriSign Global Registry Services',
      '2001:db9::30,2001:db9::30,396552,VeriSign Global Registry Services',
      'ffff::,ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff,64512,End Of Space',
    ),
  );

  it('compares all 128 bits at range edges', () => {
    expect(at(index, '2001:4860::')).toEqual([15169, 'Google LLC']);
    expect(at(index, '2001:4860:4804:ffff:ffff:ffff:ffff:ffff')).toEqual([15169, 'Google LLC']);
    expect(at(index, '2001:4860:4805::')).toEqual([43515, 'Google Ireland Limited']);
    expect(at(index, '2001:4860:4806::')).toBeNull();
    expect(at(index, '2001:485f:ffff:ffff:ffff:ffff:ffff:ffff')).toBeNull();
  });

  it('resolves ranges that are not /64-aligned down to one address', () => {
    expect(at(index, '2001:db9::2f')?.[0]).toBe(396585);
    expect(at(index, '2001:db9::30')?.[0]).toBe(396552);
    expect(at(index, '2001:db9::31')).toBeNull();
    expect(at(index, '2001:db9::')?.[0]).toBe(396585);
  });

  it('handles a range that runs to the last address', () => {
    expect(at(index, 'ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff')?.[0]).toBe(64512);
    expect(at(index, 'fffe:ffff:ffff:ffff:ffff:ffff:ffff:ffff')).toBeNull();
  });
});

describe('overlapping and unordered rows', () => {
  it('lets a range starting inside another win over its extent, then resumes the outer one', () => {
    const index = buildAsnIndex(
      csv(
        '10.0.0.0,10.255.255.255,100,Outer',
        '10.1.0.0,10.1.255.255,200,Inner',
        '10.1.2.0,10.1.2.255,300,Innermost',
        '10.200.0.0,11.0.0.255,400,Straddling', // starts inside Outer, ends after it
      ),
      NONE,
    );
    expect(at(index, '10.0.255.255')?.[0]).toBe(100);
    expect(at(index, '10.1.0.0')?.[0]).toBe(200);
    expect(at(index, '10.1.2.0')?.[0]).toBe(300);
    expect(at(index, '10.1.2.255')?.[0]).toBe(300);
    expect(at(index, '10.1.3.0')?.[0]).toBe(200);
    expect(at(index, '10.2.0.0')?.[0]).toBe(100);
    expect(at(index, '10.199.255.255')?.[0]).toBe(100);
    expect(at(index, '10.200.0.0')?.[0]).toBe(400);
    expect(at(index, '11.0.0.255')?.[0]).toBe(400);
    expect(at(index, '11.0.1.0')).toBeNull();
  });

  it('lets the narrower of two ranges with one start win, whatever the file order', () => {
    const index = buildAsnIndex(
      csv('20.0.0.0,20.0.0.255,1,Narrow', '20.0.0.0,20.0.255.255,2,Wide', '5.0.0.0,5.0.0.255,3,Early'),
      NONE,
    );
    expect(at(index, '20.0.0.7')?.[0]).toBe(1);
    expect(at(index, '20.0.1.0')?.[0]).toBe(2);
    expect(at(index, '5.0.0.1')?.[0]).toBe(3);
  });

  it('keeps the first organisation seen for an AS', () => {
    const index = buildAsnIndex(csv('1.0.0.0,1.0.0.255,7,First Name', '2.0.0.0,2.0.0.255,7,Second Name'), NONE);
    expect(at(index, '2.0.0.1')).toEqual([7, 'First Name']);
  });

  it('shares organisation names and AS entries between the families', () => {
    const index = buildAsnIndex(csv('1.0.0.0,1.0.0.255,7,Seven'), csv('2001:db8::,2001:db8::ff,7,Seven'));
    expect(at(index, '2001:db8::1')).toEqual([7, 'Seven']);
    expect(index.size).toMatchObject({ asns: 1, organisations: 1 });
  });

  it('treats AS0 (RFC 7607: not routed) as no AS', () => {
    const index = buildAsnIndex(csv('1.0.0.0,1.0.0.255,0,Reserved'), NONE);
    expect(at(index, '1.0.0.1')).toBeNull();
  });
});

describe('reading the CSV', () => {
  it('accepts CRLF line ends, blank lines and a missing final newline', () => {
    const bytes = new TextEncoder().encode('1.0.0.0,1.0.0.255,1,One\r\n\r\n2.0.0.0,2.0.0.255,2,"Two, Inc."');
    const index = buildAsnIndex(bytes, NONE);
    expect(at(index, '1.0.0.1')).toEqual([1, 'One']);
    expect(at(index, '2.0.0.1')).toEqual([2, 'Two, Inc.']);
  });

  it('decodes UTF-8 organisation names', () => {
    const index = buildAsnIndex(csv('1.0.0.0,1.0.0.255,1,Türk Telekom'), NONE);
    expect(at(index, '1.0.0.1')?.[1]).toBe('Türk Telekom');
  });

  it('names the file and line of a malformed row', () => {
    const bad =
      (line: string, family: 4 | 6 = 4): (() => void) =>
      () => {
        const builder = new AsnIndexBuilder();
        const fine = family === 4 ? '1.0.0.0,1.0.0.255,1,Fine' : '2001:db8::,2001:db8::ff,1,Fine';
        const cursor = builder.csv(family, 'test.csv', csv(fine, line));
        cursor.read(10);
      };
    expect(bad('1.0.0.0,1.0.0.255')).toThrow('test.csv line 2: expected 4 columns');
    expect(bad('1.0.0.300,1.0.0.255,1,X')).toThrow('line 2: malformed IPv4 address');
    expect(bad('1.0.0.0,1.0.0.255,x1,X')).toThrow('line 2: malformed AS number');
    expect(bad('1.0.0.0,1.0.0.255,4294967296,X')).toThrow('line 2: AS number out of range');
    expect(bad('1.0.1.0,1.0.0.255,1,X')).toThrow('line 2: range ends before it starts');
    expect(bad('1.0.2.0,1.0.2.255,9,"Unterminated')).toThrow('line 2: unterminated quoted organisation');
    expect(bad('2001:db8:::,2001:db8::1,1,X', 6)).toThrow('line 2: malformed IPv6 address');
  });

  it('reads a file in slices that give the same index as one pass', () => {
    const lines = Array.from(
      { length: 50 },
      (_, i) => `${i + 1}.0.0.0,${i + 1}.0.0.255,${1000 + (i % 7)},Org ${i % 7}`,
    );
    const builder = new AsnIndexBuilder();
    const cursor = builder.csv(4, 'sliced', csv(...lines));
    let slices = 0;
    while (!cursor.done) {
      cursor.read(7);
      slices++;
    }
    expect(slices).toBe(8);
    const sliced = builder.finish();
    const whole = buildAsnIndex(csv(...lines), NONE);
    for (let i = 1; i <= 51; i++) expect(at(sliced, `${i}.0.0.9`)).toEqual(at(whole, `${i}.0.0.9`));
    expect(at(sliced, '50.0.0.1')).toEqual([1000 + (49 % 7), `Org ${49 % 7}`]);
  });
});

describe('the builder', () => {
  it('grows past its initial capacity with every row intact (IPv6, four words a row)', () => {
    const lines = Array.from(
      { length: 3000 },
      (_, i) => `2001:db8:${i.toString(16)}::,2001:db8:${i.toString(16)}::ff,${i + 1},Org ${i}`,
    );
    const index = buildAsnIndex(NONE, csv(...lines));
    for (const i of [0, 1023, 1024, 2047, 2048, 2999]) {
      expect(at(index, `2001:db8:${i.toString(16)}::7`), String(i)).toEqual([i + 1, `Org ${i}`]);
    }
  });

  it('refuses more rows for a family once sealed, and finishes with what it has', () => {
    const builder = new AsnIndexBuilder();
    const cursor = builder.csv(4, 'a.csv', csv('1.0.0.0,1.0.0.255,1,One'));
    cursor.read(10);
    builder.seal(4);
    expect(() => builder.csv(4, 'b.csv', csv('2.0.0.0,2.0.0.255,2,Two'))).toThrow('already sealed');
    expect(at(builder.finish(), '1.0.0.1')).toEqual([1, 'One']);
  });
});
