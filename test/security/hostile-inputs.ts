/**
 * Pathological inputs of about 100 KB for every parser that reads upstream text (ReDoS-style repetition,
 * unclosed constructs, deep nesting). Shared by the security suite (each must finish) and the benchmark
 * (bench/parsers.ts: time per size, which shows whether it grows linearly).
 */
import { parseDkimKey } from '../../src/checks/mail/dkim.js';
import { parseDmarcRecord } from '../../src/checks/mail/dmarc.js';
import { parseSpfRecord } from '../../src/checks/mail/spf/syntax.js';
import { extractHeadTags } from '../../src/checks/http/open-graph.js';
import { normaliseHeaderFields } from '../../src/probes/http/header-fields.js';
import { scoreSecurityHeaders } from '../../src/checks/http/security-headers.js';
import { parseWhois } from '../../src/probes/registry/whois-parse.js';

export interface HostileCase {
  readonly name: string;
  /** builds the input at about `bytes` long */
  readonly input: (bytes: number) => string;
  readonly parse: (input: string) => unknown;
}

const repeat = (unit: string, bytes: number) => unit.repeat(Math.max(1, Math.floor(bytes / unit.length)));

export const HOSTILE_CASES: readonly HostileCase[] = [
  { name: 'SPF: macro soup', input: (n) => `v=spf1 include:${repeat('%{d}', n)}.example`, parse: parseSpfRecord },
  {
    name: 'SPF: dashes and digits',
    input: (n) => `v=spf1 a:${repeat('1-', n)}x ${repeat('/1', n / 4)}`,
    parse: parseSpfRecord,
  },
  {
    name: 'SPF: a mechanism per term',
    input: (n) => `v=spf1 ${repeat('ip4:192.0.2.1 ', n)}-all`,
    parse: parseSpfRecord,
  },
  { name: 'DMARC: separators', input: (n) => `v=DMARC1; p=reject;${repeat(' ;=', n)}`, parse: parseDmarcRecord },
  {
    name: 'DMARC: one long rua',
    input: (n) => `v=DMARC1; p=none; rua=${repeat('mailto:a@b.example,', n)}`,
    parse: parseDmarcRecord,
  },
  { name: 'DKIM: spaces in the key', input: (n) => `v=DKIM1; k=rsa; p=${repeat('A B ', n)}`, parse: parseDkimKey },
  { name: 'DKIM: tag soup', input: (n) => `v=DKIM1;${repeat('t=;', n)}`, parse: parseDkimKey },
  {
    name: 'WHOIS: dot leaders',
    input: (n) => `Domain Name${repeat('.', n)}: example.com\n`,
    parse: (s) => parseWhois(s, 'example.com'),
  },
  {
    name: 'WHOIS: one endless line of colons',
    input: (n) => repeat('a: ', n),
    parse: (s) => parseWhois(s, 'example.com'),
  },
  {
    name: 'WHOIS: many short lines',
    input: (n) => repeat('Name Server: ns1.example.com\n', n),
    parse: (s) => parseWhois(s, 'example.com'),
  },
  {
    name: 'HTTP headers: a long CSP and HSTS',
    input: (n) => repeat("default-src 'self' ", n),
    parse: (s) =>
      scoreSecurityHeaders(
        normaliseHeaderFields([
          ['content-security-policy', s],
          ['strict-transport-security', `max-age=31536000;${s.replace(/'/g, '')}`],
          ['x-frame-options', s],
        ]),
        'https://example.com/',
      ),
  },
  {
    name: 'HTML: unclosed tags and attributes',
    input: (n) => `<html><head>${repeat('<meta property="og:title" content="x', n)}`,
    parse: (s) => extractHeadTags(Buffer.from(s), 'text/html', 'https://example.com/'),
  },
  {
    name: 'HTML: deep nesting and entities',
    input: (n) => `<html><head>${repeat('<div>&amp;&#x27;', n)}<title>${repeat('&lt;', n / 4)}</title></head>`,
    parse: (s) => extractHeadTags(Buffer.from(s), 'text/html', 'https://example.com/'),
  },
];
