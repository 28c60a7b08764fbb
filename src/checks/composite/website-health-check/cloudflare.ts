/**
 * Whether Cloudflare answered with a challenge or block page instead of the site, so
 * that website-health-check can say its HTTP findings describe that page, not the site.
 * Pure: no I/O.
 *
 * Cloudflare documents `cf-mitigated: challenge` on every challenge response
 * (developers.cloudflare.com, "Detect a Challenge Page response"). Block pages of its
 * WAF and older challenge pages carry no such field; they are recognised by the status
 * (403 or 503), a Cloudflare edge (`server: cloudflare` or a `cf-ray` field) and one of
 * the page's fixed markers in the document head.
 */
import type { HeaderMap } from '../../../probes/http/header-fields.js';

/** The statuses Cloudflare's challenge and block pages answer with. */
export const CLOUDFLARE_CHALLENGE_STATUSES: ReadonlySet<number> = new Set([403, 503]);

/** Fixed text of Cloudflare's interstitial pages, lower-case (titles, script paths, option names). */
export const CLOUDFLARE_PAGE_MARKERS: readonly string[] = [
  '<title>just a moment...</title>',
  'attention required! | cloudflare',
  '/cdn-cgi/challenge-platform/',
  '_cf_chl_opt',
  'cf-browser-verification',
];

export function isCloudflareEdge(headers: HeaderMap): boolean {
  return (headers.server ?? '').trim().toLowerCase() === 'cloudflare' || headers['cf-ray'] !== undefined;
}

/** `body`: the decoded start of the final response's document (its head), or null when it was not read. */
export function isCloudflareChallenge(statusCode: number, headers: HeaderMap, body: Buffer | null): boolean {
  if (!CLOUDFLARE_CHALLENGE_STATUSES.has(statusCode)) return false;
  const mitigated = (headers['cf-mitigated'] ?? '')
    .toLowerCase()
    .split(',')
    .map((v) => v.trim());
  if (mitigated.includes('challenge')) return true;
  if (!isCloudflareEdge(headers) || body === null) return false;
  const text = body.toString('latin1').toLowerCase();
  return CLOUDFLARE_PAGE_MARKERS.some((marker) => text.includes(marker));
}
