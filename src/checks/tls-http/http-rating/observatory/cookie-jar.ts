/**
 * The cookies a client keeps from a session's Set-Cookie lines, as the jar behind the Observatory's
 * retriever keeps them (tough-cookie 5, CookieJar defaults, `setCookie(line, responseUrl, { ignoreError })`):
 * - parsing (RFC 6265 §5.2): the name-value pair is cut at CR, LF or NUL; it needs a non-empty name before
 *   "=", and no control character; attributes are case-insensitive, the last one of a name wins; SameSite
 *   is strict, lax or none, any other value none at all;
 * - storing (§5.3): a Domain attribute that is a public suffix (tldts, private domains included; the special
 *   use names of RFC 6761 are allowed) or does not domain-match the response's host is ignored, and so is
 *   the cookie; without one the cookie is host-only; a missing or relative Path becomes the default path;
 *   the prefixes __Secure- (needs Secure) and __Host- (Secure, host-only, Path "/") are enforced
 *   (RFC 6265bis §4.1.3); a cookie with the name, domain and path of a kept one replaces it.
 * Expiry is not looked at: an expired cookie is kept and judged like the others, as the package's
 * `serializeSync` lists it.
 */
import net from 'node:net';
import { domainToASCII } from 'node:url';
import { getDomain } from 'tldts';

export interface JarCookie {
  name: string;
  domain: string;
  path: string;
  hostOnly: boolean;
  secure: boolean;
  httpOnly: boolean;
  /** the SameSite attribute as parsed; null when absent or not one of the three values */
  sameSite: 'strict' | 'lax' | 'none' | null;
}

interface ParsedCookie {
  name: string;
  domain: string | null;
  path: string | null;
  secure: boolean;
  httpOnly: boolean;
  sameSite: JarCookie['sameSite'];
}

const CONTROL_CHARACTERS = /[\x00-\x1F]/;
const SPECIAL_USE_TLDS = ['local', 'example', 'invalid', 'localhost', 'test'];
const SINGLE_LABEL_SPECIAL_USE = ['localhost', 'invalid'];

export function parseSetCookie(line: string): ParsedCookie | null {
  const text = line.trim();
  if (text === '') return null;
  const firstSemicolon = text.indexOf(';');
  let pair = firstSemicolon === -1 ? text : text.slice(0, firstSemicolon);
  for (const terminator of ['\n', '\r', '\0']) {
    const at = pair.indexOf(terminator);
    if (at !== -1) pair = pair.slice(0, at);
  }
  const equals = pair.indexOf('=');
  if (equals <= 0) return null;
  const name = pair.slice(0, equals).trim();
  const value = pair.slice(equals + 1).trim();
  if (CONTROL_CHARACTERS.test(name) || CONTROL_CHARACTERS.test(value)) return null;
  const cookie: ParsedCookie = { name, domain: null, path: null, secure: false, httpOnly: false, sameSite: null };
  if (firstSemicolon === -1) return cookie;
  for (const rawAttribute of text.slice(firstSemicolon + 1).split(';')) {
    const attribute = rawAttribute.trim();
    if (attribute === '') continue;
    const separator = attribute.indexOf('=');
    const key = (separator === -1 ? attribute : attribute.slice(0, separator)).trim().toLowerCase();
    const attributeValue = separator === -1 ? null : attribute.slice(separator + 1).trim();
    switch (key) {
      case 'domain': {
        const domain = attributeValue ? attributeValue.trim().replace(/^\./, '') : '';
        if (domain) cookie.domain = domain.toLowerCase();
        break;
      }
      case 'path':
        cookie.path = attributeValue && attributeValue[0] === '/' ? attributeValue : null;
        break;
      case 'secure':
        cookie.secure = true;
        break;
      case 'httponly':
        cookie.httpOnly = true;
        break;
      case 'samesite': {
        const sameSite = (attributeValue ?? '').toLowerCase();
        cookie.sameSite = sameSite === 'strict' || sameSite === 'lax' || sameSite === 'none' ? sameSite : null;
        break;
      }
    }
  }
  return cookie;
}

/** tough-cookie's canonicalDomain: the leading dot dropped, lower case, IDNs as A-labels. */
function canonicalDomain(name: string): string {
  const text = name.trim().replace(/^\./, '');
  if (net.isIPv6(text.replace(/^\[|\]$/g, ''))) return text.replace(/^\[|\]$/g, '').toLowerCase();
  // any character beyond ASCII makes it an IDN
  if (/[^\u0001-\u007f]/.test(text)) return domainToASCII(text);
  return text.toLowerCase();
}

/** A Domain attribute a cookie may be set for: not a public suffix (tough-cookie's getPublicSuffix). */
function isSettableDomain(domain: string): boolean {
  const labels = domain.split('.');
  const tld = labels.at(-1)!;
  if (SPECIAL_USE_TLDS.includes(tld) && (labels.length > 1 || SINGLE_LABEL_SPECIAL_USE.includes(tld))) return true;
  if (getDomain(domain, { allowIcannDomains: true, allowPrivateDomains: true })) return true;
  return net.isIPv6(domain);
}

/** RFC 6265 §5.1.3. */
function domainMatches(host: string, domain: string): boolean {
  if (host === domain) return true;
  const at = host.lastIndexOf(domain);
  if (at <= 0) return false;
  return host.length === domain.length + at && host[at - 1] === '.' && net.isIP(host) === 0;
}

/** RFC 6265 §5.1.4: the request path up to, not including, its last "/"; "/" when that leaves nothing. */
function defaultPath(pathname: string): string {
  if (!pathname.startsWith('/')) return '/';
  const last = pathname.lastIndexOf('/');
  return last === 0 ? '/' : pathname.slice(0, last);
}

export class CookieJar {
  private readonly cookies = new Map<string, JarCookie>();

  /** Stores one Set-Cookie line received from `responseUrl`; a line the rules above refuse is ignored. */
  set(line: string, responseUrl: string): void {
    const parsed = parseSetCookie(line);
    if (parsed === null) return;
    const url = new URL(responseUrl);
    const host = canonicalDomain(url.hostname);
    let domain = host;
    let hostOnly = true;
    if (parsed.domain !== null) {
      const cookieDomain = canonicalDomain(parsed.domain);
      if (!isSettableDomain(cookieDomain)) return;
      if (!domainMatches(host, cookieDomain)) return;
      domain = cookieDomain;
      hostOnly = false;
    }
    const path = parsed.path ?? defaultPath(url.pathname);
    if (parsed.name.startsWith('__Secure-') && !parsed.secure) return;
    if (parsed.name.startsWith('__Host-') && !(parsed.secure && hostOnly && path === '/')) return;
    const cookie: JarCookie = {
      name: parsed.name,
      domain,
      path,
      hostOnly,
      secure: parsed.secure,
      httpOnly: parsed.httpOnly,
      sameSite: parsed.sameSite,
    };
    const key = `${domain}\u0000${path}\u0000${parsed.name}`;
    // a replacement keeps its place, as a store keyed by domain, path and name does
    this.cookies.set(key, cookie);
  }

  all(): JarCookie[] {
    return [...this.cookies.values()];
  }
}
