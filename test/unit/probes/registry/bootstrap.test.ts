import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../../../src/config.js';
import {
  bundledBootstrapPath,
  loadBootstrap,
  loadBootstrapFile,
  rdapBaseFor,
} from '../../../../src/probes/registry/bootstrap.js';
import { sharedFixturesDir } from '../../../corpus/shared-dir.js';

const repo = fileURLToPath(new URL('../../../..', import.meta.url));

describe('bundled RDAP bootstrap', () => {
  const bundled = loadBootstrapFile();

  it('is the IANA dns.json shipped in data/', () => {
    expect(bundledBootstrapPath()).toBe(join(repo, 'data', 'rdap-dns.json'));
    expect(bundled.publication).toBe('2024-07-25T22:00:01Z');
    expect(bundled.bases.size).toBeGreaterThan(1000);
  });

  it('finds the registry of a TLD, whatever the case and depth of the name', () => {
    expect(rdapBaseFor(bundled, 'google.com')).toBe('https://rdap.verisign.com/com/v1/');
    expect(rdapBaseFor(bundled, 'WWW.Google.COM')).toBe('https://rdap.verisign.com/com/v1/');
    expect(rdapBaseFor(bundled, 'example.cz')).toBe('https://rdap.nic.cz/');
    expect(rdapBaseFor(bundled, 'example.co.uk')).toBe('https://rdap.nominet.uk/uk/');
    // one service serving two TLDs
    expect(rdapBaseFor(bundled, 'x.xn--cg4bki')).toBe('https://nic.samsung:8443/rdap/');
    // some registries publish only http
    expect(rdapBaseFor(bundled, 'example.kg')).toBe('http://rdap.cctld.kg/');
  });

  it('has no base for TLDs without RDAP in this edition (they go to WHOIS)', () => {
    expect(rdapBaseFor(bundled, 'example.de')).toBeNull();
    expect(rdapBaseFor(bundled, 'example.jp')).toBeNull();
    expect(rdapBaseFor(bundled, 'example.invalid')).toBeNull();
  });

  const iana = join(sharedFixturesDir() ?? '/nonexistent', 'rdap', 'iana-rdap-dns.json');
  it.skipIf(!existsSync(iana))('is byte-identical to the IANA file it was copied from', () => {
    expect(readFileSync(bundledBootstrapPath()).equals(readFileSync(iana))).toBe(true);
  });
});

describe('loadBootstrap / rdapBaseFor', () => {
  const doc = {
    version: '1.0',
    publication: '2026-01-01T00:00:00Z',
    services: [
      [['uk'], ['https://rdap.uk.example/']],
      [
        ['co.uk', 'ORG.UK'],
        ['http://rdap.co-uk.example/', 'https://rdap.co-uk.example/'],
      ],
      [['test'], ['http://rdap.test.example/']],
    ],
  };

  it('takes the longest matching label set (RFC 9224 §4)', () => {
    const b = loadBootstrap(doc);
    expect(rdapBaseFor(b, 'example.co.uk')).toBe('https://rdap.co-uk.example/');
    expect(rdapBaseFor(b, 'deep.sub.example.org.uk')).toBe('https://rdap.co-uk.example/');
    expect(rdapBaseFor(b, 'example.me.uk')).toBe('https://rdap.uk.example/');
    expect(rdapBaseFor(b, 'co.uk')).toBe('https://rdap.co-uk.example/');
    expect(rdapBaseFor(b, 'example.uk.')).toBe('https://rdap.uk.example/');
    expect(rdapBaseFor(b, 'uk.example')).toBeNull();
  });

  it('prefers https among an entry’s URLs, else keeps http', () => {
    const b = loadBootstrap(doc);
    expect(rdapBaseFor(b, 'a.co.uk')).toBe('https://rdap.co-uk.example/');
    expect(rdapBaseFor(b, 'a.test')).toBe('http://rdap.test.example/');
  });

  it('refuses a document that is not a bootstrap file', () => {
    expect(() => loadBootstrap(null)).toThrow(ConfigError);
    expect(() => loadBootstrap({ services: {} })).toThrow(ConfigError);
    expect(() => loadBootstrap({ services: [[['com']]] })).toThrow(/services\[0\]/);
    expect(() => loadBootstrap({ services: [[['com'], ['ftp://x/']]] })).toThrow(/no http\(s\) URL/);
    expect(() => loadBootstrapFile('/nonexistent/rdap.json')).toThrow(ConfigError);
  });
});
