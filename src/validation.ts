/**
 * Input rules for every parameter (decisions §6). Pure: no I/O.
 *
 * Every function throws `InputError(parameter, message)` whose message starts
 * with the parameter's name and says what was wrong, and returns the value in
 * the one form the rest of the code uses (trimmed, lower-cased A-labels without a
 * trailing dot, canonical IP text).
 *
 * Leading and trailing white space is trimmed from every parameter except
 * `port`, whose rule is "digits only".
 *
 * Numeric IPv4 forms. inet_aton() and the WHATWG URL parser read "2130706433",
 * "0x7f.1", "0177.0.0.1" and "127.1" as 127.0.0.1. Such a string is never a
 * hostname (a name's last label is not all-numeric, RFC 3696 §2), so where an IP
 * literal is allowed (`parseHostOrIp`) it is normalised to the dotted quad it
 * means, by the WHATWG URL Standard's IPv4 parser: `host=2130706433` and
 * `url=http://2130706433/` then mean the same address, and the target guard sees
 * and refuses 127.0.0.1. Where only a name is allowed it is rejected. A form that
 * is not a valid IPv4 address either ("1.2.3.256", "08.1.1.1") is rejected.
 */
import { domainToASCII, domainToUnicode } from 'node:url';
import { InputError } from './errors.js';
import { formatIp, parseIp } from './net/address-class.js';

export const MAX_PARAMETER_LENGTH = 2048;
const MAX_NAME_LENGTH = 253; // RFC 1035 §2.3.4: 255 octets on the wire, i.e. 253 characters in text
const MAX_LABEL_LENGTH = 63; // RFC 1035 §2.3.4

export type HostOrIp = { kind: 'ip'; ip: string; family: 4 | 6 } | { kind: 'hostname'; hostname: string };

/** Quotes a value for a message, shortened so a 2 KiB input does not fill the answer. */
function quote(value: string, max = 40): string {
  const chars = Array.from(value);
  return JSON.stringify(chars.length > max ? `${chars.slice(0, max - 1).join('')}…` : value);
}

function fail(parameter: string, message: string): never {
  throw new InputError(parameter, `${parameter}: ${message}`);
}

function codePoint(ch: string): string {
  return `U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
}

/**
 * The rule for every parameter: at most 2048 characters (code points), no
 * control characters (Unicode Cc: C0, DEL, C1) and no unpaired surrogates, not
 * empty after trimming. Returns the trimmed text.
 */
export function checkParameterText(parameter: string, value: string): string {
  if (typeof value !== 'string') fail(parameter, 'must be a string');
  // Characters are code points: a surrogate pair counts once.
  const length = value.length - (value.match(/[\ud800-\udbff][\udc00-\udfff]/g)?.length ?? 0);
  if (length > MAX_PARAMETER_LENGTH) {
    fail(parameter, `is ${length} characters long; at most ${MAX_PARAMETER_LENGTH} are accepted`);
  }
  const bad = /[\p{Cc}\p{Cs}]/u.exec(value);
  if (bad) {
    const what = /\p{Cs}/u.test(bad[0]) ? 'an unpaired surrogate' : `the control character ${codePoint(bad[0])}`;
    fail(parameter, `contains ${what} at position ${bad.index + 1}; control characters are not allowed`);
  }
  const trimmed = value.trim();
  if (trimmed === '') fail(parameter, 'must not be empty');
  return trimmed;
}

/* ------------------------------------------------------------------ names */

interface NameRules {
  /** '_' in labels: DNS owner names such as _dmarc.example.com, not hostnames */
  readonly underscore: boolean;
  readonly what: string;
}

const HOSTNAME: NameRules = { underscore: false, what: 'a hostname' };
const DNS_NAME: NameRules = { underscore: true, what: 'a domain name' };

/**
 * ASCII characters a name may be written with before IDNA processing; any
 * non-ASCII character is left to UTS #46 (via node:url's domainToASCII), which
 * maps or rejects it.
 */
function assertNameCharacters(parameter: string, text: string, rules: NameRules): void {
  for (const ch of text) {
    if (ch.charCodeAt(0) >= 0x80) continue;
    if (/[A-Za-z0-9.-]/.test(ch) || (ch === '_' && rules.underscore)) continue;
    const allowed = rules.underscore
      ? 'letters, digits, hyphens, underscores and dots'
      : 'letters, digits, hyphens and dots';
    fail(parameter, `${quote(text)} contains ${quote(ch)}; ${rules.what} has only ${allowed}`);
  }
}

/**
 * Converts to lower-case ASCII (internationalised labels become A-labels,
 * RFC 5891) and drops one trailing dot. The result is not yet checked for label
 * rules.
 */
function toAsciiName(parameter: string, text: string, rules: NameRules): string {
  assertNameCharacters(parameter, text, rules);
  let ascii = text.toLowerCase();
  if (/[^\x00-\x7f]/.test(text)) {
    ascii = domainToASCII(text);
    if (ascii === '') fail(parameter, `${quote(text)} is not a valid internationalised domain name`);
  }
  return ascii.endsWith('.') ? ascii.slice(0, -1) : ascii;
}

/**
 * WHATWG URL Standard, "IPv4 number parser": decimal, 0x-hex or 0-octal.
 * Null on failure.
 */
function parseIpv4Number(part: string): number | null {
  let digits = part;
  let radix = 10;
  if (/^0[xX]/.test(digits)) {
    digits = digits.slice(2);
    radix = 16;
  } else if (digits.length > 1 && digits.startsWith('0')) {
    digits = digits.slice(1);
    radix = 8;
  }
  if (digits === '') return 0;
  const valid = radix === 16 ? /^[0-9a-fA-F]+$/ : radix === 8 ? /^[0-7]+$/ : /^[0-9]+$/;
  return valid.test(digits) ? parseInt(digits, radix) : null;
}

/** WHATWG URL Standard, "ends in a number checker": such a host is parsed as IPv4 or is invalid. */
function endsInNumber(name: string): boolean {
  const parts = name.split('.');
  if (parts.length > 1 && parts[parts.length - 1] === '') parts.pop();
  const last = parts[parts.length - 1] ?? '';
  return last !== '' && (/^[0-9]+$/.test(last) || parseIpv4Number(last) !== null);
}

/** WHATWG URL Standard, "IPv4 parser": dotted quad text, or null when the form is invalid. */
function parseWhatwgIpv4(name: string): string | null {
  const parts = name.split('.');
  if (parts.length > 1 && parts[parts.length - 1] === '') parts.pop();
  if (parts.length > 4) return null;
  const numbers: number[] = [];
  for (const part of parts) {
    const n = part === '' ? null : parseIpv4Number(part);
    if (n === null) return null;
    numbers.push(n);
  }
  const last = numbers.pop()!;
  if (numbers.some((n) => n > 255) || last >= 256 ** (4 - numbers.length)) return null;
  const value = numbers.reduce((sum, n, i) => sum + n * 256 ** (3 - i), last);
  return [24, 16, 8, 0].map((shift) => Math.floor(value / 2 ** shift) % 256).join('.');
}

/** LDH (RFC 952, RFC 1123 §2.1) label, length and count rules on an ASCII name. */
function assertNameSyntax(parameter: string, original: string, name: string, rules: NameRules): void {
  if (name === '') fail(parameter, `${quote(original)} is not a domain name`);
  if (name.length > MAX_NAME_LENGTH) {
    fail(
      parameter,
      `${quote(original)} is ${name.length} characters long; a domain name has at most ${MAX_NAME_LENGTH}`,
    );
  }
  const labels = name.split('.');
  for (const label of labels) {
    if (label === '') fail(parameter, `${quote(original)} has an empty label (a leading dot or two dots in a row)`);
    if (label.length > MAX_LABEL_LENGTH) {
      fail(
        parameter,
        `label ${quote(label)} is ${label.length} characters; a DNS label has at most ${MAX_LABEL_LENGTH}`,
      );
    }
    // Checked again after IDNA: UTS #46 maps some non-ASCII characters to ASCII
    // symbols (e.g. U+FF3F to "_"), and URL hosts arrive here unchecked.
    const bad = (rules.underscore ? /[^a-z0-9_-]/ : /[^a-z0-9-]/).exec(label);
    if (bad) {
      const allowed = rules.underscore ? 'letters, digits, hyphens and underscores' : 'letters, digits and hyphens';
      fail(parameter, `label ${quote(label)} contains ${quote(bad[0])}; a label of ${rules.what} has only ${allowed}`);
    }
    if (label.startsWith('-') || label.endsWith('-')) {
      fail(parameter, `label ${quote(label)} starts or ends with a hyphen, which ${rules.what} does not allow`);
    }
    // An A-label must decode to a valid U-label (RFC 5891 §5.4). Node 20 answers ''
    // for an undecodable label, Node 24 hands it back unchanged; both fail the
    // round trip: decode, then encode again to the same label.
    if (label.startsWith('xn--') && !isValidALabel(label)) {
      fail(parameter, `label ${quote(label)} is not a valid IDNA A-label`);
    }
  }
  if (labels.length < 2) {
    fail(parameter, `${quote(original)} has a single label; a fully qualified name such as "example.com" is expected`);
  }
}

function isValidALabel(label: string): boolean {
  const unicode = domainToUnicode(label);
  return unicode !== label && !unicode.startsWith('xn--') && domainToASCII(unicode) === label;
}

function parseName(parameter: string, value: string, rules: NameRules): string {
  const text = checkParameterText(parameter, value);
  const name = toAsciiName(parameter, text, rules);
  if (endsInNumber(name)) {
    fail(
      parameter,
      parseWhatwgIpv4(name) === null
        ? `${quote(text)} ends in a numeric label; ${rules.what} needs a top-level label that is not a number`
        : `${quote(text)} is an IP address; ${rules.what} is expected`,
    );
  }
  assertNameSyntax(parameter, text, name, rules);
  return name;
}

/**
 * A hostname (decisions §6): LDH labels of 1–63 characters, at most 253 in all,
 * at least two labels; internationalised names become A-labels; a trailing dot
 * is ignored; the result is lower case. IP addresses are refused.
 */
export function parseHostname(parameter: string, value: string): string {
  return parseName(parameter, value, HOSTNAME);
}

/** Like `parseHostname`, but labels may contain '_' (DNS owner names: _dmarc.example.com, s1._domainkey.example.com). */
export function parseDnsName(parameter: string, value: string): string {
  return parseName(parameter, value, DNS_NAME);
}

/* ------------------------------------------------------------ IP literals */

function parseIpv6Literal(parameter: string, text: string, inner: string): HostOrIp {
  if (inner.includes('%'))
    fail(parameter, `${quote(text)} has an IPv6 zone identifier; zones are local to this server`);
  const parsed = parseIp(inner);
  if (!parsed || parsed.family !== 6) fail(parameter, `${quote(text)} is not a valid IPv6 address`);
  return { kind: 'ip', ip: formatIp(parsed), family: 6 };
}

/**
 * A hostname or an IP literal: a dotted-quad IPv4 address (numeric forms are
 * normalised, see the module comment), an IPv6 address with or without
 * brackets, or a hostname by `parseHostname`'s rules.
 */
export function parseHostOrIp(parameter: string, value: string): HostOrIp {
  const text = checkParameterText(parameter, value);
  if (text.startsWith('[') || text.endsWith(']')) {
    const bracketed = /^\[([^\]]*)\]$/.exec(text);
    if (!bracketed) fail(parameter, `${quote(text)} is not a valid bracketed IPv6 address`);
    return parseIpv6Literal(parameter, text, bracketed[1]!);
  }
  if (text.includes('://')) fail(parameter, `${quote(text)} is a URL; give the host name or IP address alone`);
  if (/^[^:]+:[0-9]*$/.test(text)) fail(parameter, `${quote(text)} has a port; give the host name or IP address alone`);
  if (text.includes(':')) return parseIpv6Literal(parameter, text, text);
  const name = toAsciiName(parameter, text, HOSTNAME);
  if (endsInNumber(name)) {
    const ip = parseWhatwgIpv4(name);
    if (ip === null) fail(parameter, `${quote(text)} is neither a valid IPv4 address nor a hostname`);
    return { kind: 'ip', ip, family: 4 };
  }
  assertNameSyntax(parameter, text, name, HOSTNAME);
  return { kind: 'hostname', hostname: name };
}

/* ------------------------------------------------------------------- URLs */

/**
 * An http or https URL with a host, at most 2048 characters (decisions §6).
 * The host follows `parseHostOrIp`'s rules (the WHATWG parser has already
 * normalised numeric IPv4 forms and IDNs); a trailing dot is removed from it.
 * A user name or password is refused: nothing here authenticates, and
 * "https://bank.example@evil.example/" only serves to mislead.
 */
export function parseUrl(parameter: string, value: string): URL {
  const text = checkParameterText(parameter, value);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    fail(parameter, `${quote(text)} is not a valid absolute URL; expected e.g. "https://example.com/"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    fail(
      parameter,
      `scheme ${quote(url.protocol.slice(0, -1))} is not supported; only http and https URLs are accepted`,
    );
  }
  if (url.username !== '' || url.password !== '') fail(parameter, 'must not contain a user name or password');
  if (url.hostname === '') fail(parameter, `${quote(text)} has no host`);
  if (url.port === '0') fail(parameter, 'port 0 is not a valid port; a port is 1–65535');
  const host = url.hostname;
  if (host.startsWith('[')) {
    parseIpv6Literal(parameter, host, host.slice(1, -1));
  } else if (endsInNumber(host)) {
    // The WHATWG host parser only lets a valid IPv4 address through here, already normalised.
    if (parseIp(host)?.family !== 4) fail(parameter, `host ${quote(host)} is not a valid IPv4 address`);
  } else {
    const name = host.endsWith('.') ? host.slice(0, -1) : host;
    assertNameSyntax(parameter, host, name, HOSTNAME);
    url.hostname = name;
  }
  if (url.href.length > MAX_PARAMETER_LENGTH) {
    fail(
      parameter,
      `is ${url.href.length} characters long once normalised; at most ${MAX_PARAMETER_LENGTH} are accepted`,
    );
  }
  return url;
}

/**
 * "example.com" or "https://example.com/x" (tls-configuration, website-health-check).
 * Either way the host must be a name, not an IP address: these checks are about
 * a domain (its certificate, its DNS). A bare value with a path or port is
 * refused with a hint to write the scheme.
 */
export function parseDomainOrUrl(parameter: string, value: string): { hostname: string; url: URL | null } {
  const text = checkParameterText(parameter, value);
  if (/^[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(text)) {
    const url = parseUrl(parameter, text);
    if (url.hostname.startsWith('[') || endsInNumber(url.hostname)) {
      fail(parameter, `the host of ${quote(text)} is an IP address; a domain name is expected`);
    }
    return { hostname: url.hostname, url };
  }
  if (/[/:?#@]/.test(text)) {
    fail(
      parameter,
      `${quote(text)} is neither a domain name nor a URL; write a URL with its scheme, e.g. "https://example.com/path"`,
    );
  }
  return { hostname: parseHostname(parameter, text), url: null };
}

/* ------------------------------------------------------- ports, selectors */

/** A TCP port: digits only (no sign, space, decimal point), 1–65535. */
export function parsePort(parameter: string, value: string): number {
  checkParameterText(parameter, value);
  if (!/^[0-9]+$/.test(value)) fail(parameter, `${quote(value)} is not a port number; digits only, 1–65535`);
  const port = Number(value);
  if (port < 1 || port > 65535) fail(parameter, `${quote(value)} is out of range; a port is 1–65535`);
  return port;
}

/**
 * A DKIM selector (RFC 6376 §3.1): one or more dot-separated labels of letters,
 * digits, hyphens and underscores, 1–63 characters each, at most 253 in all.
 * Case is kept (DNS compares names case-insensitively).
 */
export function parseSelector(parameter: string, value: string): string {
  const text = checkParameterText(parameter, value);
  if (text.length > MAX_NAME_LENGTH) {
    fail(parameter, `${quote(text)} is ${text.length} characters long; a selector has at most ${MAX_NAME_LENGTH}`);
  }
  for (const label of text.split('.')) {
    if (label === '')
      fail(parameter, `${quote(text)} has an empty label (a leading or trailing dot, or two dots in a row)`);
    if (label.length > MAX_LABEL_LENGTH) {
      fail(
        parameter,
        `label ${quote(label)} is ${label.length} characters; a DNS label has at most ${MAX_LABEL_LENGTH}`,
      );
    }
    const bad = /[^A-Za-z0-9_-]/.exec(label);
    if (bad)
      fail(
        parameter,
        `${quote(text)} contains ${quote(bad[0])}; a selector has only letters, digits, hyphens, underscores and dots`,
      );
  }
  return text;
}
