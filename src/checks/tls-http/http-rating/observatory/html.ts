/**
 * What the Observatory reads from the graded HTML document, with htmlparser2 (the package uses jsdom):
 * - `<meta http-equiv="content-security-policy" content>` anywhere in the document (it parses the page as a
 *   fragment, so head and body alike), each non-empty content in order;
 * - `<meta name="referrer" content>` (not an http-equiv, treated as one): the last non-empty one wins; a
 *   meta with both http-equiv and content is read only as an http-equiv;
 * - every `<script>` element with its `src` and `integrity` attributes, for subresource-integrity. `src`
 *   is resolved as a DOM without a URL resolves it (jsdom's about:blank document): an absolute URL is
 *   normalised, anything else (a path, a protocol-relative `//host/x.js`) stays as written, unless the
 *   first `<base href>` is an absolute URL to resolve against.
 * Elements inside `<template>` (whose content a DOM keeps apart) and text of the raw-text elements the
 * HTML parser does not read markup in are skipped, as a browser's parser would.
 *
 * At most MAX_CSP_METAS CSP metas are kept (a decision of ours, not the package's): the package's parser
 * merges every policy with all the sources kept so far and sorts again, quadratic in the number of policies,
 * so a document of nothing but CSP metas would cost minutes; real pages carry one or two.
 */
import { Parser } from 'htmlparser2';

export interface ScriptElement {
  /** the src as the DOM's `script.src` gives it; "" without a src attribute */
  src: string;
  integrity: string | null;
}

export interface HtmlFacts {
  /** contents of the CSP http-equiv metas, in order */
  cspMeta: string[];
  /** the content of the last `<meta name="referrer">` with one; null when none */
  referrerMeta: string | null;
  scripts: ScriptElement[];
}

/** Elements whose content the HTML parser reads as text (WHATWG HTML §13.2.6.4.7), beyond what htmlparser2 knows. */
const RAW_TEXT_ELEMENTS: ReadonlySet<string> = new Set(['xmp', 'iframe', 'noembed', 'noframes']);

export const MAX_CSP_METAS = 32;

function absoluteUrl(text: string, base?: string): string | null {
  try {
    return new URL(text, base).href;
  } catch {
    return null;
  }
}

interface RawScript {
  src: string | undefined;
  integrity: string | undefined;
}

export function readHtmlFacts(document: string): HtmlFacts {
  const cspMeta: string[] = [];
  let referrerMeta: string | null = null;
  const rawScripts: RawScript[] = [];
  let base: string | null | undefined;
  // depth inside <template> and inside raw-text elements: nothing there is an element of the document
  let hidden = 0;
  const parser = new Parser(
    {
      onopentag(name, attributes) {
        if (hidden > 0) {
          if (name === 'template' || RAW_TEXT_ELEMENTS.has(name)) hidden += 1;
          return;
        }
        if (name === 'template' || RAW_TEXT_ELEMENTS.has(name)) {
          hidden = 1;
          return;
        }
        if (name === 'meta') {
          const httpEquiv = attributes['http-equiv'];
          const content = attributes.content;
          if (httpEquiv !== undefined && content !== undefined) {
            const isCsp = httpEquiv.toLowerCase().trim() === 'content-security-policy';
            if (content && isCsp && cspMeta.length < MAX_CSP_METAS) cspMeta.push(content);
          } else if (attributes.name?.toLowerCase().trim() === 'referrer' && content) {
            referrerMeta = content;
          }
        } else if (name === 'script') {
          rawScripts.push({ src: attributes.src, integrity: attributes.integrity });
        } else if (name === 'base' && base === undefined && attributes.href !== undefined) {
          // the first base with an href sets the document's base URL; relative to about:blank only an
          // absolute href means anything
          base = absoluteUrl(attributes.href);
        }
      },
      onclosetag(name) {
        if (hidden > 0 && (name === 'template' || RAW_TEXT_ELEMENTS.has(name))) hidden -= 1;
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.write(document);
  parser.end();
  const scripts = rawScripts.map(({ src, integrity }) => ({
    src: src === undefined ? '' : (absoluteUrl(src, base ?? undefined) ?? src),
    integrity: integrity ?? null,
  }));
  return { cspMeta, referrerMeta, scripts };
}
