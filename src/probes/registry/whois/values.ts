/**
 * Cleaning of single WHOIS values: host names, e-mail addresses, telephone numbers,
 * referral servers and registrar names. Each returns null for a value that is not
 * what its key promises (a handle where a host name belongs, "N/A", a URL...).
 */

import { isIP } from 'node:net';
import { parse as parseHost } from 'tldts';
import { canonicalName } from '../../../net/dns-name.js';
import { stripTrailingBracketed, trimEndWhile } from './scan.js';

/** LDH labels (RFC 1123 §2.1), U-labels allowed, at least two labels, alphabetic or xn-- TLD. */
const HOST_NAME = /^(?:[\p{L}\p{N}_](?:[\p{L}\p{N}_-]{0,61}[\p{L}\p{N}_])?\.)+(?:\p{L}{2,63}|xn--[a-z0-9-]{1,59})$/u;

/**
 * "ns1.x.com", "NS1.X.COM.", "ns1.x.com 192.0.2.1", "ns1.x.com (192.0.2.1)", "- ns1.x.com"
 * → host names. A zone-file record "x.pt NS ns1.x.com." (DNS.PT) gives its target only.
 */
export function readHostNames(value: string): string[] {
  const hosts: string[] = [];
  const tokens = value.split(/[\s,;()[\]]+/);
  const recordType = tokens.findIndex((token) => token.toUpperCase() === 'NS');
  for (const token of recordType >= 0 ? tokens.slice(recordType + 1) : tokens) {
    const host = cleanNameServer(token);
    if (host !== null) hosts.push(host);
  }
  return hosts;
}

/**
 * A name has at most 255 octets in wire format (RFC 1035 §2.3.4), which is 253 characters
 * written out without the root's trailing dot.
 */
const MAX_HOST_NAME_CHARS = 253;

export function cleanHostName(token: string): string | null {
  const host = trimEndWhile(token.trim().toLowerCase(), (char) => char === '.');
  if (host === '' || host.length > MAX_HOST_NAME_CHARS || isIP(host) !== 0) return null;
  return HOST_NAME.test(host) ? host : null;
}

/**
 * A name server host: a host name under a suffix of the Public Suffix List (tldts),
 * so that a handle shaped like a name (MYNIC "NS1GOOG0.SER") is not taken for one.
 */
export function cleanNameServer(token: string): string | null {
  const host = cleanHostName(token);
  if (host === null) return null;
  const parsed = parseHost(host);
  return parsed.isIcann === true || parsed.isPrivate === true ? host : null;
}

/**
 * The lookbehind starts a match only where a run of local-part characters starts: the
 * leftmost match starts there anyway, and without it a long run without "@" is rescanned
 * from each of its characters.
 */
const EMAIL = /(?<![\p{L}\p{N}._%+'-])[\p{L}\p{N}._%+'-]+@(?:[\p{L}\p{N}-]+\.)+[\p{L}]{2,63}/u;

export function readEmail(value: string): string | null {
  const match = EMAIL.exec(value);
  return match ? match[0].toLowerCase() : null;
}

/**
 * Longest value read as a telephone number. At most 20 digits are taken (E.164 numbers have
 * at most 15, ITU-T E.164); with separators and an extension a printed number stays well
 * under this. The bound also keeps the pattern below, whose separators and extension both
 * take spaces, from backtracking over a long run of them.
 */
const MAX_PHONE_CHARS = 64;

/** A telephone number as printed (ICANN "+1.2083895740", "+31.0202018165", "+44 20 7946 0000"). */
export function readPhone(value: string): string | null {
  const trimmed = value.trim();
  if (trimmed.length > MAX_PHONE_CHARS) return null;
  if (!/^\+?[\d\s().\-/]{6,}(?:\s*(?:x|ext\.?)\s*\d+)?$/i.test(trimmed)) return null;
  const digits = trimmed.replace(/\D/g, '');
  return digits.length >= 6 && digits.length <= 20 ? trimmed : null;
}

export interface WhoisServer {
  server: string;
  port?: number;
}

/**
 * "whois.x.com", "whois://whois.x.com", "whois.x.com:43", "rwhois://rwhois.x.net:4321"
 * → server and port. Host names only: registries name their servers, and an address
 * literal in third-party text is no server of theirs to follow.
 */
export function readWhoisServer(value: string): WhoisServer | null {
  const text = value.trim().split(/\s+/)[0] ?? '';
  const match = /^(?:r?whois:\/\/)?([^/:\s]+)(?::(\d{1,5}))?\/?$/i.exec(text);
  if (!match?.[1]) return null;
  const server = cleanHostName(match[1]);
  // "www.whois.uz" is a web page, not a port-43 server.
  if (server === null || server.startsWith('www.')) return null;
  if (match[2] === undefined) return { server };
  const port = Number(match[2]);
  if (port < 1 || port > 65535) return null;
  return port === 43 ? { server } : { server, port };
}

/** Placeholders that stand for "no value" (Nominet: "No registrar listed. This domain is..."). */
const EMPTY_VALUES = [
  /^(?:-+|\.|n\/?a|none|null|unknown)$/i,
  /^(?:not? (?:available|applicable|disclosed)|redacted(?: for privacy)?)$/i,
  /^no registrar\b/i,
];

/**
 * Longest value read as a registrar's name. Registrar names are short (ICANN's accreditation
 * list), even with the web address some registries append; a longer value is prose.
 */
const MAX_REGISTRAR_CHARS = 256;

/** Nominet's " [Tag = X]" suffix and a trailing " (http://...)" web address, at their opening bracket. */
const NOMINET_TAG_HEAD = /\[tag\s*=/iy;
const WEB_ADDRESS_HEAD = /\(\s*https?:\/\//iy;

/**
 * A registrar name as stated, without Nominet's " [Tag = X]" suffix or a trailing
 * "(http://...)" web address. Rejects URLs, numbers (IANA ids), handles and placeholders;
 * keeps "www.NameSRS.com", the way IIS (.se, .nu) names registrars.
 */
export function cleanRegistrar(value: string, { allowHandle = false }: { allowHandle?: boolean } = {}): string | null {
  if (value.length > MAX_REGISTRAR_CHARS) return null;
  const withoutSuffixes = stripTrailingBracketed(
    stripTrailingBracketed(value, '[', ']', NOMINET_TAG_HEAD),
    '(',
    ')',
    WEB_ADDRESS_HEAD,
  );
  const name = withoutSuffixes.replace(/\s+/g, ' ').trim();
  if (name === '' || EMPTY_VALUES.some((pattern) => pattern.test(name))) return null;
  if (/^https?:\/\//i.test(name) || /^\d+$/.test(name) || EMAIL.test(name)) return null;
  // A registry handle ("MARK-0292", SK-NIC) names no one; the registrar's name may follow.
  if (!allowHandle && /^[a-z0-9]+(?:-[a-z0-9]+)+$/i.test(name) && /\d/.test(name)) return null;
  return name;
}

/**
 * The domain name as the answer states it: first token, lower-case, no trailing dot.
 * A single label (IANA's "domain: COM") only with `allowSingleLabel`.
 */
export function cleanDomainName(value: string, options: { allowSingleLabel?: boolean } = {}): string | null {
  const token = (value.trim().split(/\s+/)[0] ?? '').replace(/^["']|["']$/g, '');
  const label = canonicalName(token);
  if (options.allowSingleLabel === true && /^(?:\p{L}{2,63}|xn--[a-z0-9-]{1,59})$/u.test(label)) return label;
  return cleanHostName(token);
}
