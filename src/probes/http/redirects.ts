/**
 * Redirect rules of the guarded fetcher and of http-headers' redirectChain
 * (decisions §5). Only the statuses RFC 9110 §15.4 defines as redirecting to the
 * Location target are followed; 300 (a choice for the user) and 304 (not a redirect)
 * are final answers.
 */
export const REDIRECT_STATUSES: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);

export function isRedirectStatus(statusCode: number): boolean {
  return REDIRECT_STATUSES.has(statusCode);
}

export type RedirectDecision =
  | { kind: 'final' } // not a redirect status, or no Location
  | { kind: 'follow'; url: URL }
  /** a Location we will not follow: not http(s) (mailto:, ftp:, javascript:, …) */
  | { kind: 'unsupported-scheme'; location: string }
  /** a Location that is not a URL even relative to the response's URL */
  | { kind: 'invalid-location'; location: string };

/**
 * What to do with a response: a relative Location is resolved against the URL that
 * answered (RFC 9110 §10.2.2), and the target must be http or https.
 */
export function decideRedirect(responseUrl: URL, statusCode: number, location: string | null): RedirectDecision {
  if (!isRedirectStatus(statusCode) || location === null || location.trim() === '') return { kind: 'final' };
  let target: URL;
  try {
    target = new URL(location.trim(), responseUrl);
  } catch {
    return { kind: 'invalid-location', location };
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:') return { kind: 'unsupported-scheme', location };
  if (target.hostname === '') return { kind: 'invalid-location', location };
  return { kind: 'follow', url: target };
}

/** The resolved Location for reporting: absolute when it resolves, else as sent. */
export function resolvedLocation(responseUrl: URL, location: string | null): string | null {
  if (location === null) return null;
  try {
    return new URL(location.trim(), responseUrl).href;
  } catch {
    return location;
  }
}

/**
 * The identity of a request for loop detection: the URL without its fragment, which
 * is never sent (RFC 9110 §4.2.5), in WHATWG-normalised form.
 */
export function requestKey(url: URL): string {
  const copy = new URL(url.href);
  copy.hash = '';
  return copy.href;
}

/**
 * decisions §5: every URL that answered with a redirect (a redirect status with a
 * Location), in order. The first hop is the requested URL, so a non-empty chain starts
 * with it; without redirects the chain is empty.
 */
export function redirectChainOf(
  hops: readonly { url: string; statusCode: number; location: string | null }[],
): string[] {
  return hops.filter((h) => isRedirectStatus(h.statusCode) && h.location !== null).map((h) => h.url);
}
