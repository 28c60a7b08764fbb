import { describe, expect, it } from 'vitest';
import {
  charsetParameter,
  encodingForLabel,
  isHtmlContentType,
  mediaTypeOf,
} from '../../../probes/http/content-type.js';
import { decodeFieldBytes, normaliseHeaderFields, pairRawHeaders } from '../../../probes/http/header-fields.js';
import { httpHeadersData } from './headers.js';
import { decideRedirect, redirectChainOf, requestKey, resolvedLocation } from '../../../probes/http/redirects.js';
import { scoreSecurityHeaders } from './security-headers.js';
import type { FetchHop, FetchResult } from '../../../probes/http/fetcher.js';

describe('normaliseHeaderFields', () => {
  it('lower-cases names and joins repeated fields with ", " in order', () => {
    expect(
      normaliseHeaderFields([
        ['Vary', 'Accept'],
        ['X-One', '1'],
        ['vary', 'Cookie'],
      ]),
    ).toEqual({ vary: 'Accept, Cookie', 'x-one': '1' });
  });

  it('joins Set-Cookie lines with newlines, since cookies contain commas (RFC 6265 §3)', () => {
    const cookies = normaliseHeaderFields([
      ['Set-Cookie', 'a=1; Expires=Wed, 21 Oct 2026 07:28:00 GMT'],
      ['set-cookie', 'b=2'],
    ]);
    expect(cookies['set-cookie']).toBe('a=1; Expires=Wed, 21 Oct 2026 07:28:00 GMT\nb=2');
  });

  it('keeps a field named __proto__ as data', () => {
    const headers = normaliseHeaderFields([['__proto__', 'x']]);
    expect(Object.keys(headers)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(headers)).toBe(Object.prototype);
  });

  it('pairs raw header lists and decodes UTF-8 values, else Latin-1', () => {
    expect(pairRawHeaders([Buffer.from('X-A'), Buffer.from('café'), 'x-b', 'plain', 'dangling'])).toEqual([
      ['X-A', 'café'],
      ['x-b', 'plain'],
    ]);
    expect(decodeFieldBytes(Buffer.from([0x63, 0x61, 0x66, 0xe9]))).toBe('café');
  });
});

describe('redirect rules', () => {
  const base = new URL('https://site.example/a/b?q=1');

  it('follows 301, 302, 303, 307 and 308 with a Location, resolving relative targets', () => {
    for (const status of [301, 302, 303, 307, 308]) {
      const decision = decideRedirect(base, status, '../c?d=2');
      expect(decision).toEqual({ kind: 'follow', url: new URL('https://site.example/c?d=2') });
    }
    expect(decideRedirect(base, 302, '//other.example/x')).toEqual({
      kind: 'follow',
      url: new URL('https://other.example/x'),
    });
    expect(decideRedirect(base, 302, 'http://plain.example/')).toEqual({
      kind: 'follow',
      url: new URL('http://plain.example/'),
    });
  });

  it('treats other statuses and a missing Location as final', () => {
    for (const status of [200, 300, 304, 404]) expect(decideRedirect(base, status, '/x')).toEqual({ kind: 'final' });
    expect(decideRedirect(base, 302, null)).toEqual({ kind: 'final' });
    expect(decideRedirect(base, 302, '  ')).toEqual({ kind: 'final' });
  });

  it('does not follow other schemes or unparseable targets', () => {
    expect(decideRedirect(base, 302, 'mailto:a@b.example')).toEqual({
      kind: 'unsupported-scheme',
      location: 'mailto:a@b.example',
    });
    expect(decideRedirect(base, 302, 'javascript:alert(1)')).toEqual({
      kind: 'unsupported-scheme',
      location: 'javascript:alert(1)',
    });
    expect(decideRedirect(base, 302, 'http://exa mple.com/')).toEqual({
      kind: 'invalid-location',
      location: 'http://exa mple.com/',
    });
  });

  it('identifies requests without their fragment', () => {
    expect(requestKey(new URL('https://site.example/x#top'))).toBe('https://site.example/x');
    expect(requestKey(new URL('HTTPS://SITE.example:443/x'))).toBe('https://site.example/x');
  });

  it('reports the resolved Location', () => {
    expect(resolvedLocation(base, '/z')).toBe('https://site.example/z');
    expect(resolvedLocation(base, null)).toBeNull();
    expect(resolvedLocation(base, 'http://exa mple.com/')).toBe('http://exa mple.com/');
  });

  it('lists every URL that answered with a redirect (decisions §5)', () => {
    const hops = [
      { url: 'http://a.example/', statusCode: 301, location: 'https://a.example/' },
      { url: 'https://a.example/', statusCode: 302, location: 'https://a.example/home' },
      { url: 'https://a.example/home', statusCode: 200, location: null },
    ];
    expect(redirectChainOf(hops)).toEqual(['http://a.example/', 'https://a.example/']);
    expect(redirectChainOf([hops[2]!])).toEqual([]);
  });
});

describe('scoreSecurityHeaders', () => {
  const all = {
    'strict-transport-security': 'max-age=31536000',
    'x-frame-options': 'DENY',
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'content-security-policy': "default-src 'self'",
  };

  it('scores the five headers in api-v1.md order', () => {
    expect(scoreSecurityHeaders(all, 'https://a.example/')).toEqual({
      score: 5,
      total: 5,
      present: Object.keys(all),
      missing: [],
    });
    expect(scoreSecurityHeaders({ 'x-frame-options': 'SAMEORIGIN' }, 'https://a.example/')).toEqual({
      score: 1,
      total: 5,
      present: ['x-frame-options'],
      missing: ['strict-transport-security', 'x-content-type-options', 'referrer-policy', 'content-security-policy'],
    });
  });

  it('counts an empty value as missing, and HSTS only over https (RFC 6797 §8.1)', () => {
    const result = scoreSecurityHeaders({ ...all, 'referrer-policy': '  ' }, 'http://a.example/');
    expect(result.score).toBe(3);
    expect(result.missing).toEqual(['strict-transport-security', 'referrer-policy']);
  });
});

describe('content types', () => {
  it('reads media type and charset', () => {
    expect(mediaTypeOf('Text/HTML; Charset="Windows-1251"')).toBe('text/html');
    expect(charsetParameter('text/html; charset="windows-1251"')).toBe('windows-1251');
    expect(charsetParameter('text/html;charset=UTF-8;foo=bar')).toBe('UTF-8');
    expect(charsetParameter('text/html')).toBeNull();
    expect(mediaTypeOf(undefined)).toBeNull();
  });

  it('treats HTML, XHTML and untyped bodies as HTML', () => {
    expect(isHtmlContentType('text/html; charset=utf-8')).toBe(true);
    expect(isHtmlContentType('application/xhtml+xml')).toBe(true);
    expect(isHtmlContentType(undefined)).toBe(true);
    expect(isHtmlContentType('image/png')).toBe(false);
    expect(isHtmlContentType('application/json')).toBe(false);
  });

  it('maps labels the WHATWG way and rejects unknown ones', () => {
    expect(encodingForLabel('latin1')).toBe('windows-1252');
    expect(encodingForLabel('cp1251')).toBe('windows-1251');
    expect(encodingForLabel('no-such-charset')).toBeNull();
    expect(encodingForLabel(null)).toBeNull();
  });
});

function hop(
  url: string,
  statusCode: number,
  headers: Record<string, string>,
  location: string | null = null,
): FetchHop {
  return {
    url,
    statusCode,
    statusText: statusCode === 200 ? 'OK' : 'Moved Permanently',
    headers,
    location,
    remoteAddress: '192.0.2.1',
    httpVersion: '2',
    tls: null,
    timing: { dnsMs: 1, tcpMs: 2, tlsMs: 3, ttfbMs: 4, totalMs: 10 },
  };
}

describe('httpHeadersData', () => {
  it('builds the api-v1.md shape from the final response and the chain', () => {
    const final = hop('https://www.a.example/', 200, { 'content-type': 'text/html', 'x-frame-options': 'DENY' });
    const result: FetchResult = {
      requestedUrl: 'http://a.example/',
      finalUrl: 'https://www.a.example/',
      hops: [
        hop('http://a.example/', 301, { location: 'https://a.example/' }, 'https://a.example/'),
        hop('https://a.example/', 301, { location: 'https://www.a.example/' }, 'https://www.a.example/'),
        final,
      ],
      final,
      body: null,
      bodyTruncated: false,
      bodyEnd: null,
      httpVersion: '2',
      responseTimeMs: 123.4,
      redirectLimitReached: false,
      redirectNotFollowed: null,
      tlsError: null,
    };
    expect(httpHeadersData(result)).toEqual({
      requestedUrl: 'http://a.example/',
      statusCode: 200,
      statusText: 'OK',
      responseTime: 123.4,
      finalUrl: 'https://www.a.example/',
      redirectChain: ['http://a.example/', 'https://a.example/'],
      headers: { 'content-type': 'text/html', 'x-frame-options': 'DENY' },
      security: {
        score: 1,
        total: 5,
        present: ['x-frame-options'],
        missing: ['strict-transport-security', 'x-content-type-options', 'referrer-policy', 'content-security-policy'],
      },
      httpVersion: '2',
      redirectLimitReached: false,
      tlsError: null,
    });
  });
});
