/**
 * http-rating: the awaiting part (docs/contract/grades.md "http-rating — `url` (http or https; a bare host
 * means `https://host/`)"). Three guarded fetches run concurrently through the check context's loaders (every
 * hop checked by the target guard): the session from https://host/ (redirects followed, an HTML body read whole
 * up to http.maxBodyBytes for subresource-integrity and the metas), the session from http://host/ (redirects
 * followed, no body), and a CORS preflight of https://host/ (OPTIONS with Origin, as the Observatory's
 * retriever sends it; redirects followed to the same place the https session ends). When https gives no answer
 * the http session is graded, as the Observatory grades it, and its final URL is preflighted then.
 *
 * Decisions documented here:
 * - Target: a domain (https://<domain>/), or an http(s) URL: its host, and its path and query for both
 *   sessions (the package's `path` option); the URL's own port for its own scheme, the protocol's port for
 *   the other (CheckContext.ports: 443 and 80).
 * - A session that fails for a reason of the site (refused, reset, time-out, no TLS, a redirect loop) is "no
 *   answer", reported in httpsError / httpError; when neither answers the check fails with the https
 *   session's error: a refused target 400, a time-out 504, the rest 502.
 * - The preflight's Origin is an origin no site can be (RFC 2606 .invalid), so that an allow-list never
 *   matches it and only a server that echoes any origin is seen echoing it.
 */
import { NetdiagError } from '../../../errors.js';
import type { CheckContext } from '../../../loaders/context.js';
import type { FetchResult } from '../../../probes/http/fetcher.js';
import { hstsPreloadList } from './observatory/hsts-preload.js';
import { type HttpRatingResult, httpRating, type SessionFetch } from './rating.js';

export const CORS_PREFLIGHT_ORIGIN = 'https://http-rating.netdiag.invalid';

export interface HttpRatingTarget {
  hostname: string;
  /** the URL when the target was one; null for a domain */
  url: URL | null;
}

/** The two sessions' first URLs. */
export function sessionUrls(
  target: HttpRatingTarget,
  ports: { http: number; https: number },
): { https: URL; http: URL } {
  const make = (scheme: 'https:' | 'http:'): URL => {
    const given = target.url;
    const url = new URL(`${scheme}//${target.hostname}/`);
    if (given !== null && given.protocol === scheme) return new URL(given.href);
    url.port = String(scheme === 'https:' ? ports.https : ports.http); // the setter drops a default port
    if (given !== null) {
      url.pathname = given.pathname;
      url.search = given.search;
    }
    return url;
  };
  return { https: make('https:'), http: make('http:') };
}

/** A session's fetch, with the error itself when it failed (to fail the check with when nothing answered). */
type Settled = Extract<SessionFetch, { ok: true }> | (Extract<SessionFetch, { ok: false }> & { error: NetdiagError });

/** A failed session is a finding unless the failure is a bug (not one of the service's error classes). */
async function settle(fetch: Promise<FetchResult>): Promise<Settled> {
  try {
    return { ok: true, result: await fetch };
  } catch (e) {
    if (!(e instanceof NetdiagError)) throw e;
    return { ok: false, reason: e.message, error: e };
  }
}

async function preflight(ctx: CheckContext, url: URL): Promise<{ origin: string; result: FetchResult } | null> {
  const outcome = await settle(ctx.preflight(url, CORS_PREFLIGHT_ORIGIN));
  return outcome.ok ? { origin: CORS_PREFLIGHT_ORIGIN, result: outcome.result } : null;
}

export async function runHttpRating(ctx: CheckContext, target: HttpRatingTarget): Promise<HttpRatingResult> {
  const urls = sessionUrls(target, ctx.ports);
  const [https, http, httpsCors] = await Promise.all([
    settle(ctx.fetch(urls.https, { readBody: 'document' })),
    settle(ctx.fetch(urls.http, { readBody: false })),
    preflight(ctx, urls.https),
  ]);
  if (!https.ok && !http.ok) throw https.error;
  const cors = https.ok ? httpsCors : http.ok ? await preflight(ctx, new URL(http.result.finalUrl)) : null;
  return httpRating({ hostname: target.hostname, https, http, cors }, hstsPreloadList(ctx.config.http.hstsPreloadList));
}
