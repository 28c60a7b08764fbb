import { describe, expect, it } from 'vitest';
import { parseDnsName, parseHostname } from '../../../src/validation.js';
import { expectInputError } from './expect-input-error.js';

const label63 = 'a'.repeat(63);
/** 253 characters: three 63-character labels and one 61-character label. */
const name253 = `${label63}.${label63}.${label63}.${'b'.repeat(61)}`;

describe('parseHostname', () => {
  it.each([
    ['example.com', 'example.com'],
    ['EXAMPLE.COM', 'example.com'],
    ['WwW.Example.Co.UK', 'www.example.co.uk'],
    ['example.com.', 'example.com'], // trailing dot ignored
    ['  example.com  ', 'example.com'],
    ['a.b', 'a.b'],
    ['1.example', '1.example'],
    ['123.example.com', '123.example.com'],
    ['a-b.example', 'a-b.example'],
    ['r4---sn-4g5e6nzz.googlevideo.com', 'r4---sn-4g5e6nzz.googlevideo.com'], // "--" in positions 3–4 is not refused
    ['bücher.example', 'xn--bcher-kva.example'],
    ['BÜCHER.example', 'xn--bcher-kva.example'],
    ['xn--bcher-kva.example', 'xn--bcher-kva.example'],
    ['bücher.example.', 'xn--bcher-kva.example'],
    ['bücher。example', 'xn--bcher-kva.example'], // ideographic full stop is a dot (UTS #46)
    ['ｅｘａｍｐｌｅ．ｃｏｍ', 'example.com'], // full-width forms map to ASCII
    ['straße.de', 'xn--strae-oqa.de'], // IDNA2008: ß is kept, not mapped to "ss"
    ['例え.テスト', 'xn--r8jz45g.xn--zckzah'],
    ['münchen.xn--p1ai', 'xn--mnchen-3ya.xn--p1ai'],
    [`${label63}.example`, `${label63}.example`],
    [name253, name253],
    [`${name253}.`, name253], // the trailing dot does not count
    ['example.x1', 'example.x1'], // a TLD with a digit is still a name
    ['example.0x1g', 'example.0x1g'], // not a hex number, so a name (as for the WHATWG URL parser)
  ])('%j → %j', (value, expected) => {
    expect(parseHostname('domain', value)).toBe(expected);
  });

  it.each([
    ['localhost', 'has a single label'],
    ['com', 'has a single label'],
    ['bücher', 'has a single label'],
    ['example..com', 'has an empty label'],
    ['.example.com', 'has an empty label'],
    ['example.com..', 'has an empty label'],
    ['.', 'is not a domain name'],
    [`${'a'.repeat(64)}.com`, `label "${'a'.repeat(39)}…" is 64 characters; a DNS label has at most 63`],
    [`${name253}b`, 'is 254 characters long; a domain name has at most 253'],
    [`${label63}.${label63}.${label63}.${label63}`, 'is 255 characters long'],
    ['-example.com', 'starts or ends with a hyphen'],
    ['example-.com', 'starts or ends with a hyphen'],
    ['example.-com', 'starts or ends with a hyphen'],
    ['_dmarc.example.com', 'contains "_"; a hostname has only letters, digits, hyphens and dots'],
    ['my_host.example.com', 'contains "_"'],
    ['a＿b.example', 'label "a_b" contains "_"'], // full-width low line maps to "_" and is caught after IDNA
    ['exa mple.com', 'contains " "'],
    ['example.com/path', 'contains "/"'],
    ['example.com:443', 'contains ":"'],
    ['user@example.com', 'contains "@"'],
    ['exa%41mple.com', 'contains "%"'],
    ['*.example.com', 'contains "*"'],
    ['xn--zz.example', 'label "xn--zz" is not a valid IDNA A-label'],
    ['xn--a.example', 'is not a valid IDNA A-label'],
    ['\u202eexample.com', 'is not a valid internationalised domain name'], // bidi override
    ['1.2.3.4', 'is an IP address; a hostname is expected'],
    ['2130706433', 'is an IP address'],
    ['127.1', 'is an IP address'],
    ['0x7f.1', 'is an IP address'],
    ['１２７．０．０．１', 'is an IP address'],
    ['example.123', 'ends in a numeric label'],
    ['example.0x1f', 'ends in a numeric label'], // a hex number to the WHATWG URL parser
  ])('refuses %j', (value, fragment) => {
    expectInputError(() => parseHostname('domain', value), 'domain', fragment);
  });
});

describe('parseDnsName', () => {
  it.each([
    ['_dmarc.example.com', '_dmarc.example.com'],
    ['_DMARC.Example.COM.', '_dmarc.example.com'],
    ['s1._domainkey.example.com', 's1._domainkey.example.com'],
    ['_25._tcp.mail.example.com', '_25._tcp.mail.example.com'],
    ['my_host.example.com', 'my_host.example.com'],
    ['_mta-sts.bücher.example', '_mta-sts.xn--bcher-kva.example'],
    ['4.3.2.1.in-addr.arpa', '4.3.2.1.in-addr.arpa'],
    ['example.com', 'example.com'],
  ])('%j → %j', (value, expected) => {
    expect(parseDnsName('domain', value)).toBe(expected);
  });

  it.each([
    ['_dmarc', 'has a single label'],
    ['a b.example.com', 'contains " "; a domain name has only letters, digits, hyphens, underscores and dots'],
    ['-x._domainkey.example.com', 'starts or ends with a hyphen'],
    [`${'_'.repeat(64)}.example.com`, 'a DNS label has at most 63'],
    ['1.2.3.4', 'is an IP address; a domain name is expected'],
    ['_x.example..com', 'has an empty label'],
  ])('refuses %j', (value, fragment) => {
    expectInputError(() => parseDnsName('domain', value), 'domain', fragment);
  });
});
