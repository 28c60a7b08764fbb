/**
 * The request target of an HTTP/1.1 request line, read as RFC 9112 §3.2 says. A server must accept the
 * absolute form (`GET http://example.test/healthz HTTP/1.1`, §3.2.2) although clients send it to proxies;
 * node:http leaves it in `req.url` as sent, where the fetch adapter and the primary's own answers read a
 * path (`//example.test/healthz`, a 404). This rewrites it to the origin form (`/healthz`) before anything
 * reads the request, and takes the host from it: §3.2.2 has the target's authority replace a Host header
 * field.
 */
import type { IncomingHttpHeaders } from 'node:http';

/** An absolute-form target: a scheme, then `//` (RFC 9112 §3.2.2, RFC 3986 §3). */
const ABSOLUTE_FORM = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//;

/**
 * Rewrites `request.url` from the absolute form to the origin form, and its Host header to the target's
 * authority; leaves every other form (origin, asterisk, a target that is no URL) as it is.
 */
export function toOriginForm(request: { url?: string | undefined; headers: IncomingHttpHeaders }): void {
  const target = request.url;
  if (target === undefined || !ABSOLUTE_FORM.test(target)) return;
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    return;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return;
  request.url = `${url.pathname}${url.search}`;
  if (url.host !== '') request.headers.host = url.host;
}
