/**
 * Parts of http-rating's Observatory implementation the corpus does not reach: the preload file, the grade
 * chart's edges, the session URLs and the HTML reading.
 */
import { describe, expect, it } from 'vitest';
import { scoreOf } from './observatory/grade.js';
import { NOTHING_PRELOADED, parseChromiumPreloadList, preloadLookup } from './observatory/hsts-preload.js';
import { MAX_CSP_METAS, readHtmlFacts } from './observatory/html.js';
import { sessionUrls } from './run.js';

describe('the HSTS preload list', () => {
  const CHROMIUM_STYLE = `// Copyright 2026 The Chromium Authors
// comment lines precede the JSON
{
  "pinsets": [],
  "entries": [
    // a comment inside the list
    { "name": "Preloaded.Example", "policy": "custom", "mode": "force-https", "include_subdomains": true },
    { "name": "pinned.example", "policy": "custom", "include_subdomains_for_pinning": true },
    { "name": "exact.example", "policy": "custom", "mode": "force-https", "report_uri": "https://r.example//x" }
  ]
}`;
  const lookup = preloadLookup(parseChromiumPreloadList(CHROMIUM_STYLE));

  it("reads Chromium's file with its comment lines, names case-insensitive", () => {
    expect(lookup('preloaded.example')).toEqual({ includeSubDomains: true, mode: 'force-https' });
    expect(lookup('a.b.preloaded.example')).not.toBeNull();
  });

  it('counts force-https entries only, and parents only with include_subdomains', () => {
    expect(lookup('pinned.example')).toBeNull();
    expect(lookup('exact.example')).not.toBeNull();
    expect(lookup('www.exact.example')).toBeNull();
  });

  it('preloads nothing by default', () => {
    expect(NOTHING_PRELOADED('preloaded.example')).toBeNull();
  });

  it('refuses a file without entries', () => {
    expect(() => parseChromiumPreloadList('{}')).toThrow(/entries/);
  });
});

describe('the grade', () => {
  it.each([
    [[], 100, 'A+'],
    [[10, 5, 5], 120, 'A+'],
    [[-10, 10], 100, 'A+'],
    [[-5], 95, 'A'],
    [[-15, 10], 85, 'A-'],
    [[-20, 10], 80, 'B+'],
    [[-25, 10], 75, 'B'],
    [[-36], 64, 'C+'],
    [[-76], 24, 'F'],
    [[-75], 25, 'D-'],
    [[-200, 10], 0, 'F'],
  ])('modifiers %j score %i, grade %s', (modifiers, score, grade) => {
    expect(scoreOf(modifiers)).toEqual({ score, grade });
  });
});

describe('the session URLs', () => {
  const ports = { http: 80, https: 443 };
  it('rates https://host/ and http://host/ for a domain', () => {
    const urls = sessionUrls({ hostname: 'example.com', url: null }, ports);
    expect([urls.https.href, urls.http.href]).toEqual(['https://example.com/', 'http://example.com/']);
  });

  it("keeps a URL's path for both sessions and its port for its own scheme", () => {
    const urls = sessionUrls({ hostname: 'example.com', url: new URL('https://example.com:8443/app?x=1') }, ports);
    expect([urls.https.href, urls.http.href]).toEqual([
      'https://example.com:8443/app?x=1',
      'http://example.com/app?x=1',
    ]);
  });

  it('uses the web ports the context names', () => {
    const urls = sessionUrls({ hostname: 'example.com', url: null }, { http: 8080, https: 8443 });
    expect([urls.https.href, urls.http.href]).toEqual(['https://example.com:8443/', 'http://example.com:8080/']);
  });
});

describe('the HTML facts', () => {
  it('reads CSP metas anywhere, the last referrer meta, and scripts as a DOM resolves them', () => {
    const facts = readHtmlFacts(
      `<html><head><META HTTP-EQUIV="Content-Security-Policy" CONTENT="default-src 'self'">
       <meta name="referrer" content="origin"><meta name="referrer" content="">
       <script src="/a.js" integrity="sha384-x"></script></head>
       <body><meta http-equiv="content-security-policy" content="img-src 'self'">
       <script src="HTTPS://CDN.example.net/b.js"></script><script>inline()</script>
       <template><script src="http://hidden.example/c.js"></script></template>
       <xmp><script src="http://text.example/d.js"></script></xmp></body></html>`,
    );
    expect(facts).toEqual({
      cspMeta: ["default-src 'self'", "img-src 'self'"],
      referrerMeta: 'origin',
      scripts: [
        { src: '/a.js', integrity: 'sha384-x' },
        { src: 'https://cdn.example.net/b.js', integrity: null },
        { src: '', integrity: null },
      ],
    });
  });

  it('keeps at most MAX_CSP_METAS CSP metas, the first ones (the merge is quadratic in policies)', () => {
    const metas = Array.from(
      { length: MAX_CSP_METAS + 8 },
      (_, i) => `<meta http-equiv="content-security-policy" content="img-src https://a.example/${i}/">`,
    ).join('');
    const { cspMeta } = readHtmlFacts(metas);
    expect(cspMeta).toHaveLength(MAX_CSP_METAS);
    expect(cspMeta[0]).toBe('img-src https://a.example/0/');
  });

  it('resolves against an absolute <base href> only', () => {
    expect(readHtmlFacts('<base href="/x/"><script src="a.js"></script>').scripts[0]!.src).toBe('a.js');
    expect(readHtmlFacts('<base href="https://cdn.example/x/"><script src="a.js"></script>').scripts[0]!.src).toBe(
      'https://cdn.example/x/a.js',
    );
  });
});
