/**
 * open-graph-checker: Open Graph (https://ogp.me) and Twitter Card tags and the title
 * from the head of an HTML document (decisions §5), parsed by htmlparser2.
 *
 * Reading rules:
 * - Only the head counts: parsing stops at </head> or <body>. A document with neither
 *   (a bare fragment) is read to its end, as a browser would put leading <title> and
 *   <meta> into an implied head.
 * - Encoding (WHATWG HTML §13.2.3): a byte order mark, else the Content-Type charset,
 *   else <meta charset> or <meta http-equiv="Content-Type"> in the head, else UTF-8.
 *   A label TextDecoder does not know means UTF-8; a meta-declared UTF-16 means UTF-8
 *   (the bytes were just read as ASCII-compatible, so they cannot be UTF-16), and a
 *   meta-declared x-user-defined windows-1252.
 * - og:* is read from property= and also name= (common in the wild); twitter:* from name=
 *   and also property=. The first non-empty occurrence of a tag wins. og:image:url is
 *   og:image's alias, twitter:image:src twitter:image's.
 * - Entities are decoded (htmlparser2). og:image, og:url and twitter:image are resolved
 *   against the final URL (decisions §5; a <base href> is deliberately not applied).
 */
import { Parser } from 'htmlparser2';
import type { FetchResult } from '../../../probes/http/fetcher.js';
import { charsetParameter, encodingForLabel } from '../../../probes/http/content-type.js';

export interface OpenGraphTags {
  title: string | null;
  description: string | null;
  image: string | null;
  url: string | null;
  type: string | null;
  site_name: string | null;
}

export interface TwitterCardTags {
  card: string | null;
  title: string | null;
  description: string | null;
  image: string | null;
  site: string | null;
}

/** api-v1.md open-graph-checker `data`. */
export interface OpenGraphCheckerData {
  requestedUrl: string;
  finalUrl: string;
  statusCode: number;
  fetched: boolean;
  title: string;
  og: OpenGraphTags;
  twitter: TwitterCardTags;
}

export interface HeadTags {
  /** the first <title>, whitespace collapsed; "" when there is none */
  title: string;
  og: OpenGraphTags;
  twitter: TwitterCardTags;
  /** the WHATWG name of the encoding the document was decoded with */
  encoding: string;
}

const OG_KEYS: Record<string, keyof OpenGraphTags> = {
  'og:title': 'title',
  'og:description': 'description',
  'og:image': 'image',
  'og:image:url': 'image',
  'og:url': 'url',
  'og:type': 'type',
  'og:site_name': 'site_name',
};

const TWITTER_KEYS: Record<string, keyof TwitterCardTags> = {
  'twitter:card': 'card',
  'twitter:title': 'title',
  'twitter:description': 'description',
  'twitter:image': 'image',
  'twitter:image:src': 'image',
  'twitter:site': 'site',
};

/** htmlparser2 is fed in slices so that parsing can stop soon after the head ends. */
const PARSE_SLICE = 16 * 1024;

interface HeadVisitor {
  meta?(attributes: Record<string, string>): void;
  title?(text: string): void;
}

/** Parses the head of `text`, calling the visitor for each <meta> and the first <title>. */
function walkHead(text: string, visitor: HeadVisitor): void {
  let done = false;
  let inTitle = false;
  let titleSeen = false;
  let titleText = '';
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        if (done) return;
        if (name === 'body') done = true;
        else if (name === 'meta') visitor.meta?.(attributes);
        else if (name === 'title' && !titleSeen) inTitle = true;
      },
      ontext(data) {
        if (!done && inTitle) titleText += data;
      },
      onclosetag(name) {
        if (done) return;
        if (name === 'title' && inTitle) {
          inTitle = false;
          titleSeen = true;
          visitor.title?.(titleText);
        } else if (name === 'head') done = true;
      },
    },
    { decodeEntities: true },
  );
  for (let i = 0; i < text.length && !done; i += PARSE_SLICE) parser.write(text.slice(i, i + PARSE_SLICE));
  parser.end();
}

function charsetOfMeta(attributes: Record<string, string>): string | null {
  if (attributes.charset !== undefined) return attributes.charset.trim() || null;
  if ((attributes['http-equiv'] ?? '').trim().toLowerCase() === 'content-type') {
    const match = /charset\s*=\s*["']?([^"';\s]+)/i.exec(attributes.content ?? '');
    return match?.[1] ?? null;
  }
  return null;
}

/** The encoding to decode the document with (rules in the module comment). */
export function sniffEncoding(body: Buffer, contentType: string | null | undefined): string {
  if (body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf) return 'utf-8';
  if (body[0] === 0xfe && body[1] === 0xff) return 'utf-16be';
  if (body[0] === 0xff && body[1] === 0xfe) return 'utf-16le';
  const fromHeader = encodingForLabel(charsetParameter(contentType));
  if (fromHeader !== null) return fromHeader;
  const found: { label: string | null } = { label: null };
  walkHead(body.toString('latin1'), {
    meta(attributes) {
      found.label ??= charsetOfMeta(attributes);
    },
  });
  const declared = found.label;
  // WHATWG HTML "prescan": x-user-defined means windows-1252 (Node's TextDecoder
  // does not know that label at all).
  if (declared?.trim().toLowerCase() === 'x-user-defined') return 'windows-1252';
  const fromMeta = encodingForLabel(declared);
  if (fromMeta === null || fromMeta === 'utf-16le' || fromMeta === 'utf-16be') return 'utf-8';
  return fromMeta;
}

function emptyOg(): OpenGraphTags {
  return { title: null, description: null, image: null, url: null, type: null, site_name: null };
}

function emptyTwitter(): TwitterCardTags {
  return { card: null, title: null, description: null, image: null, site: null };
}

function resolveAgainst(value: string | null, base: string): string | null {
  if (value === null) return null;
  try {
    return new URL(value, base).href;
  } catch {
    return value;
  }
}

/** Title and tags of a document's head. */
export function extractHeadTags(body: Buffer, contentType: string | null | undefined, finalUrl: string): HeadTags {
  const encoding = sniffEncoding(body, contentType);
  const text = new TextDecoder(encoding).decode(body);
  const og = emptyOg();
  const twitter = emptyTwitter();
  let title = '';
  walkHead(text, {
    title(t) {
      title = t.replace(/\s+/g, ' ').trim();
    },
    meta(attributes) {
      const content = attributes.content?.trim();
      if (!content) return;
      for (const key of [attributes.property, attributes.name]) {
        const k = key?.trim().toLowerCase();
        if (!k) continue;
        const ogField = OG_KEYS[k];
        if (ogField !== undefined) og[ogField] ??= content;
        const twitterField = TWITTER_KEYS[k];
        if (twitterField !== undefined) twitter[twitterField] ??= content;
      }
    },
  });
  og.image = resolveAgainst(og.image, finalUrl);
  og.url = resolveAgainst(og.url, finalUrl);
  twitter.image = resolveAgainst(twitter.image, finalUrl);
  return { title, og, twitter, encoding };
}

/**
 * open-graph-checker `data` from a fetch made with readBody 'html'. `fetched` is true
 * when an HTML document was read, whatever the status (decisions §5): the fetcher
 * leaves `body` null for other media types.
 */
export function openGraphData(result: FetchResult): OpenGraphCheckerData {
  const base = {
    requestedUrl: result.requestedUrl,
    finalUrl: result.finalUrl,
    statusCode: result.final.statusCode,
  };
  if (result.body === null) return { ...base, fetched: false, title: '', og: emptyOg(), twitter: emptyTwitter() };
  const tags = extractHeadTags(result.body, result.final.headers['content-type'], result.finalUrl);
  return { ...base, fetched: true, title: tags.title, og: tags.og, twitter: tags.twitter };
}
