/**
 * Turns a WHOIS answer into key/value entries. RFC 3912 defines no answer format,
 * so this reads the layouts registries actually use:
 *
 *   "Key: Value" (ICANN RDDS, RPSL-like ccTLDs), "Key.........: Value", "Key<TAB>Value"
 *   without a colon (SWITCH), "[Key]   Value" (JPRS), "a. [Key]  Value" (JPRS, co.jp),
 *   "class:Attribute:value" (NIC.MA);
 *   a header ("Registrar:", "Name servers:", "[Tech-C]", or a bare "Registrar"
 *   followed by indented lines) whose indented lines are either its values
 *   (Nominet, SIDN) or key/value pairs of its own (.it, .eu, .be);
 *   indented continuation lines of a value ("nameservers: a.\n   b.", JPRS postal address);
 *   sentences such as "Record created on 2008-05-23" (.tw, Network Solutions).
 *
 * Each entry keeps the header it sits under and the paragraph it belongs to, so the
 * field tables can tell the domain's own facts from a contact's.
 */

import { isWhitespace, trimEndWhile } from './scan.js';

export interface WhoisEntry {
  /** Normalised key: lower-case, "_"/"-" as spaces, dot leaders and brackets removed. */
  readonly key: string;
  readonly value: string;
  /** Normalised key of the header this entry sits under; '' at top level. */
  readonly section: string;
  /** Paragraph number (blank or comment lines separate paragraphs). */
  readonly paragraph: number;
  /** Normalised key of the first entry of the paragraph (RPSL object class: "domain", "nic-hdl"...). */
  readonly paragraphClass: string;
  /** Zero-based line number in the answer. */
  readonly line: number;
}

interface ParsedLine {
  readonly indent: number;
  readonly key: string | null;
  readonly value: string;
  /** "[Tech-C]"-style header: it claims the unindented lines below it until a blank line. */
  readonly bracketed: boolean;
}

interface Header {
  readonly key: string;
  readonly indent: number;
  /**
   * Until the next blank line, a header also claims lines at its own indentation:
   * a "[Tech-C]" header its key/value lines, a colon header its plain values
   * (.pl "REGISTRAR:\nMarkmonitor, Inc."). After a blank line only deeper lines.
   */
  sameIndent: 'keyed' | 'plain' | 'none';
  /** Whether a line has been read under the header yet: blank lines before the first one do not seal it. */
  filled: boolean;
  /**
   * A blank line after its content seals a header: it keeps deeper plain lines but no
   * longer key/value lines. Network Solutions-style answers indent the whole record
   * under "Registrant:", whose address ends at a blank line before "Domain Name:".
   */
  sealed: boolean;
}

interface OpenValue {
  readonly key: string;
  readonly indent: number;
  readonly section: string;
}

/**
 * Lines are cut at this length before they are read. RFC 3912 sets no limit, but the
 * longest lines registries send are terms-of-use paragraphs printed on one line, and no
 * field value comes near (a host name has at most 253 characters, RFC 1035 §2.3.4).
 * The cut bounds the work any pattern can do on one line, whatever the answer.
 */
export const MAX_LINE_CHARS = 4096;

/** The answer's lines (CRLF, CR or LF ends a line), each cut at MAX_LINE_CHARS. */
export function splitLines(text: string): string[] {
  const lines = text.split(/\r\n|\r|\n/);
  for (let index = 0; index < lines.length; index += 1) {
    const line = lines[index] ?? '';
    if (line.length > MAX_LINE_CHARS) lines[index] = line.slice(0, MAX_LINE_CHARS);
  }
  return lines;
}

const IANA_RECORD_START = /^%\s*IANA WHOIS server\b/i;
const IANA_RECORD_END = /^source:\s*IANA\s*$/i;

/**
 * A chained answer (a client that followed IANA's referral prints what each server said) opens with
 * IANA's record, from "% IANA WHOIS server" to its "source: IANA" line. That record is about the TLD:
 * its "created:", contacts and name servers are the TLD's. When a registry's answer follows, the
 * registry's own block is the domain's, so IANA's record is left out (issue 32: nic.live's "created:
 * 2015-06-25" is the TLD's delegation, the domain's "Creation Date:" is 2015-04-27). IANA's answer
 * alone (a TLD, or the referral step) is kept whole. One pass over the lines.
 */
export function withoutIanaRecord(text: string): string {
  const lines = text.split(/(?<=\n)/);
  const start = lines.findIndex((line) => IANA_RECORD_START.test(line));
  if (start < 0) return text;
  let end = start + 1;
  while (end < lines.length && !IANA_RECORD_END.test((lines[end] ?? '').trimEnd())) end += 1;
  if (end >= lines.length) return text;
  const after = lines.slice(end + 1);
  if (!after.some((line) => /\S/.test(line) && !COMMENT.test(line))) return text;
  return [...lines.slice(0, start), ...after].join('');
}

const COMMENT = /^\s*(?:%|#|>>>|\*\*\*|--\s*$|;|={3,}|-{3,})/;
const BRACKET_KEY = /^(?:[a-z]\.?\s*)?\[([^\]]{1,60})\]\s*(.*)$/i;
/**
 * "Record created on 2008-05-23", "Record expires on 22-Apr-2003.", "Registered on 30th April 2003".
 * Not "Last updated on …" nor sentences about the WHOIS database: those date the answer, not the domain.
 */
const SENTENCE_KEY = /^(?!last\b)(?![^\d]*\b(?:whois|database)\b)([a-z][a-z ]{1,40}?\s(?:on|at|date|until))\s+(\d.*)$/i;
/** "class:Attribute:value" object dumps (NIC.MA): no space around the colons. */
const CLASS_ATTRIBUTE = /^[a-z]+:([A-Za-z][\w-]*(?:;[A-Za-z]+)?):(.*)$/;
const HOST_LIKE = /[a-z0-9-]\.[a-z0-9-]+\.?(?:\s|$)/i;
/** What `.` does not match without the `s` flag (ECMA-262 LineTerminator): a value is on one line. */
const LINE_TERMINATOR = /[\n\r\u2028\u2029]/;

/** Lower-case, punctuation-insensitive form of a key used by the field tables. */
export function normaliseKey(rawKey: string): string {
  const spaced = rawKey
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '') // "Fecha de Creación" → "fecha de creacion"
    .normalize('NFC') // recomposes Hangul, which NFKD took apart
    .toLowerCase()
    .replace(/^\*+\s*/, '') // TRABIS "** Domain Name:"
    .replace(/^(?:\d{1,2}[a-z]?\.|[a-z]\.)\s+/, '') // item labels: ZACR "1a. Domain Name", JPRS "a. [Domain Name]"
    .replace(/\.{2,}|\s\.(?:\s*\.)+/g, ' ')
    .replace(/[_-]+/g, ' ')
    .replace(/[[\]]/g, ' ')
    .replace(/\s+/g, ' ');
  return trimEndWhile(spaced, isKeyEnding).trim();
}

/** Dot leaders and the colon that end a key ("Domain Name.......:"). */
function isKeyEnding(char: string): boolean {
  return char === '.' || char === ':' || isWhitespace(char);
}

function measureIndent(line: string): number {
  let width = 0;
  for (const char of line) {
    if (char === ' ') width += 1;
    else if (char === '\t') width += 8 - (width % 8);
    else break;
  }
  return width;
}

function parseLine(line: string): ParsedLine {
  const indent = measureIndent(line);
  const text = line.trim();
  const bracket = BRACKET_KEY.exec(text);
  if (bracket?.[1] !== undefined && /[\p{L}]/u.test(bracket[1])) {
    return { indent, key: bracket[1], value: (bracket[2] ?? '').trim(), bracketed: true };
  }
  const attribute = CLASS_ATTRIBUTE.exec(text);
  if (attribute?.[1] !== undefined) {
    // NIC.MA "domain:Created:20090324"; ";I" attributes hold references to other objects, not values.
    if (/;i$/i.test(attribute[1])) return { indent, key: null, value: text, bracketed: false };
    return { indent, key: attribute[1], value: (attribute[2] ?? '').trim(), bracketed: false };
  }
  const colon = splitAtColon(text) ?? splitAtTab(text);
  if (colon) return { indent, key: colon[0], value: colon[1], bracketed: false };
  const sentence = SENTENCE_KEY.exec(text);
  if (sentence?.[1] !== undefined && sentence[2] !== undefined) {
    return { indent, key: sentence[1], value: sentence[2].trim(), bracketed: false };
  }
  return { indent, key: null, value: text, bracketed: false };
}

/** "Key: value" with the guards that keep URLs, times and "host IPv6" lines from being split. */
function splitAtColon(text: string): [string, string] | null {
  const index = text.indexOf(':');
  if (index <= 0) return null;
  const key = trimEndWhile(text.slice(0, index), (char) => char === '.' || isWhitespace(char)).trim();
  // A YAML type tag ("registrar: !Registrar", smallregistry.net) announces a nested block.
  const value = text
    .slice(index + 1)
    .trim()
    .replace(/^!\w+$/, '');
  if (key === '' || key.length > 80 || !/[\p{L}]/u.test(key)) return null;
  if (unbalanced(key, '[', ']') || unbalanced(key, '(', ')')) return null; // "ns1.x.ch [2001:db8::1]"
  if (value.startsWith('//')) return null; // "http://..." prose
  if (/\d$/.test(key) && /^\d{2}\b/.test(value)) return null; // a time "22:03:53" inside a sentence
  // "ns1.x.net 2001:db8::1": the colon belongs to an IPv6 address after a host name.
  if (HOST_LIKE.test(`${key} `) && /^[0-9a-f]*$/i.test(key.split(/\s+/).pop() ?? '')) return null;
  if (key.split(/\s+/).length > 10) return null;
  return [key, value];
}

/**
 * "Domain name<TAB>switch.ch" (SWITCH): a tab separates key and value when there is no colon.
 * The key is what precedes the first tab (1 to 60 characters), the value what follows the
 * tabs, on one line. `text` is trimmed, so something follows them.
 */
function splitAtTab(text: string): [string, string] | null {
  const tabAt = text.indexOf('\t');
  if (tabAt < 1 || tabAt > 60) return null;
  let valueAt = tabAt;
  while (text.charAt(valueAt) === '\t') valueAt += 1;
  const rawValue = text.slice(valueAt);
  if (rawValue === '' || LINE_TERMINATOR.test(rawValue)) return null;
  const key = text.slice(0, tabAt).trim();
  if (!/^[\p{L}][\p{L}\s'()./-]*$/u.test(key) || key.split(/\s+/).length > 6) return null;
  if (/\p{L}\.\p{L}/u.test(key)) return null; // "ns2.switch.ch<TAB>130.59.31.29" is a host, not a key
  return [key, rawValue.trim()];
}

function unbalanced(text: string, open: string, close: string): boolean {
  return text.split(open).length > text.split(close).length;
}

/**
 * Splits text into entries; never throws, whatever the input. `listHeaders` are
 * normalised keys that may head a list of unindented values without a colon
 * (SWITCH "Name servers\nns1.example.ch").
 */
export function readEntries(text: string, listHeaders: ReadonlySet<string> = new Set()): WhoisEntry[] {
  const lines = splitLines(text.replace(/^\uFEFF/, ''));
  const entries: WhoisEntry[] = [];
  const headers: Header[] = [];
  let open: OpenValue | null = null;
  let paragraph = 0;
  let paragraphHasContent = false;
  let paragraphClass = '';

  const endParagraph = (): void => {
    if (paragraphHasContent) paragraph += 1;
    paragraphHasContent = false;
    paragraphClass = '';
    open = null;
    for (const header of headers) {
      if (!header.filled) continue;
      header.sameIndent = 'none';
      header.sealed = true;
    }
  };

  const push = (key: string, value: string, section: string, line: number): void => {
    const normalised = normaliseKey(key);
    if (!paragraphHasContent) paragraphClass = normalised;
    paragraphHasContent = true;
    entries.push({ key: normalised, value, section, paragraph, paragraphClass, line });
  };

  const openHeader = (rawKey: string, indent: number, sameIndent: Header['sameIndent']): void => {
    const key = normaliseKey(rawKey);
    headers.push({ key, indent, sameIndent, filled: false, sealed: false });
    if (!paragraphHasContent) paragraphClass = key;
    paragraphHasContent = true;
    open = null;
  };

  for (let index = 0; index < lines.length; index += 1) {
    const raw = lines[index] ?? '';
    if (raw.trim() === '' || COMMENT.test(raw)) {
      endParagraph();
      continue;
    }
    const parsed = parseLine(raw);
    const isPlain = parsed.key === null;

    // Leave the headers this line is not inside of.
    while (headers.length > 0) {
      const top = headers[headers.length - 1];
      if (top === undefined) break;
      if (parsed.indent > top.indent && !(top.sealed && !isPlain)) break;
      if (parsed.indent === top.indent && top.sameIndent === 'keyed' && !isPlain && !parsed.bracketed) break;
      if (parsed.indent === top.indent && top.sameIndent === 'plain' && isPlain) break;
      headers.pop();
    }
    const current = headers[headers.length - 1];
    const section = current?.key ?? '';
    if (current) current.filled = true;

    if (isPlain) {
      const openValue: OpenValue | null = open;
      if (openValue !== null && parsed.indent > openValue.indent && openValue.section === section) {
        // Continuation line of the value above ("nameservers: a.\n    b.").
        push(openValue.key, parsed.value, openValue.section, index);
        continue;
      }
      if (section !== '') {
        push(section, parsed.value, sectionParent(headers), index);
        continue;
      }
      const listHeader = listHeaders.has(normaliseKey(parsed.value));
      if (listHeader || startsIndentedBlock(lines, index, parsed.indent)) {
        // A bare header such as .it's "Registrar", KISA's "1차 네임서버 정보", SWITCH's "Name servers".
        openHeader(parsed.value, parsed.indent, listHeader ? 'plain' : 'none');
        continue;
      }
      push('', parsed.value, section, index);
      open = null;
      continue;
    }

    const key = parsed.key ?? '';
    if (parsed.value === '') {
      openHeader(key, parsed.indent, parsed.bracketed ? 'keyed' : 'plain');
      continue;
    }
    push(key, parsed.value, section, index);
    open = { key, indent: parsed.indent, section };
  }
  return entries;
}

function sectionParent(headers: readonly Header[]): string {
  return headers.length > 1 ? (headers[headers.length - 2]?.key ?? '') : '';
}

function startsIndentedBlock(lines: readonly string[], index: number, indent: number): boolean {
  const next = lines[index + 1];
  if (next === undefined || next.trim() === '' || COMMENT.test(next)) return false;
  return measureIndent(next) > indent;
}
