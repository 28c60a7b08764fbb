/**
 * website-health-check: the awaiting part. Every question goes through the check
 * context's loaders, so the composite costs what its parts cost once (decisions §9):
 * a GraphQL operation that also selects ssl-checker, port-checker, ping or
 * open-graph-checker for the same site shares their handshake, port tests, ping run and
 * fetch. What the answers mean is decided by rules.ts; the verdict by verdict.ts.
 *
 * Decisions documented here:
 * - Target: a domain, or an http(s) URL (validation's parseDomainOrUrl). targetUrl is
 *   the URL as given (normalised), or https://<domain>/ for a domain.
 * - The target's name is resolved and checked first (decisions §7). A refused target is
 *   a 400, a name without addresses a 400 (the guard's InputError), a resolver failure
 *   a 502/504: without an address no part can run.
 * - The parts then run concurrently, each bounded by WEBSITE_PART_BOUND_MS from the
 *   start; a part that fails or runs out of time is `error` with its reason, and the
 *   others still report. A bug (anything but the service's own error classes) is not a
 *   finding and fails the request.
 * - One fetch of targetUrl (redirects followed, the head of an HTML document read, for
 *   Cloudflare's challenge markers; the same fetch as open-graph-checker's) gives the
 *   http, redirects, security, protocol, compression and latency checks. It starts
 *   together with the target check, so its first hop's DNS time is the resolution's.
 *   When the target is a domain and https:// refuses the connection, http:// is
 *   fetched for those checks instead (httpsRefused): the site may well be up, and the
 *   missing HTTPS is reported by the ssl and ports checks. A URL is fetched as given.
 * - ssl: ssl-checker's handshake (same question: address, port, SNI, ALPN) on the
 *   target URL's port when it is https, else the HTTPS port; ports: port-checker's TCP
 *   test of the HTTP and HTTPS ports and of the target URL's own port.
 * - The checks connect to the first IPv4 address of the name, else its first IPv6 one
 *   (`ip`), like the single checks.
 * - The parts that are single checks (tls-rating and http-rating, docs/contract/grades.md
 *   "website-health-check"; …) join from their own folders (./parts.ts) and run beside these, within the
 *   same bound, each told the site (address, ssl port) the target check found. A part asks as its single
 *   check does, through the same loaders, so an operation selecting that check for the same site asks once.
 */
import { COMPOSITE_PART_BOUND_MS, createPartBound, type PartBound } from '../shared/part-bound.js';
import { ProbeError } from '../../../probes/errors.js';
import { bogusBrokenLink, describeBrokenLink } from '../../dns/dnssec-chain/broken-link.js';
import type { FetchResult } from '../../../probes/http/fetcher.js';
import { TlsProbeError } from '../../../probes/tls/prober.js';
import type { CheckContext } from '../../../loaders/context.js';
import { scoreSecurityHeaders } from '../../tls-http/http-headers/security-headers.js';
import { firstAddressPerFamily, MAIN_HANDSHAKE_ALPN } from '../../tls-http/shared/main-handshake.js';
import { runPortChecker } from '../../ip/port-checker/run.js';
import { runSslChecker } from '../../tls-http/ssl-checker/run.js';
import { isCloudflareChallenge } from './cloudflare.js';
import { verdictOf, type HealthCheckStatus, type Verdict } from '../shared/verdict.js';
import {
  WEBSITE_CHECK_IDS,
  WEBSITE_CHECK_LABELS,
  type Finding,
  type WebPorts,
  type WebsiteCheckId,
  type WebsiteDetailsById,
  type WebsitePartNotTested,
} from './details.js';
import {
  compressionFinding,
  dnsFinding,
  httpFinding,
  latencyFinding,
  locationFinding,
  notRunFinding,
  organizationFinding,
  pingFinding,
  portsFinding,
  protocolFinding,
  redirectLoopFindings,
  redirectsFinding,
  securityFinding,
  sslFailureFinding,
  sslFinding,
} from './rules.js';
import { couldNotRun, settleWithin } from '../shared/finding.js';
import type { JoinedPart } from '../shared/parts.js';
import { websiteParts, type WebsitePartSpec, type WebsiteSite } from './parts.js';

/**
 * Each part ends within this long after the check starts: 5 s of the composite bound
 * (decisions §8: 30 s) are left for the target check before the parts and the answer.
 */
export const WEBSITE_PART_BOUND_MS = COMPOSITE_PART_BOUND_MS;

export interface WebsiteHealthOptions {
  /** how long each part may run, from the start (default WEBSITE_PART_BOUND_MS) */
  partBoundMs?: number;
}

export interface WebsiteTarget {
  /** A-label, lower case, no trailing dot */
  hostname: string;
  /** the URL when the target was one; null for a domain */
  url: URL | null;
}

export interface WebsiteCheck<K extends WebsiteCheckId = WebsiteCheckId> {
  /** one of the composite's own ids, or a joined part's */
  id: K | (string & {});
  label: string;
  status: HealthCheckStatus;
  summary: string;
  /** why the check could not run (status `error`); null otherwise */
  error: string | null;
  /** an own check's details, or a joined part's: its check's data under its field, or WebsitePartNotTested */
  details: WebsiteDetailsById[K] | Record<string, unknown> | WebsitePartNotTested;
}

export interface WebsiteHealthResult {
  domain: string;
  targetUrl: string;
  /** the address the checks connected to */
  ip: string;
  verdict: Verdict;
  /** in api-v1.md's order: dns, location, organization, ping, latency, http, redirects, ssl, security, protocol, compression, ports; then the joined parts by their order (grades.md's tls-rating, http-rating, …) */
  checks: WebsiteCheck[];
}

type Outcome<K extends WebsiteCheckId> = Finding<WebsiteDetailsById[K]> & { error: string | null };
type Outcomes = { [K in WebsiteCheckId]?: Outcome<K> };
type Findings = { [K in WebsiteCheckId]?: Finding<WebsiteDetailsById[K]> };

/** The site fetch: what was fetched, and whether it is the http:// fallback. */
interface SiteFetch {
  result: FetchResult;
  httpsRefused: boolean;
}

export async function runWebsiteHealth(
  ctx: CheckContext,
  target: WebsiteTarget,
  options: WebsiteHealthOptions = {},
): Promise<WebsiteHealthResult> {
  const web = ctx.ports;
  const { hostname } = target;
  const targetUrl = target.url ?? siteUrl(hostname, 'https:', web.https);
  const fallbackUrl = target.url === null ? siteUrl(hostname, 'http:', web.http) : null;
  const bound = createPartBound(options.partBoundMs ?? WEBSITE_PART_BOUND_MS, hostname);
  const siteFetch = fetchSite(ctx, targetUrl, fallbackUrl);
  // The fetch is settled by its part; if the target check fails first, nobody awaits it.
  siteFetch.catch(() => {});
  const checked = await ctx.guard
    .check({ kind: 'hostname', hostname }, ctx.signal, 'target')
    .catch(async (e: unknown) => {
      throw await withBrokenLink(ctx, hostname, e);
    });
  const ip = firstAddressPerFamily(checked.addresses)[0]?.address;
  // The guard never returns an empty list (a name without addresses is its InputError).
  if (ip === undefined) throw new RangeError('the target guard returned no address');

  const sslPort = targetUrl.protocol === 'https:' ? portOf(targetUrl) : web.https;
  const site: WebsiteSite = { checks: ctx, hostname, url: target.url, targetUrl, ip, sslPort, bound };
  const joined = Promise.all(websiteParts.joined.map((part) => settleJoined(part, site)));
  const parts = await Promise.all([
    settlePart(['location', 'organization'], bound, () => ipFactsPart(ctx, ip)),
    settlePart(['ping'], bound, async () => ({ ping: pingFinding(ip, await ctx.ping({ ip, target: hostname })) })),
    settlePart(['latency', 'http', 'redirects', 'security', 'protocol', 'compression'], bound, () =>
      sitePart(siteFetch),
    ),
    settlePart(['ssl'], bound, () => sslPart(ctx, hostname, ip, sslPort)),
    settlePart(['ports'], bound, () => portsPart(ctx, hostname, web, target.url === null ? null : portOf(target.url))),
  ]);
  const outcomes: Outcomes = Object.assign({ dns: { ...dnsFinding(checked.addresses), error: null } }, ...parts);
  const checks: WebsiteCheck[] = [...WEBSITE_CHECK_IDS.map((id) => checkOf(id, outcomes)), ...(await joined)];
  return { domain: hostname, targetUrl: targetUrl.href, ip, verdict: verdictOf(checks), checks };
}

/**
 * A SERVFAIL from a validating resolver is often a bogus chain of trust: when dnssec-chain finds the
 * name bogus, the error names the link that breaks (the check cannot run without an address).
 */
async function withBrokenLink(ctx: CheckContext, hostname: string, e: unknown): Promise<unknown> {
  if (!(e instanceof ProbeError) || e.kind !== 'SERVFAIL') return e;
  const link = await bogusBrokenLink(ctx, hostname, 'A');
  return link === null
    ? e
    : new ProbeError('SERVFAIL', e.upstream, `${e.message}; DNSSEC: ${describeBrokenLink(link)}`, { cause: e });
}

function checkOf<K extends WebsiteCheckId>(id: K, outcomes: Outcomes): WebsiteCheck<K> {
  const outcome = outcomes[id] as Outcome<K> | undefined;
  // Every part reports each of its ids, or fails as a whole (settlePart): a gap is a bug.
  if (outcome === undefined) throw new RangeError(`website-health-check: no outcome for the ${id} check`);
  return {
    id,
    label: WEBSITE_CHECK_LABELS[id],
    status: outcome.status,
    summary: outcome.summary,
    error: outcome.error,
    details: outcome.details,
  };
}

/** https://<name>/ or http://<name>/, with the port when it is not the scheme's default. */
export function siteUrl(hostname: string, scheme: 'https:' | 'http:', port: number): URL {
  const url = new URL(`${scheme}//${hostname}/`);
  url.port = String(port); // the URL setter drops the scheme's default port itself
  return url;
}

function portOf(url: URL): number {
  if (url.port !== '') return Number(url.port);
  return url.protocol === 'https:' ? 443 : 80;
}

/* ------------------------------------------------------------------ parts */

async function fetchSite(ctx: CheckContext, url: URL, fallback: URL | null): Promise<SiteFetch> {
  try {
    return { result: await ctx.fetch(url, { readBody: 'head' }), httpsRefused: false };
  } catch (e) {
    // Only the target's own https port refusing counts, not a later redirect hop's.
    const refusedHere =
      e instanceof ProbeError && e.kind === 'REFUSED' && e.upstream === `${url.hostname}:${portOf(url)}`;
    if (fallback === null || !refusedHere) throw e;
    return { result: await ctx.fetch(fallback, { readBody: 'head' }), httpsRefused: true };
  }
}

/**
 * One look-up for location and organization. An address that only `targets.allow` admits
 * (a private range an operator opened) is looked up like any other: the data has nothing
 * for it, which the rules report as info.
 */
async function ipFactsPart(ctx: CheckContext, ip: string): Promise<Findings> {
  const facts = await ctx.ipFacts(ip);
  return { location: locationFinding(ip, facts), organization: organizationFinding(ip, facts) };
}

async function sitePart(siteFetch: Promise<SiteFetch>): Promise<Findings> {
  let site: SiteFetch;
  try {
    site = await siteFetch;
  } catch (e) {
    // The fetcher's one HTTP_STATUS failure is a redirect loop: a finding about the site.
    if (!(e instanceof ProbeError) || e.kind !== 'HTTP_STATUS') throw e;
    const loop = redirectLoopFindings(e.message);
    const reason = `no page to measure: ${e.message}`;
    return {
      ...loop,
      latency: notRunFinding('latency', reason),
      security: notRunFinding('security', reason),
      protocol: notRunFinding('protocol', reason),
      compression: notRunFinding('compression', reason),
    };
  }
  const { result, httpsRefused } = site;
  const { final } = result;
  const first = result.hops[0] ?? final;
  return {
    latency: latencyFinding(first.url, first.timing),
    http: httpFinding({
      url: result.requestedUrl,
      finalUrl: result.finalUrl,
      statusCode: final.statusCode,
      statusText: final.statusText,
      cloudflareBlocked: isCloudflareChallenge(final.statusCode, final.headers, result.body),
      httpsRefused,
      redirectLimitReached: result.redirectLimitReached,
      redirectNotFollowed: result.redirectNotFollowed,
    }),
    redirects: redirectsFinding(result.hops, result.finalUrl, {
      redirectLimitReached: result.redirectLimitReached,
      redirectNotFollowed: result.redirectNotFollowed !== null,
    }),
    security: securityFinding(scoreSecurityHeaders(final.headers, result.finalUrl)),
    protocol: protocolFinding(result.httpVersion, result.finalUrl),
    compression: compressionFinding(final.statusCode, final.headers),
  };
}

async function sslPart(ctx: CheckContext, domain: string, ip: string, port: number): Promise<Findings> {
  try {
    // ssl-checker's handshake, asked twice of the loader (once for the certificate verdict,
    // once for the negotiated version): one handshake.
    const [certificate, handshake] = await Promise.all([
      runSslChecker(ctx, { domain, port }),
      ctx.tlsHandshake({ ip, port, servername: domain, alpn: MAIN_HANDSHAKE_ALPN, target: domain }),
    ]);
    return {
      ssl: sslFinding({
        domain,
        port,
        certificateStatus: certificate.status,
        validFrom: certificate.validFrom,
        expiryDate: certificate.expiryDate,
        daysRemaining: certificate.daysRemaining,
        tlsVersion: handshake.protocol,
        now: ctx.now(),
      }),
    };
  } catch (e) {
    if (e instanceof ProbeError && e.kind !== 'ABORTED') {
      const finding = sslFailureFinding(
        { kind: e.kind, reason: e instanceof TlsProbeError ? e.reason : null, message: e.message },
        port,
      );
      if (finding !== null) return { ssl: finding };
    }
    throw e;
  }
}

async function portsPart(
  ctx: CheckContext,
  hostname: string,
  web: WebPorts,
  urlPort: number | null,
): Promise<Findings> {
  const ports = [...new Set([web.http, web.https, ...(urlPort === null ? [] : [urlPort])])];
  const results = await Promise.all(
    ports.map((port) => runPortChecker(ctx, { host: { kind: 'hostname', hostname }, port })),
  );
  const entries = results.map((r) => ({ port: r.port, protocol: 'tcp' as const, status: r.status }));
  return { ports: portsFinding(entries, web, urlPort) };
}

/* ------------------------------------------------------------------ bounds and failures */

/**
 * A joined part's check: its finding on its check's data, or — when it fails with one of the service's
 * errors or outlives the bound — `error` with the reason and WebsitePartNotTested details.
 */
async function settleJoined(part: JoinedPart<WebsitePartSpec>, site: WebsiteSite): Promise<WebsiteCheck> {
  const { id, label } = part.spec;
  const notTested: WebsitePartNotTested = { tested: false, reason: 'could-not-run' };
  const finding = await settleWithin<Finding<unknown>>(site.bound, part.spec.run(site), (e) =>
    couldNotRun(e.message, notTested, 'check that the site is reachable from the internet'),
  );
  return {
    id,
    label,
    status: finding.status,
    summary: finding.summary,
    error: finding.error ?? null,
    details: finding.details === notTested ? notTested : { [part.field]: finding.details },
  };
}

/**
 * A part's findings, or — when it fails with one of the service's errors (an upstream
 * failure, a time-out, a refused redirect hop) — each of its checks as `error` with the
 * reason. Anything else is a bug and fails the request.
 */
async function settlePart(
  ids: readonly WebsiteCheckId[],
  bound: PartBound,
  work: () => Promise<Findings>,
): Promise<Outcomes> {
  const findings = await settleWithin(bound, work(), (e) =>
    Object.fromEntries(ids.map((id) => [id, notRunFinding(id, e.message)])),
  );
  const outcomes: Outcomes = {};
  for (const id of ids) {
    const finding = (findings as Findings)[id];
    if (finding !== undefined) Object.assign(outcomes, { [id]: { ...finding, error: finding.error ?? null } });
  }
  return outcomes;
}
