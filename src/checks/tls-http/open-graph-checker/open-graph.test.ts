import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHeadEndDetector } from '../../../probes/http/head-end.js';
import { extractHeadTags, openGraphData, sniffEncoding } from './open-graph.js';
import type { CheckedTarget, TargetGuard } from '../../../probes/guard.js';
import { fetchGuarded, type FetchResult } from '../../../probes/http/fetcher.js';
import { startHttpLab, type HttpLab } from '../../../../test/lab/http-server.js';

/** Windows-1251 bytes for ASCII and the basic Cyrillic letters А–я (U+0410–U+044F → 0xC0–0xFF). */
function cp1251(text: string): Buffer {
  return Buffer.from(
    [...text].map((ch) => {
      const code = ch.codePointAt(0)!;
      if (code < 0x80) return code;
      if (code >= 0x410 && code <= 0x44f) return code - 0x410 + 0xc0;
      throw new Error(`no windows-1251 byte for ${ch}`);
    }),
  );
}

const FINAL = 'https://www.site.example/articles/one?x=1';
const nullOg = { title: null, description: null, image: null, url: null, type: null, site_name: null };
const nullTwitter = { card: null, title: null, description: null, image: null, site: null };

describe('extractHeadTags', () => {
  it('reads og:* and twitter:* from property= and name=, first non-empty occurrence winning', () => {
    const html = `<!doctype html><html><head>
      <title>  The   page
        title </title>
      <meta property="og:title" content="OG title">
      <meta property="og:title" content="second, ignored">
      <meta name="og:description" content="described by name=">
      <meta property="og:type" content="">
      <meta property="og:type" content="article">
      <meta property="og:site_name" content="Site">
      <meta name="twitter:card" content="summary_large_image">
      <meta property="twitter:title" content="Twitter title by property=">
      <meta name="twitter:description" content="tw desc">
      <meta name="twitter:site" content="@site">
      <meta name="description" content="not open graph">
    </head><body></body></html>`;
    const tags = extractHeadTags(Buffer.from(html), 'text/html; charset=utf-8', FINAL);
    expect(tags.title).toBe('The page title');
    expect(tags.og).toEqual({
      ...nullOg,
      title: 'OG title',
      description: 'described by name=',
      type: 'article',
      site_name: 'Site',
    });
    expect(tags.twitter).toEqual({
      ...nullTwitter,
      card: 'summary_large_image',
      title: 'Twitter title by property=',
      description: 'tw desc',
      site: '@site',
    });
  });

  it('decodes entities in attributes and the title', () => {
    const html = `<head><title>Tom &amp; Jerry &#8211; caf&eacute;</title><meta property="og:title" content="&quot;Quoted&quot; &lt;b&gt; &#x263A;"></head>`;
    const tags = extractHeadTags(Buffer.from(html), 'text/html', FINAL);
    expect(tags.title).toBe('Tom & Jerry – café');
    expect(tags.og.title).toBe('"Quoted" <b> ☺');
  });

  it('resolves og:image, og:url and twitter:image against the final URL, with their aliases', () => {
    const html = `<head>
      <meta property="og:image:url" content="../img/cover.png">
      <meta property="og:image" content="/ignored-second.png">
      <meta property="og:url" content="?page=2">
      <meta name="twitter:image:src" content="//cdn.site.example/t.png">
      <meta property="og:description" content="../not-a-url-field">
    </head>`;
    const tags = extractHeadTags(Buffer.from(html), 'text/html', FINAL);
    expect(tags.og.image).toBe('https://www.site.example/img/cover.png');
    expect(tags.og.url).toBe('https://www.site.example/articles/one?page=2');
    expect(tags.og.description).toBe('../not-a-url-field');
    expect(tags.twitter.image).toBe('https://cdn.site.example/t.png');
  });

  it('reads only the head: tags after </head> or <body> are not counted', () => {
    const afterHead = `<head><meta property="og:title" content="in head"></head><body><meta property="og:description" content="in body"><title>body title</title></body>`;
    expect(extractHeadTags(Buffer.from(afterHead), 'text/html', FINAL)).toMatchObject({
      title: '',
      og: { title: 'in head', description: null },
    });
    const bodyWithoutHeadEnd = `<html><head><meta name="twitter:card" content="summary"><body><meta name="twitter:site" content="@late">`;
    expect(extractHeadTags(Buffer.from(bodyWithoutHeadEnd), 'text/html', FINAL).twitter).toEqual({
      ...nullTwitter,
      card: 'summary',
    });
  });

  it('reads a document without head or body tags to its end', () => {
    const html = `<title>Bare</title><meta property="og:title" content="bare og"><p>text</p>`;
    expect(extractHeadTags(Buffer.from(html), null, FINAL)).toMatchObject({ title: 'Bare', og: { title: 'bare og' } });
  });

  it('is not stopped by "<body>" inside a script or a comment', () => {
    const html = `<head><script>document.write("<body>")</script><!-- <body> --><meta property="og:title" content="after script"></head>`;
    expect(extractHeadTags(Buffer.from(html), 'text/html', FINAL).og.title).toBe('after script');
  });

  it('gives an empty title and null tags for a page without any', () => {
    expect(extractHeadTags(Buffer.from('<html><head></head><body>hi</body></html>'), 'text/html', FINAL)).toEqual({
      title: '',
      og: nullOg,
      twitter: nullTwitter,
      encoding: 'utf-8',
    });
  });
});

describe('encoding', () => {
  const cyrillic = (meta: string) =>
    Buffer.concat([cp1251(`<html><head>${meta}<title>`), cp1251('Привет'), cp1251('</title></head></html>')]);

  it('takes the Content-Type charset first', () => {
    const body = Buffer.from('<title>Café</title>', 'latin1');
    expect(extractHeadTags(body, 'text/html; charset=ISO-8859-1', FINAL)).toMatchObject({
      title: 'Café',
      encoding: 'windows-1252',
    });
    // The header wins over a contradicting meta.
    expect(extractHeadTags(cyrillic('<meta charset="utf-8">'), 'text/html; charset=windows-1251', FINAL).title).toBe(
      'Привет',
    );
  });

  it('falls back to <meta charset> and <meta http-equiv>', () => {
    expect(extractHeadTags(cyrillic('<meta charset="windows-1251">'), 'text/html', FINAL)).toMatchObject({
      title: 'Привет',
      encoding: 'windows-1251',
    });
    expect(
      extractHeadTags(cyrillic('<meta http-equiv="Content-Type" content="text/html; charset=cp1251">'), null, FINAL)
        .title,
    ).toBe('Привет');
  });

  it('uses UTF-8 for no declaration, an unknown label, or a meta claiming UTF-16; a BOM beats everything', () => {
    expect(sniffEncoding(Buffer.from('<title>x</title>'), null)).toBe('utf-8');
    expect(sniffEncoding(Buffer.from('<meta charset="klingon">'), 'text/html; charset=also-unknown')).toBe('utf-8');
    expect(sniffEncoding(Buffer.from('<meta charset="utf-16le">'), null)).toBe('utf-8');
    expect(sniffEncoding(Buffer.from('<meta charset="x-user-defined">'), null)).toBe('windows-1252');
    const bom = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('<title>é</title>')]);
    expect(sniffEncoding(bom, 'text/html; charset=windows-1251')).toBe('utf-8');
    expect(extractHeadTags(bom, 'text/html; charset=windows-1251', FINAL).title).toBe('é');
  });
});

describe('createHeadEndDetector', () => {
  it('says true once </head> or <body> has been seen, across chunk boundaries', () => {
    const detector = createHeadEndDetector();
    expect(detector(Buffer.from('<html><head><title>x</title></he'))).toBe(false);
    expect(detector(Buffer.from('ad><p>'))).toBe(true);
    const body = createHeadEndDetector();
    expect(body(Buffer.from('<title>x</title><!-- <body> --><script>"<body>"</script>'))).toBe(false);
    expect(body(Buffer.from('<bo'))).toBe(false);
    expect(body(Buffer.from('dy class="x">'))).toBe(true);
  });
});

describe('openGraphData', () => {
  it('says fetched false, with an empty title and null tags, when no HTML was read', () => {
    const final = {
      url: 'https://a.example/x.png',
      statusCode: 200,
      statusText: 'OK',
      headers: { 'content-type': 'image/png' },
      location: null,
      remoteAddress: '192.0.2.1',
      httpVersion: '1.1' as const,
      tls: null,
      timing: { dnsMs: 0, tcpMs: 0, tlsMs: 0, ttfbMs: 0, totalMs: 0 },
    };
    const result: FetchResult = {
      requestedUrl: 'https://a.example/x.png',
      finalUrl: 'https://a.example/x.png',
      hops: [final],
      final,
      body: null,
      bodyTruncated: false,
      bodyEnd: null,
      httpVersion: '1.1',
      responseTimeMs: 1,
      redirectLimitReached: false,
      redirectNotFollowed: null,
      tlsError: null,
    };
    expect(openGraphData(result)).toEqual({
      requestedUrl: 'https://a.example/x.png',
      finalUrl: 'https://a.example/x.png',
      statusCode: 200,
      fetched: false,
      title: '',
      og: nullOg,
      twitter: nullTwitter,
    });
  });
});

describe('open-graph-checker over the lab', () => {
  let lab: HttpLab;
  const guard: TargetGuard = {
    async check(target): Promise<CheckedTarget> {
      const input = target.kind === 'ip' ? target.ip : target.hostname;
      return { input, hostname: target.kind === 'ip' ? null : input, addresses: [{ address: '127.0.0.1', family: 4 }] };
    },
    assertAllowed(address) {
      if (net.isIP(address) === 0) throw new Error('not an address');
    },
  };

  beforeAll(async () => {
    lab = await startHttpLab({
      pages: {
        '/article/': {
          headers: { 'content-type': 'text/html; charset=utf-8' },
          body: `<html><head><title>Article</title>
            <meta property="og:image" content="img/hero.jpg"><meta property="og:title" content="Fish &amp; Chips">
            <meta name="twitter:card" content="summary"></head><body>${'x'.repeat(300_000)}</body></html>`,
        },
        '/cp1251-header': {
          headers: { 'content-type': 'text/html; charset=windows-1251' },
          body: cp1251('<title>Привет</title><meta property="og:title" content="Мир">'),
        },
        '/cp1251-meta': {
          headers: { 'content-type': 'text/html' },
          body: cp1251('<head><meta charset="windows-1251"><title>Пока</title></head>'),
        },
        '/latin1': {
          headers: { 'content-type': 'text/html; charset=iso-8859-1' },
          body: Buffer.from('<title>Déjà vu</title>', 'latin1'),
        },
        '/gone': {
          status: 404,
          headers: { 'content-type': 'text/html' },
          body: '<head><meta property="og:title" content="Not here"></head>',
        },
        '/data.json': { headers: { 'content-type': 'application/json' }, body: '{"og:title":"no"}' },
      },
    });
  });

  afterAll(() => lab.close());

  async function check(path: string): Promise<ReturnType<typeof openGraphData>> {
    const result = await fetchGuarded({
      url: new URL(lab.url(path, 'site.lab.test')),
      guard,
      timeoutMs: 5000,
      maxRedirects: 10,
      maxBodyBytes: 1024 * 1024,
      readBody: 'html',
      stopWhen: createHeadEndDetector(),
    });
    return openGraphData(result);
  }

  it('reads the head after a redirect and resolves og:image against the final URL', async () => {
    const requested = lab.url(`/redirect?to=${encodeURIComponent('/article/')}`, 'site.lab.test');
    const result = await fetchGuarded({
      url: new URL(requested),
      guard,
      timeoutMs: 5000,
      maxRedirects: 10,
      maxBodyBytes: 1024 * 1024,
      readBody: 'html',
      stopWhen: createHeadEndDetector(),
    });
    expect(result.bodyEnd).toBe('stopped');
    expect(openGraphData(result)).toEqual({
      requestedUrl: requested,
      finalUrl: lab.url('/article/', 'site.lab.test'),
      statusCode: 200,
      fetched: true,
      title: 'Article',
      og: { ...nullOg, title: 'Fish & Chips', image: lab.url('/article/img/hero.jpg', 'site.lab.test') },
      twitter: { ...nullTwitter, card: 'summary' },
    });
    await lab.waitForAllClosed();
  });

  it('decodes windows-1251 named by the header or by a meta tag, and Latin-1', async () => {
    expect(await check('/cp1251-header')).toMatchObject({ title: 'Привет', og: { title: 'Мир' } });
    expect((await check('/cp1251-meta')).title).toBe('Пока');
    expect((await check('/latin1')).title).toBe('Déjà vu');
  });

  it('reads an HTML error page (fetched whatever the status) but not a JSON document', async () => {
    expect(await check('/gone')).toMatchObject({ statusCode: 404, fetched: true, og: { title: 'Not here' } });
    expect(await check('/data.json')).toMatchObject({ statusCode: 200, fetched: false, title: '', og: nullOg });
  });
});
