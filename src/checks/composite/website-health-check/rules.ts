/**
 * website-health-check: the rule of each check — what was measured → status, a
 * one-sentence summary (what was found and, when not ok, what to do) and its details
 * (api-v1.md). Pure: no I/O; every threshold is a named constant below, and the table of
 * rules in docs/tools/notes/website-health-check.md is written from this file.
 *
 * Status meanings (decisions §4): ok; info (worth knowing, nothing to fix); warning
 * (should be fixed); critical (visitors are affected now, or soon: fix first); error
 * (the check could not run — its summary says why; made by `notRunFinding`).
 */
import type { HopTiming } from '../../../probes/http/fetcher.js';
import type { ProbeErrorKind } from '../../../probes/errors.js';
import type { HeaderMap } from '../../../probes/http/header-fields.js';
import { isRedirectStatus } from '../../../probes/http/redirects.js';
import { mediaTypeOf } from '../../../probes/http/content-type.js';
import type { SecurityHeaderScore } from '../../tls-http/http-headers/security-headers.js';
import type { SslStatus } from '../../tls-http/shared/certificate.js';
import type { PingStatistics } from '../../../probes/ping/parse.js';
import { listInProse, plural, type HealthCheckStatus } from '../shared/verdict.js';
import {
  detailsNotMeasured,
  type DnsDetails,
  type Finding,
  type CompressionDetails,
  type HttpDetails,
  type LatencyBreakdown,
  type LatencyDetails,
  type LocationDetails,
  type OrganizationDetails,
  type PingDetails,
  type PortEntry,
  type PortsDetails,
  type ProtocolDetails,
  type RedirectHop,
  type RedirectsDetails,
  type SecurityDetails,
  type SslDetails,
  type WebPorts,
  type WebsiteCheckId,
  type WebsiteDetailsById,
} from './details.js';
import { couldNotRun, withoutFinalStop } from '../shared/finding.js';

/* ------------------------------------------------------------------ thresholds */

/** Certificate: warning with fewer than this many days left AND under SSL_WARNING_PERCENT of its validity period left. */
export const SSL_WARNING_DAYS = 30;
export const SSL_WARNING_PERCENT = 25;
/** Certificate: critical with fewer than this many days left AND under SSL_CRITICAL_PERCENT of its validity period left. */
export const SSL_CRITICAL_DAYS = 7;
export const SSL_CRITICAL_PERCENT = 10;
/** The TLS version a server should negotiate (RFC 8446); an older negotiated version is a warning. */
export const CURRENT_TLS_VERSION = 'TLSv1.3';
/** Latency: the first response's headers later than this are a warning (web.dev "good" TTFB bound, 0.8 s). */
export const LATENCY_WARNING_MS = 800;
/** Latency: later than this is critical (web.dev "poor" TTFB bound, 1.8 s). */
export const LATENCY_CRITICAL_MS = 1800;
/** Ping: packet loss of at least this much (but not all) is a warning; less is info; 100 % is info (ICMP filtered). */
export const PING_LOSS_WARNING_PERCENT = 50;
/** Security headers: this many or more of the five missing is a warning; one missing is info. */
export const SECURITY_HEADERS_MISSING_WARNING = 2;
/** Redirects: this many or more before the page is a warning (each costs visitors a round trip). */
export const REDIRECTS_WARNING_COUNT = 3;
/** Compression: an uncompressed response smaller than this (by Content-Length) gains too little to matter. */
export const COMPRESSION_MIN_BYTES = 1024;

/** A check that could not run (decisions §4 `error`): the reason, and what to do. */
export function notRunFinding<K extends WebsiteCheckId>(id: K, reason: string): Finding<WebsiteDetailsById[K]> {
  return couldNotRun(reason, detailsNotMeasured(id), 'check that the site is reachable from the internet');
}

/* ------------------------------------------------------------------ dns */

export function dnsFinding(addresses: readonly { address: string; family: 4 | 6 }[]): Finding<DnsDetails> {
  const ipv4 = addresses.filter((a) => a.family === 4).map((a) => a.address);
  const ipv6 = addresses.filter((a) => a.family === 6).map((a) => a.address);
  const ip = ipv4[0] ?? ipv6[0] ?? null;
  const details = { ip, ipv4, ipv6 };
  const counted = `${plural(ipv4.length, 'IPv4 address', 'IPv4 addresses')} and ${plural(ipv6.length, 'IPv6 address', 'IPv6 addresses')}`;
  if (ipv4.length > 0 && ipv6.length > 0) return { status: 'ok', summary: `The name resolves to ${counted}.`, details };
  if (ipv4.length > 0) {
    return {
      status: 'info',
      summary: `The name resolves to ${plural(ipv4.length, 'IPv4 address', 'IPv4 addresses')} and no IPv6 address; add an AAAA record so that IPv6-only networks reach the site directly.`,
      details,
    };
  }
  return {
    status: 'warning',
    summary: `The name resolves to ${plural(ipv6.length, 'IPv6 address', 'IPv6 addresses')} only; add an A record, as many visitors still reach the web over IPv4 only.`,
    details,
  };
}

/* ------------------------------------------------------------------ location, organization */

export function locationFinding(ip: string, facts: { countryCode: string; country: string }): Finding<LocationDetails> {
  if (facts.countryCode === '') {
    return {
      status: 'info',
      summary: `No location is known for ${ip} (no IP data covers it); nothing to do.`,
      details: { countryCode: null, country: null },
    };
  }
  const name = facts.country === '' ? facts.countryCode : `${facts.country} (${facts.countryCode})`;
  return {
    status: 'ok',
    summary: `The server at ${ip} is located in ${name}.`,
    details: { countryCode: facts.countryCode, country: facts.country || null },
  };
}

/**
 * orgDomain is the AS's web domain where the IP data carries one (IPinfo sources), and
 * null otherwise: AS names are registry handles ("GOOGLE", "CLOUDFLARENET"), so a domain
 * guessed from them would be wrong more often than right.
 */
export function organizationFinding(
  ip: string,
  facts: { asn: string; asName: string; asDomain: string },
): Finding<OrganizationDetails> {
  const details = { orgDomain: facts.asDomain || null, asn: facts.asn || null, asName: facts.asName || null };
  if (facts.asn === '') {
    return {
      status: 'info',
      summary: `No network operator is known for ${ip} (no AS announces it in the IP data); nothing to do.`,
      details,
    };
  }
  const who = [facts.asName, facts.asn, facts.asDomain].filter((s) => s !== '');
  const [first, ...rest] = who;
  return {
    status: 'ok',
    summary: `The server's network is ${first}${rest.length > 0 ? ` (${rest.join(', ')})` : ''}.`,
    details,
  };
}

/* ------------------------------------------------------------------ ping */

export function pingFinding(ip: string, stats: PingStatistics): Finding<PingDetails> {
  const details = {
    avgRoundTripMs: stats.average,
    packetLossPercent: stats.lossPercent,
    sent: stats.sent,
    received: stats.received,
  };
  if (stats.received === 0) {
    return {
      status: 'info',
      summary: `${ip} answered none of ${plural(stats.sent, 'ping', 'pings')}: the host or a firewall drops ICMP echo, which is common and harmless when the site answers over HTTP.`,
      details,
    };
  }
  const replies = `${stats.received} of ${stats.sent} pings answered, ${stats.average ?? 0} ms on average`;
  if (stats.lossPercent === 0) return { status: 'ok', summary: `${replies}.`, details };
  if (stats.lossPercent >= PING_LOSS_WARNING_PERCENT) {
    return {
      status: 'warning',
      summary: `${replies}: ${stats.lossPercent}% packet loss; look for congestion on the path or an overloaded host.`,
      details,
    };
  }
  return {
    status: 'info',
    summary: `${replies}: ${stats.lossPercent}% packet loss, which can be chance with so few pings; watch it if it recurs.`,
    details,
  };
}

/* ------------------------------------------------------------------ latency */

const PHASE_ADVICE: Readonly<Record<'dnsMs' | 'tcpMs' | 'tlsMs' | 'remainingMs', { name: string; advice: string }>> = {
  dnsMs: { name: 'DNS resolution', advice: 'use a faster DNS provider or longer TTLs' },
  tcpMs: { name: 'the TCP connection', advice: 'serve visitors from closer (a CDN) or a better-connected host' },
  tlsMs: { name: 'the TLS handshake', advice: 'enable TLS 1.3 and serve visitors from closer (a CDN)' },
  remainingMs: { name: 'the server preparing its answer', advice: 'speed up the server (caching, a lighter page)' },
};

/**
 * One fresh connection, the fetch's first hop: dnsMs the resolution (a name answered
 * from this service's DNS cache counts as next to nothing), tcpMs the connect, tlsMs the handshake (0
 * over http), remainingMs from sending the request to the response headers; totalMs
 * their sum.
 */
export function latencyBreakdown(timing: HopTiming): LatencyBreakdown {
  const round = (ms: number) => Math.round(ms * 10) / 10;
  const parts = {
    dnsMs: round(timing.dnsMs),
    tcpMs: round(timing.tcpMs),
    tlsMs: round(timing.tlsMs),
    remainingMs: round(timing.ttfbMs),
  };
  return { ...parts, totalMs: round(parts.dnsMs + parts.tcpMs + parts.tlsMs + parts.remainingMs) };
}

export function latencyFinding(url: string, timing: HopTiming): Finding<LatencyDetails> {
  const breakdown = latencyBreakdown(timing);
  const details = { totalMs: breakdown.totalMs, breakdown, url };
  const phases = (['dnsMs', 'tcpMs', 'tlsMs', 'remainingMs'] as const)
    .slice()
    .sort((a, b) => breakdown[b] - breakdown[a]);
  const slowest = PHASE_ADVICE[phases[0]!];
  const split = `DNS ${breakdown.dnsMs} ms, TCP ${breakdown.tcpMs} ms, TLS ${breakdown.tlsMs} ms, server ${breakdown.remainingMs} ms`;
  if (breakdown.totalMs <= LATENCY_WARNING_MS) {
    return { status: 'ok', summary: `The first response arrived after ${breakdown.totalMs} ms (${split}).`, details };
  }
  const limit = breakdown.totalMs > LATENCY_CRITICAL_MS ? LATENCY_CRITICAL_MS : LATENCY_WARNING_MS;
  return {
    status: breakdown.totalMs > LATENCY_CRITICAL_MS ? 'critical' : 'warning',
    summary: `The first response took ${breakdown.totalMs} ms, over ${limit} ms, mostly ${slowest.name} (${split}); ${slowest.advice}.`,
    details,
  };
}

/* ------------------------------------------------------------------ http */

export interface SiteResponse {
  /** the URL fetched first */
  url: string;
  finalUrl: string;
  statusCode: number;
  statusText: string;
  cloudflareBlocked: boolean;
  httpsRefused: boolean;
  redirectLimitReached: boolean;
  redirectNotFollowed: { reason: string; location: string } | null;
}

export function httpFinding(site: SiteResponse): Finding<HttpDetails> {
  const details: HttpDetails = {
    statusCode: site.statusCode,
    statusText: site.statusText,
    cloudflareBlocked: site.cloudflareBlocked,
    url: site.url,
    finalUrl: site.finalUrl,
    httpsRefused: site.httpsRefused,
  };
  const status = `${site.statusCode}${site.statusText ? ` ${site.statusText}` : ''}`;
  if (site.cloudflareBlocked) {
    return {
      status: 'warning',
      summary: `Cloudflare answered ${status} with a challenge page, so automated visitors (this check included) do not see the site and the HTTP findings describe that page; allow this checker or lower the challenge setting to test the site itself.`,
      details,
    };
  }
  if (site.statusCode >= 500) {
    return {
      status: 'critical',
      summary: `The page answers ${status}: visitors see a server error; check the server's logs and its upstreams.`,
      details,
    };
  }
  if (site.statusCode >= 400) {
    return {
      status: 'critical',
      summary: `The page answers ${status}: visitors see an error instead of the site; serve a page at ${site.finalUrl} or redirect it to one.`,
      details,
    };
  }
  if (isRedirectStatus(site.statusCode)) {
    const why = site.redirectLimitReached
      ? 'more redirects than this check follows'
      : `a Location that is not a web address (${site.redirectNotFollowed?.location ?? ''})`;
    return {
      status: 'warning',
      summary: `The page ends in a redirect (${status}) with ${why}; redirect straight to the page itself.`,
      details,
    };
  }
  if (site.httpsRefused) {
    return {
      status: 'warning',
      summary: `The site answers ${status} over plain HTTP only (https:// refused the connection); serve it over HTTPS and redirect HTTP there.`,
      details,
    };
  }
  if (site.finalUrl.toLowerCase().startsWith('http:')) {
    return {
      status: 'warning',
      summary: `The page answers ${status} but over plain HTTP (${site.finalUrl}); redirect it to HTTPS.`,
      details,
    };
  }
  return { status: 'ok', summary: `The page answers ${status}.`, details };
}

/** A redirect loop (the fetcher's HTTP_STATUS failure): browsers give up with an error page. */
export function redirectLoopFindings(message: string): {
  http: Finding<HttpDetails>;
  redirects: Finding<RedirectsDetails>;
} {
  const summary = `The page redirects in a loop (${withoutFinalStop(message)}): browsers show an error instead of the site; fix the redirect rules.`;
  return {
    http: { status: 'critical', summary, details: detailsNotMeasured('http') },
    redirects: { status: 'critical', summary, details: detailsNotMeasured('redirects') },
  };
}

/* ------------------------------------------------------------------ redirects */

export function redirectsFinding(
  hops: readonly { url: string; statusCode: number; location: string | null }[],
  finalUrl: string,
  limits: { redirectLimitReached: boolean; redirectNotFollowed: boolean },
): Finding<RedirectsDetails> {
  const redirects: RedirectHop[] = hops
    .filter((h) => isRedirectStatus(h.statusCode) && h.location !== null)
    .map((h) => ({ url: h.url, statusCode: h.statusCode, location: h.location }));
  const details = { hops: redirects, finalUrl };
  const downgrade = redirects.find(
    (h) => h.url.toLowerCase().startsWith('https:') && (h.location ?? '').toLowerCase().startsWith('http:'),
  );
  if (limits.redirectLimitReached) {
    return {
      status: 'warning',
      summary: `The redirects did not end after ${plural(redirects.length, 'redirect', 'redirects')}; redirect straight to the final page.`,
      details,
    };
  }
  if (limits.redirectNotFollowed) {
    return {
      status: 'warning',
      summary: `A redirect points to something that is not a web page (${redirects[redirects.length - 1]?.location ?? ''}); point it to a page.`,
      details,
    };
  }
  if (downgrade) {
    return {
      status: 'warning',
      summary: `A redirect leaves HTTPS for plain HTTP (${downgrade.url} → ${downgrade.location}); keep visitors on HTTPS.`,
      details,
    };
  }
  if (redirects.length >= REDIRECTS_WARNING_COUNT) {
    return {
      status: 'warning',
      summary: `${plural(redirects.length, 'redirect', 'redirects')} before the page, each a round trip for visitors; link and redirect straight to ${finalUrl}.`,
      details,
    };
  }
  if (redirects.length === 0) return { status: 'ok', summary: 'The page answers without redirects.', details };
  return {
    status: 'ok',
    summary: `${plural(redirects.length, 'redirect leads', 'redirects lead')} to ${finalUrl}.`,
    details,
  };
}

/* ------------------------------------------------------------------ ssl */

/** The share of the validity period still ahead, in percent (0–100, one decimal). */
export function percentRemaining(validFrom: string, expiryDate: string, now: number): number {
  const start = Date.parse(validFrom);
  const end = Date.parse(expiryDate);
  if (!(end > start)) return 0;
  const share = ((end - now) / (end - start)) * 100;
  return Math.round(Math.min(100, Math.max(0, share)) * 10) / 10;
}

export interface SslFacts {
  domain: string;
  port: number;
  certificateStatus: SslStatus;
  validFrom: string;
  expiryDate: string;
  daysRemaining: number;
  /** the negotiated TLS version ("TLSv1.3") */
  tlsVersion: string;
  now: number;
}

const CERTIFICATE_PROBLEMS: Readonly<Record<Exclude<SslStatus, 'valid'>, (f: SslFacts) => string>> = {
  expired: (f) => `The certificate expired on ${f.expiryDate.slice(0, 10)}: browsers refuse the site; renew it now`,
  'not-yet-valid': (f) =>
    `The certificate is not valid until ${f.validFrom.slice(0, 10)}: browsers refuse the site; install one that is valid today`,
  'hostname-mismatch': (f) =>
    `The certificate is not issued for ${f.domain}: browsers refuse the site; install one that names it`,
  untrusted: () =>
    'The certificate does not chain to a trusted root (self-signed, unknown CA or missing intermediate): browsers refuse the site; install the full chain from a public CA',
};

/**
 * The certificate and the negotiated version of the main handshake (ssl-checker's).
 * Order: a certificate problem (critical); days and share left (critical, then warning;
 * both conditions must hold, so that short-lived certificates renewed at a third of
 * their life are not flagged while long ones are, a month ahead); a TLS version below
 * CURRENT_TLS_VERSION (warning). Findings at the worst level share the summary.
 */
export function sslFinding(f: SslFacts): Finding<SslDetails> {
  const percent = percentRemaining(f.validFrom, f.expiryDate, f.now);
  const details: SslDetails = {
    daysRemaining: f.daysRemaining,
    percentRemaining: percent,
    certificateStatus: f.certificateStatus,
    tlsVersion: f.tlsVersion,
    expiryDate: f.expiryDate,
    port: f.port,
  };
  const findings: { status: HealthCheckStatus; text: string }[] = [];
  if (f.certificateStatus !== 'valid')
    findings.push({ status: 'critical', text: CERTIFICATE_PROBLEMS[f.certificateStatus](f) });
  const left = `${plural(f.daysRemaining, 'day', 'days')} (${percent}% of its validity period)`;
  if (f.certificateStatus === 'valid' && f.daysRemaining < SSL_CRITICAL_DAYS && percent < SSL_CRITICAL_PERCENT) {
    findings.push({ status: 'critical', text: `The certificate expires in ${left}; renew it now` });
  } else if (f.certificateStatus === 'valid' && f.daysRemaining < SSL_WARNING_DAYS && percent < SSL_WARNING_PERCENT) {
    findings.push({
      status: 'warning',
      text: `The certificate expires in ${left}; renew it soon and check that automatic renewal works`,
    });
  }
  if (f.tlsVersion !== CURRENT_TLS_VERSION) {
    findings.push({
      status: 'warning',
      text: `${tlsName(f.tlsVersion)} is the newest version the server offers; enable TLS 1.3 (RFC 8446)`,
    });
  }
  const worst = findings.some((x) => x.status === 'critical') ? 'critical' : findings.length > 0 ? 'warning' : 'ok';
  if (worst === 'ok') {
    return {
      status: 'ok',
      summary: `The certificate is valid for ${left}, over ${tlsName(f.tlsVersion)} on port ${f.port}.`,
      details,
    };
  }
  return {
    status: worst,
    summary: `${findings
      .filter((x) => x.status === worst)
      .map((x) => x.text)
      .join('; ')}.`,
    details,
  };
}

function tlsName(version: string): string {
  return version.replace(/^TLSv/, 'TLS ').replace(/^TLS 1$/, 'TLS 1.0');
}

/** Handshake failure codes meaning the server offers no TLS version of 1.2 or newer (RFC 8996 deprecated 1.0 and 1.1). */
const NO_CURRENT_VERSION: ReadonlySet<string> = new Set([
  'ERR_SSL_TLSV1_ALERT_PROTOCOL_VERSION',
  'ERR_SSL_UNSUPPORTED_PROTOCOL',
]);

/**
 * A failed main handshake that is itself a finding: the port refused (no HTTPS), or the
 * server's TLS failed (an alert, no common version, not TLS at all). Anything else (a
 * time-out, a reset, the request ending) is no verdict: null, and the check is `error`.
 */
export function sslFailureFinding(
  failure: { kind: ProbeErrorKind; reason: string | null; message: string },
  port: number,
): Finding<SslDetails> | null {
  const details = { ...detailsNotMeasured('ssl'), port };
  if (failure.kind === 'REFUSED') {
    return {
      status: 'critical',
      summary: `Port ${port} refused the connection, so the site has no HTTPS; serve it over HTTPS with a certificate from a public CA.`,
      details,
    };
  }
  if (failure.kind !== 'TLS') return null;
  if (failure.reason !== null && NO_CURRENT_VERSION.has(failure.reason)) {
    return {
      status: 'critical',
      summary: `The server on port ${port} offers no TLS version of 1.2 or newer (TLS 1.0 and 1.1 are deprecated, RFC 8996), so browsers cannot connect; enable TLS 1.2 and 1.3.`,
      details,
    };
  }
  return {
    status: 'critical',
    summary: `The TLS handshake on port ${port} fails (${withoutFinalStop(failure.message)}), so browsers cannot connect over HTTPS; fix the server's TLS set-up.`,
    details,
  };
}

/* ------------------------------------------------------------------ security headers */

export function securityFinding(score: SecurityHeaderScore): Finding<SecurityDetails> {
  const details = { present: score.present.length, total: score.total, missing: [...score.missing] };
  if (score.missing.length === 0)
    return { status: 'ok', summary: `All ${score.total} security headers are set.`, details };
  const which = listInProse(score.missing);
  const counted = `${score.present.length} of ${score.total} security headers are set`;
  if (score.missing.length >= SECURITY_HEADERS_MISSING_WARNING) {
    return { status: 'warning', summary: `Only ${counted}; add ${which}.`, details };
  }
  return { status: 'info', summary: `${counted}; consider adding ${which}.`, details };
}

/* ------------------------------------------------------------------ protocol */

export function protocolFinding(httpVersion: '1.1' | '2', finalUrl: string): Finding<ProtocolDetails> {
  if (httpVersion === '2')
    return { status: 'ok', summary: 'The page is served over HTTP/2.', details: { protocol: 'HTTP/2' } };
  const overHttps = finalUrl.toLowerCase().startsWith('https:');
  return {
    status: 'warning',
    summary: overHttps
      ? 'The page is served over HTTP/1.1 although HTTP/2 was offered; enable HTTP/2 (RFC 9113) on the server for faster page loads.'
      : 'The page is served over plain HTTP/1.1 (browsers use HTTP/2 only over HTTPS); serve it over HTTPS with HTTP/2 enabled.',
    details: { protocol: 'HTTP/1.1' },
  };
}

/* ------------------------------------------------------------------ compression */

/** Media types that are compressed already, or binary: gzip or Brotli gain nothing on them. */
function compressedAlready(mediaType: string): boolean {
  // SVG is XML text and BMP uncompressed pixels: both shrink well.
  if (/^(image|video|audio)\//.test(mediaType)) return mediaType !== 'image/svg+xml' && mediaType !== 'image/bmp';
  return /^(font\/woff2?|application\/(zip|gzip|x-gzip|zstd|x-7z-compressed|x-rar-compressed|pdf|octet-stream|x-bzip2|x-xz))$/.test(
    mediaType,
  );
}

/** Codings better than gzip for text (RFC 7932 Brotli, RFC 8878 Zstandard). */
const BEST_CODINGS: ReadonlySet<string> = new Set(['br', 'zstd']);

export function compressionFinding(statusCode: number, headers: HeaderMap): Finding<CompressionDetails> {
  const coding = (headers['content-encoding'] ?? '').trim().toLowerCase();
  const encoding = coding === '' || coding === 'identity' ? 'none' : coding;
  const contentType = mediaTypeOf(headers['content-type']);
  const length =
    headers['content-length'] !== undefined && /^\d+$/.test(headers['content-length'].trim())
      ? Number(headers['content-length'])
      : null;
  const details = { encoding, contentType, contentLength: length };
  if (encoding !== 'none') {
    const codings = encoding.split(',').map((c) => c.trim());
    if (codings.some((c) => BEST_CODINGS.has(c)))
      return { status: 'ok', summary: `The page is compressed (${encoding}).`, details };
    return {
      status: 'info',
      summary: `The page is compressed with ${encoding}; Brotli (br) would make text smaller still.`,
      details,
    };
  }
  if (statusCode === 204 || statusCode === 304 || length === 0) {
    return { status: 'ok', summary: 'The response has no body, so there is nothing to compress.', details };
  }
  if (contentType !== null && compressedAlready(contentType)) {
    return { status: 'ok', summary: `The response is ${contentType}, which is compressed already.`, details };
  }
  if (length !== null && length < COMPRESSION_MIN_BYTES) {
    return { status: 'ok', summary: `The response is ${length} bytes, too small to gain from compression.`, details };
  }
  return {
    status: 'warning',
    summary: `The page${contentType ? ` (${contentType}${length !== null ? `, ${length} bytes` : ''})` : ''} is sent uncompressed; enable Brotli or gzip for text responses.`,
    details,
  };
}

/* ------------------------------------------------------------------ ports */

/**
 * The TCP state of the web ports (and of the target URL's own port, `urlPort`, when the
 * target was a URL). Critical: the URL's port is not open, or no web port is; warning:
 * the HTTPS port is not open (no HTTPS at the usual address); info: the HTTP port is not
 * open (addresses typed without https:// get no answer). Otherwise ok.
 */
export function portsFinding(
  ports: readonly PortEntry[],
  web: WebPorts,
  urlPort: number | null,
): Finding<PortsDetails> {
  const details = { ports: ports.map((p) => ({ ...p })) };
  const state = (port: number) => ports.find((p) => p.port === port)?.status ?? 'closed';
  const isOpen = (port: number) => state(port) === 'open';
  const described = (port: number) =>
    `port ${port} is ${state(port)}${state(port) === 'filtered' ? ' (no answer in time)' : ''}`;
  const sentence = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
  if (urlPort !== null && !isOpen(urlPort)) {
    return {
      status: 'critical',
      summary: `${sentence(described(urlPort))}, so visitors cannot reach the URL; open it in the firewall and check the web server.`,
      details,
    };
  }
  if (!isOpen(web.http) && !isOpen(web.https)) {
    return {
      status: 'critical',
      summary: `Neither web port is open (${described(web.http)}, ${described(web.https)}), so visitors cannot connect; open them in the firewall and check the web server.`,
      details,
    };
  }
  if (!isOpen(web.https)) {
    return {
      status: 'warning',
      summary: `${sentence(described(web.https))}, so the site has no HTTPS at its usual address; serve HTTPS on it.`,
      details,
    };
  }
  if (!isOpen(web.http)) {
    return {
      status: 'info',
      summary: `${sentence(described(web.http))}: addresses typed without https:// get no answer; open it and redirect to HTTPS.`,
      details,
    };
  }
  const open = ports.map((p) => String(p.port));
  return {
    status: 'ok',
    summary: open.length === 1 ? `Port ${open[0]} is open.` : `Ports ${listInProse(open)} are open.`,
    details,
  };
}

/* ------------------------------------------------------------------ the ratings' parts (tls-rating, http-rating) */

/** The letters of both ratings: tls-rating's A+ … F, T and M; http-rating's A+ … F with + and -. */
const RATING_GRADE = /^(?:[A-D][+-]?|E|F|T|M)$/;

/**
 * The status of a rating's grade (docs/contract/grades.md "website-health-check"): ok for A+ and A; info for A- and
 * for an answer that was not graded (null); warning for B+ to C-; critical for D+ to F (tls-rating's E
 * lies between them), T (not trusted) and M (name mismatch).
 */
export function ratingGradeStatus(grade: string | null): Exclude<HealthCheckStatus, 'error'> {
  if (grade === null) return 'info';
  if (!RATING_GRADE.test(grade)) throw new RangeError(`not a rating grade: ${grade}`);
  if (grade === 'A+' || grade === 'A') return 'ok';
  if (grade === 'A-') return 'info';
  if (grade.startsWith('B') || grade.startsWith('C')) return 'warning';
  return 'critical';
}

/** ratingGradeStatus in words, for the ratings' details types. */
export const RATING_STATUS_RULE =
  'ok: A+ or A; info: A-, or an answer that was not graded; warning: B+ to C-; critical: D+ to F, T (not trusted) or M (name mismatch).';
