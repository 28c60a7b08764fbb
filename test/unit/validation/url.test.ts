import { describe, expect, it } from 'vitest';
import { parseDomainOrUrl, parseUrl } from '../../../src/validation.js';
import { expectInputError } from './expect-input-error.js';

describe('parseUrl', () => {
  it.each([
    ['https://example.com', 'https://example.com/'],
    ['http://example.com/path?q=1#frag', 'http://example.com/path?q=1#frag'],
    ['HTTPS://EXAMPLE.COM/A', 'https://example.com/A'],
    ['https://example.com:8443/', 'https://example.com:8443/'],
    ['https://example.com:443/', 'https://example.com/'], // default port dropped
    ['https://example.com./x', 'https://example.com/x'], // trailing dot removed from the host
    ['https://bücher.example/', 'https://xn--bcher-kva.example/'],
    ['  https://example.com/  ', 'https://example.com/'],
    ['https://93.184.216.34/', 'https://93.184.216.34/'],
    ['https://[2606:4700::1]:8443/', 'https://[2606:4700::1]:8443/'],
    // Numeric IPv4 forms come out as the address they mean, so the guard sees it.
    ['http://2130706433/', 'http://127.0.0.1/'],
    ['http://0x7f.1/', 'http://127.0.0.1/'],
    ['http://0177.0.0.1/', 'http://127.0.0.1/'],
    ['http://%31%32%37.0.0.1/', 'http://127.0.0.1/'],
    ['http://[::ffff:127.0.0.1]/', 'http://[::ffff:7f00:1]/'],
  ])('%j → %s', (value, href) => {
    expect(parseUrl('url', value).href).toBe(href);
  });

  it('returns a URL object', () => {
    const url = parseUrl('url', 'https://example.com/a');
    expect(url).toBeInstanceOf(URL);
    expect(url.hostname).toBe('example.com');
  });

  it.each([
    ['ftp://example.com/', 'scheme "ftp" is not supported; only http and https'],
    ['file:///etc/passwd', 'scheme "file" is not supported'],
    ['gopher://example.com:70/', 'scheme "gopher" is not supported'],
    ['javascript:alert(1)', 'scheme "javascript" is not supported'],
    ['ws://example.com/', 'scheme "ws" is not supported'],
    ['example.com', 'is not a valid absolute URL'],
    ['/path', 'is not a valid absolute URL'],
    ['https://', 'is not a valid absolute URL'], // no host
    ['http://exa mple.com/', 'is not a valid absolute URL'],
    ['https://user:pass@example.com/', 'must not contain a user name or password'],
    ['https://user@example.com/', 'must not contain a user name or password'],
    ['https://example.com@evil.example/', 'must not contain a user name or password'],
    ['https://example.com:0/', 'port 0 is not a valid port'],
    ['https://example.com:65536/', 'is not a valid absolute URL'],
    ['http://localhost/', 'has a single label'],
    ['http://exa_mple.com/', 'label "exa_mple" contains "_"'],
    ['http://a*b.example/', 'contains "*"'],
    ['http://-a.example/', 'starts or ends with a hyphen'],
    [`http://${'a'.repeat(64)}.example/`, 'a DNS label has at most 63'],
    ['http://1.2.3.4.5/', 'is not a valid absolute URL'],
    ['http://256.0.0.1/', 'is not a valid absolute URL'],
    ['https://example.com/\u0000', 'control character U+0000'],
    ['https://example.com/\npath', 'control character U+000A'],
  ])('refuses %j', (value, fragment) => {
    expectInputError(() => parseUrl('url', value), 'url', fragment);
  });

  it('accepts 2048 characters and refuses 2049', () => {
    const base = 'https://example.com/';
    const at2048 = base + 'a'.repeat(2048 - base.length);
    expect(parseUrl('url', at2048).href).toBe(at2048);
    expectInputError(() => parseUrl('url', `${at2048}a`), 'url', 'is 2049 characters long; at most 2048');
  });

  it('refuses a URL that grows past 2048 characters when normalised', () => {
    const value = `https://example.com/${'é'.repeat(1000)}`; // each é becomes %C3%A9
    expectInputError(() => parseUrl('url', value), 'url', 'once normalised; at most 2048');
  });
});

describe('parseDomainOrUrl', () => {
  it.each([
    ['example.com', 'example.com', null],
    ['Example.COM.', 'example.com', null],
    ['bücher.example', 'xn--bcher-kva.example', null],
    ['https://example.com', 'example.com', 'https://example.com/'],
    ['https://www.example.com/x?y', 'www.example.com', 'https://www.example.com/x?y'],
    ['http://example.com:8080/', 'example.com', 'http://example.com:8080/'],
    ['HTTPS://Bücher.Example/', 'xn--bcher-kva.example', 'https://xn--bcher-kva.example/'],
  ])('%j → %s', (value, hostname, href) => {
    const result = parseDomainOrUrl('target', value);
    expect(result.hostname).toBe(hostname);
    expect(result.url?.href ?? null).toBe(href);
  });

  it.each([
    ['example.com/path', 'is neither a domain name nor a URL; write a URL with its scheme'],
    ['example.com:443', 'is neither a domain name nor a URL'],
    ['user@example.com', 'is neither a domain name nor a URL'],
    ['ftp://example.com/', 'scheme "ftp" is not supported'],
    ['93.184.216.34', 'is an IP address; a hostname is expected'],
    ['2130706433', 'is an IP address'],
    ['https://93.184.216.34/', 'the host of "https://93.184.216.34/" is an IP address'],
    ['https://[2606:4700::1]/', 'is an IP address; a domain name is expected'],
    ['http://2130706433/', 'is an IP address'],
    ['localhost', 'has a single label'],
    ['https://localhost/', 'has a single label'],
    ['', 'must not be empty'],
  ])('refuses %j', (value, fragment) => {
    expectInputError(() => parseDomainOrUrl('target', value), 'target', fragment);
  });
});
