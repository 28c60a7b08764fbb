/**
 * A monitor's badge (docs/contract/monitors.md, `GET /badge/{monitorId}/{check}.svg`): a small
 * SVG as shields.io draws its "flat" badges — the check's name on grey, its latest state on a colour — and
 * an ETag from its content. A pure function of the pair's state: a badge never starts a run. Every text is
 * escaped as XML text and attribute (whatever a monitor holds, a hostile server may have put there), and
 * shortened: a badge is one line.
 */
import { createHash } from 'node:crypto';
import type { PairStatus } from './evaluate.js';

/** The contract's caching of a badge. */
export const BADGE_CACHE_CONTROL = 'max-age=300';
export const BADGE_CONTENT_TYPE = 'image/svg+xml; charset=utf-8';

/** shields.io's named colours. */
const COLOURS = {
  brightgreen: '#4c1',
  green: '#97ca00',
  yellowgreen: '#a4a61d',
  yellow: '#dfb317',
  orange: '#fe7d37',
  red: '#e05d44',
  lightgrey: '#9f9f9f',
  grey: '#555',
} as const;

/** The badge of a pair's state: a rating's letter where there is one, else ok / warning / critical. */
export function badgeOf(
  check: string,
  state: { status: PairStatus; grade: string | null },
): { svg: string; etag: string } {
  const { message, colour } = messageOf(state);
  const svg = renderBadge(check, message, colour);
  return { svg, etag: `"${createHash('sha256').update(svg).digest('base64url').slice(0, 27)}"` };
}

function messageOf(state: { status: PairStatus; grade: string | null }): { message: string; colour: string } {
  if (state.grade !== null && state.status !== 'error' && state.status !== 'pending')
    return { message: state.grade, colour: letterColour(state.grade) };
  switch (state.status) {
    case 'ok':
      return { message: 'ok', colour: COLOURS.brightgreen };
    // an answer with notes only reads as ok to a visitor; its colour tells them apart
    case 'info':
      return { message: 'ok', colour: COLOURS.green };
    case 'warning':
      return { message: 'warning', colour: COLOURS.yellow };
    case 'critical':
      return { message: 'critical', colour: COLOURS.red };
    case 'error':
      return { message: 'error', colour: COLOURS.lightgrey };
    default:
      return { message: 'pending', colour: COLOURS.lightgrey };
  }
}

/** As the grades' statuses go (docs/contract/grades.md "website-health-check"), A+ and A the greenest. */
function letterColour(letter: string): string {
  if (letter === 'A+' || letter === 'A') return COLOURS.brightgreen;
  if (letter === 'A-') return COLOURS.green;
  if (letter.startsWith('B')) return COLOURS.yellowgreen;
  if (letter.startsWith('C')) return COLOURS.yellow;
  if (letter.startsWith('D') || letter === 'E') return COLOURS.orange;
  return COLOURS.red;
}

/**
 * Verdana's advance widths (in 1/2048 of an em) of the printable ASCII characters from the space on, as
 * shields.io measures its badges' text at 11 px; other characters count as wide as `@`.
 */
const VERDANA_ADVANCES = [
  720, 806, 940, 1676, 1302, 2204, 1488, 550, 930, 930, 1302, 1676, 745, 930, 745, 930, 1302, 1302, 1302, 1302, 1302,
  1302, 1302, 1302, 1302, 1302, 930, 930, 1676, 1676, 1676, 1117, 2048, 1400, 1404, 1430, 1578, 1295, 1177, 1588, 1539,
  862, 931, 1419, 1140, 1726, 1532, 1612, 1235, 1612, 1424, 1400, 1262, 1499, 1400, 2025, 1403, 1260, 1403, 930, 930,
  930, 1676, 1302, 1302, 1230, 1276, 1067, 1276, 1220, 720, 1276, 1296, 562, 705, 1212, 562, 1992, 1296, 1243, 1276,
  1276, 874, 1067, 807, 1296, 1212, 1676, 1212, 1212, 1076, 1300, 930, 1300, 1676,
];
const AT = VERDANA_ADVANCES['@'.charCodeAt(0) - 32]!;
const FONT_PX = 11;

/** The text's width in pixels at 11 px, rounded up to an odd number as shields.io does (the text centres on a pixel). */
export function textWidth(text: string): number {
  let units = 0;
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    units += code >= 32 && code <= 126 ? VERDANA_ADVANCES[code - 32]! : AT;
  }
  const width = Math.ceil((units * FONT_PX) / 2048);
  return width % 2 === 0 ? width + 1 : width;
}

/** Longest text a side shows: a badge is one short line. */
const MAX_TEXT = 40;

/** The SVG of a flat badge. */
export function renderBadge(label: string, message: string, colour: string): string {
  const left = shorten(label);
  const right = shorten(message);
  const leftWidth = textWidth(left) + 10;
  const rightWidth = textWidth(right) + 10;
  const width = leftWidth + rightWidth;
  const title = escapeXml(`${left}: ${right}`);
  const fill = /^#[0-9a-f]{3,6}$/i.test(colour) ? colour : COLOURS.lightgrey;
  const text = (t: string, centre: number, w: number) => {
    const x = centre * 10;
    const length = (w - 10) * 10;
    const escaped = escapeXml(t);
    return (
      `<text aria-hidden="true" x="${x}" y="150" fill="#010101" fill-opacity=".3" transform="scale(.1)" textLength="${length}">${escaped}</text>` +
      `<text x="${x}" y="140" transform="scale(.1)" fill="#fff" textLength="${length}">${escaped}</text>`
    );
  };
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="20" role="img" aria-label="${title}">` +
    `<title>${title}</title>` +
    `<linearGradient id="s" x2="0" y2="100%"><stop offset="0" stop-color="#bbb" stop-opacity=".1"/><stop offset="1" stop-opacity=".1"/></linearGradient>` +
    `<clipPath id="r"><rect width="${width}" height="20" rx="3" fill="#fff"/></clipPath>` +
    `<g clip-path="url(#r)"><rect width="${leftWidth}" height="20" fill="${COLOURS.grey}"/>` +
    `<rect x="${leftWidth}" width="${rightWidth}" height="20" fill="${fill}"/>` +
    `<rect width="${width}" height="20" fill="url(#s)"/></g>` +
    `<g fill="#fff" text-anchor="middle" font-family="Verdana,Geneva,DejaVu Sans,sans-serif" text-rendering="geometricPrecision" font-size="110">` +
    text(left, leftWidth / 2, leftWidth) +
    text(right, leftWidth + rightWidth / 2, rightWidth) +
    '</g></svg>'
  );
}

/** Control characters and lone surrogates out (XML 1.0 cannot hold them), then at most MAX_TEXT characters. */
function shorten(text: string): string {
  const clean = [
    ...text.replace(
      /[\u0000-\u001f\u007f-\u009f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g,
      '',
    ),
  ];
  return clean.length > MAX_TEXT ? `${clean.slice(0, MAX_TEXT - 1).join('')}…` : clean.join('');
}

/** Text as XML character data and attribute value. */
export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
