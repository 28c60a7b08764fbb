/**
 * http-headers: its object types; the check is ./check.ts.
 */
import type { HttpHeadersResult } from './run.js';
import { builder } from '../../../graphql/builder.js';
import type { SecurityHeaderScore } from './security-headers.js';
import type { RedirectNotFollowed } from './run.js';
export const SecurityHeaders = builder.objectRef<SecurityHeaderScore>('SecurityHeaders').implement({
  description:
    'Coverage of five security headers: strict-transport-security, x-frame-options, x-content-type-options, referrer-policy, content-security-policy. A header counts as present when the final response carries it with a non-empty value; strict-transport-security counts only when the final URL is https (browsers ignore it over plain HTTP, RFC 6797 §8.1).',
  fields: (t) => ({
    score: t.exposeInt('score', { description: 'How many of the five are present.' }),
    total: t.exposeInt('total', { description: 'Always 5.' }),
    present: t.exposeStringList('present', { description: 'Lower-case names, in the order above.' }),
    missing: t.exposeStringList('missing', { description: 'Lower-case names, in the order above.' }),
  }),
});

export const RedirectNotFollowedRef = builder.objectRef<RedirectNotFollowed>('RedirectNotFollowed').implement({
  description: 'A redirect that was not followed because its Location cannot be fetched.',
  fields: (t) => ({
    reason: t.exposeString('reason', {
      description:
        '"unsupported-scheme" (not http or https: mailto:, ftp:, …) or "invalid-location" (not a URL, even relative to the response\'s URL).',
    }),
    location: t.exposeString('location', { description: 'The Location header as sent.' }),
  }),
});

export const HttpHeaders = builder.objectRef<HttpHeadersResult>('HttpHeaders').implement({
  fields: (t) => ({
    requestedUrl: t.exposeString('requestedUrl', { description: 'The URL as requested, normalised (WHATWG URL).' }),
    statusCode: t.exposeInt('statusCode', { description: 'Status of the final response.' }),
    statusText: t.exposeString('statusText', {
      description: 'Its reason phrase; over HTTP/2 (which has none) the standard phrase of the code.',
    }),
    responseTime: t.exposeFloat('responseTime', {
      description:
        "Milliseconds from the start (first target check) to the final response's headers, redirects included.",
    }),
    finalUrl: t.exposeString('finalUrl', { description: 'The URL of the final response.' }),
    redirectChain: t.exposeStringList('redirectChain', {
      description:
        'Every URL that answered with a redirect (301, 302, 303, 307 or 308 with a Location), in order, starting with requestedUrl; empty without redirects. At most http.maxRedirects redirects are followed: when that limit is used up the last entry is the redirect that was not followed (redirectLimitReached). Each hop is checked against the target rules. A redirect back to a URL already requested is a loop: an error (502).',
    }),
    headers: t.field({
      type: 'JSON',
      description:
        'Every header of the final response: lower-case name → value. Repeated fields are joined with ", " (RFC 9110 §5.3), set-cookie lines with "\\n" (their values contain commas).',
      resolve: (r) => r.headers,
    }),
    security: t.field({ type: SecurityHeaders, resolve: (r) => r.security }),
    httpVersion: t.exposeString('httpVersion', {
      description: '"1.1" or "2" (HTTP/2 is offered through ALPN over https).',
    }),
    redirectLimitReached: t.exposeBoolean('redirectLimitReached', {
      description:
        'The final response is a redirect that was not followed because http.maxRedirects redirects were already followed.',
    }),
    redirectNotFollowed: t.field({
      type: RedirectNotFollowedRef,
      nullable: true,
      description: 'The final response is a redirect whose Location cannot be fetched, and why; null otherwise.',
      resolve: (r) => r.redirectNotFollowed,
    }),
    tlsError: t.exposeString('tlsError', {
      nullable: true,
      description:
        "The certificate problem of the final https connection (OpenSSL's code, e.g. CERT_HAS_EXPIRED, or ERR_TLS_CERT_ALTNAME_INVALID); the headers are reported anyway. Null when trusted or over http.",
    }),
  }),
});
