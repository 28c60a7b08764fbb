/**
 * The composite health checks: the shared verdict and check types (HealthVerdict,
 * HealthCheck and their status enums, also used by mailhealth-check) and
 * website-health-check with its details, typed per check id through a union.
 */
import type { HealthCheckStatus, Verdict } from '../shared/verdict.js';
import {
  COMPRESSION_MIN_BYTES,
  LATENCY_CRITICAL_MS,
  LATENCY_WARNING_MS,
  PING_LOSS_WARNING_PERCENT,
  REDIRECTS_WARNING_COUNT,
  SECURITY_HEADERS_MISSING_WARNING,
  SSL_CRITICAL_DAYS,
  SSL_CRITICAL_PERCENT,
  SSL_WARNING_DAYS,
  SSL_WARNING_PERCENT,
} from './rules.js';
import type {
  CompressionDetails,
  DnsDetails,
  HttpDetails,
  HttpRatingDetails,
  LatencyBreakdown,
  LatencyDetails,
  LocationDetails,
  OrganizationDetails,
  PingDetails,
  PortEntry,
  PortsDetails,
  ProtocolDetails,
  RedirectHop,
  RedirectsDetails,
  SecurityDetails,
  SslDetails,
  TlsRatingDetails,
  WebsiteCheckId,
} from './details.js';
import type { WebsiteCheck, WebsiteHealthResult } from './run.js';
import { builder } from '../../../graphql/builder.js';
import { checkDetailsUnion } from '../shared/check-details.js';
import { HttpRating } from '../../tls-http/http-rating/types.js';
import { TlsRating } from '../../tls-http/tls-rating/types.js';

/* ------------------------------------------------------------ shared by the composite checks */

export const HealthCheckStatusEnum = builder.enumType('HealthCheckStatus', {
  description: 'The status of one check of a composite health check (decisions §4).',
  values: {
    ok: { description: 'Nothing to do.' },
    info: { description: 'Worth knowing; nothing needs fixing.' },
    warning: { description: 'Should be fixed.' },
    critical: { description: 'Visitors (or mail) are affected now or soon: fix first.' },
    error: {
      description:
        'The check could not run (time-out, upstream failure); `error` says why. Counts as a warning in the verdict.',
    },
  } as const,
});

export const HealthVerdictStatusEnum = builder.enumType('HealthVerdictStatus', {
  description: 'The verdict: the worst check wins; `error` counts as `warning`, `info` as `ok`.',
  values: {
    ok: { description: 'Every check is ok or info.' },
    warning: { description: 'At least one check is warning or error, none critical.' },
    critical: { description: 'At least one check is critical.' },
  } as const,
});

export const HealthVerdictRef = builder.objectRef<Verdict>('HealthVerdict').implement({
  fields: (t) => ({
    status: t.field({ type: HealthVerdictStatusEnum, resolve: (v) => v.status }),
    headline: t.exposeString('headline', {
      description: 'How many checks need attention and which (for ok: that all passed, and how many notes).',
    }),
    summary: t.exposeString('summary', {
      description:
        'The summaries of the worst findings, worst first (at most three, then how many more); for ok, the notes.',
    }),
  }),
});

export interface HealthCheckShape {
  id: string;
  label: string;
  status: HealthCheckStatus;
  summary: string;
  error: string | null;
}

export const HealthCheckRef = builder.interfaceRef<HealthCheckShape>('HealthCheck').implement({
  description: 'One check of a composite health check.',
  fields: (t) => ({
    id: t.exposeString('id', { description: 'Stable identifier of the check.' }),
    label: t.exposeString('label', { description: 'Human-readable name.' }),
    status: t.field({ type: HealthCheckStatusEnum, resolve: (c) => c.status }),
    summary: t.exposeString('summary', { description: 'One sentence: what was found and, when not ok, what to do.' }),
    error: t.exposeString('error', {
      nullable: true,
      description: 'Why the check could not run (status error); null otherwise.',
    }),
  }),
});

/* ------------------------------------------------------------ website-health-check details */

export const WebsiteDnsDetails = builder.objectRef<DnsDetails>('WebsiteDnsDetails').implement({
  description:
    'dns — ok: IPv4 and IPv6 addresses; info: IPv4 only (add AAAA); warning: IPv6 only (add A). A name without addresses is a 400, a resolver failure a 502/504.',
  fields: (t) => ({
    ip: t.exposeString('ip', {
      nullable: true,
      description: 'The address the checks connect to: the first IPv4 address, else the first IPv6 one.',
    }),
    ipv4: t.exposeStringList('ipv4'),
    ipv6: t.exposeStringList('ipv6'),
  }),
});

export const WebsiteLocationDetails = builder.objectRef<LocationDetails>('WebsiteLocationDetails').implement({
  description: 'location — ok: a country is known for the address; info: none is (no IP data covers it).',
  fields: (t) => ({
    countryCode: t.exposeString('countryCode', {
      nullable: true,
      description: 'ISO 3166-1 alpha-2; null when unknown.',
    }),
    country: t.exposeString('country', { nullable: true }),
  }),
});

export const WebsiteOrganizationDetails = builder
  .objectRef<OrganizationDetails>('WebsiteOrganizationDetails')
  .implement({
    description: 'organization — ok: an AS announces the address; info: none is known.',
    fields: (t) => ({
      orgDomain: t.exposeString('orgDomain', {
        nullable: true,
        description:
          "The AS's web domain from IPinfo data (ipInfo.source ipinfo, or an IPinfo Lite database); null with the bundled data, which has none. Never guessed from the AS name.",
      }),
      asn: t.exposeString('asn', { nullable: true, description: '"AS15169"; null when unknown.' }),
      asName: t.exposeString('asName', { nullable: true }),
    }),
  });

export const WebsitePingDetails = builder.objectRef<PingDetails>('WebsitePingDetails').implement({
  description: `ping — ok: no loss; info: some loss under ${PING_LOSS_WARNING_PERCENT} %, or no reply at all (ICMP filtered, common); warning: ${PING_LOSS_WARNING_PERCENT} % loss or more, but not all.`,
  fields: (t) => ({
    avgRoundTripMs: t.exposeFloat('avgRoundTripMs', {
      nullable: true,
      description: 'Mean round-trip time, ms; null without replies.',
    }),
    packetLossPercent: t.exposeFloat('packetLossPercent', { nullable: true }),
    sent: t.exposeInt('sent', { nullable: true }),
    received: t.exposeInt('received', { nullable: true }),
  }),
});

export const WebsiteLatencyBreakdown = builder.objectRef<LatencyBreakdown>('WebsiteLatencyBreakdown').implement({
  description: 'Milliseconds of one fresh connection (the first request of the fetch).',
  fields: (t) => ({
    dnsMs: t.exposeFloat('dnsMs', { description: "Resolving the name (~0 when this service's DNS cache answered)." }),
    tcpMs: t.exposeFloat('tcpMs', { description: 'The TCP connect.' }),
    tlsMs: t.exposeFloat('tlsMs', { description: 'The TLS handshake; 0 over http.' }),
    remainingMs: t.exposeFloat('remainingMs', { description: 'From sending the request to the response headers.' }),
    totalMs: t.exposeFloat('totalMs', { description: 'The sum of the four.' }),
  }),
});

export const WebsiteLatencyDetails = builder.objectRef<LatencyDetails>('WebsiteLatencyDetails').implement({
  description: `latency — ok: totalMs ≤ ${LATENCY_WARNING_MS}; warning: up to ${LATENCY_CRITICAL_MS}; critical: above (web.dev's time-to-first-byte bounds).`,
  fields: (t) => ({
    totalMs: t.exposeFloat('totalMs', { nullable: true }),
    breakdown: t.field({ type: WebsiteLatencyBreakdown, nullable: true, resolve: (d) => d.breakdown }),
    url: t.exposeString('url', { nullable: true, description: 'The URL of the measured request.' }),
  }),
});

export const WebsiteHttpDetails = builder.objectRef<HttpDetails>('WebsiteHttpDetails').implement({
  description:
    'http — critical: the final status is 4xx or 5xx; warning: a Cloudflare challenge answered, the chain ends in a redirect that was not followed, or the page is served over plain HTTP; ok: 2xx over HTTPS.',
  fields: (t) => ({
    statusCode: t.exposeInt('statusCode', { nullable: true, description: 'Of the final response.' }),
    statusText: t.exposeString('statusText', { nullable: true }),
    cloudflareBlocked: t.exposeBoolean('cloudflareBlocked', {
      nullable: true,
      description:
        "A Cloudflare challenge or block page answered (403 or 503 with cf-mitigated: challenge, or from a Cloudflare edge with the page's markers in its head).",
    }),
    url: t.exposeString('url', {
      nullable: true,
      description: 'The URL fetched: targetUrl, or its http:// form when httpsRefused.',
    }),
    finalUrl: t.exposeString('finalUrl', { nullable: true }),
    httpsRefused: t.exposeBoolean('httpsRefused', {
      nullable: true,
      description:
        'The target was a domain, https:// refused the connection, and http:// was fetched instead for the page checks.',
    }),
  }),
});

export const WebsiteRedirectHop = builder.objectRef<RedirectHop>('WebsiteRedirectHop').implement({
  fields: (t) => ({
    url: t.exposeString('url', { description: 'The URL that answered with the redirect.' }),
    statusCode: t.exposeInt('statusCode'),
    location: t.exposeString('location', { nullable: true, description: 'Where it pointed, resolved against url.' }),
  }),
});

export const WebsiteRedirectsDetails = builder.objectRef<RedirectsDetails>('WebsiteRedirectsDetails').implement({
  description: `redirects — critical: a redirect loop; warning: ${REDIRECTS_WARNING_COUNT} or more redirects, a redirect from https to http, more than http.maxRedirects, or a Location that is not a web address; ok otherwise.`,
  fields: (t) => ({
    hops: t.field({
      type: [WebsiteRedirectHop],
      nullable: true,
      description: 'Each redirect, in order; empty without redirects.',
      resolve: (d) => d.hops,
    }),
    finalUrl: t.exposeString('finalUrl', { nullable: true }),
  }),
});

export const WebsiteSslDetails = builder.objectRef<SslDetails>('WebsiteSslDetails').implement({
  description:
    `ssl — critical: the port refuses (no HTTPS), the handshake fails (including a server with nothing newer than TLS 1.1), the certificate is not valid (ssl-checker status), or fewer than ${SSL_CRITICAL_DAYS} days and under ${SSL_CRITICAL_PERCENT} % of its validity period are left; ` +
    `warning: fewer than ${SSL_WARNING_DAYS} days and under ${SSL_WARNING_PERCENT} % left, or TLS 1.2 negotiated (no TLS 1.3); ok otherwise. A time-out or reset is error.`,
  fields: (t) => ({
    daysRemaining: t.exposeInt('daysRemaining', {
      nullable: true,
      description: 'Whole days until the certificate expires, rounded down.',
    }),
    percentRemaining: t.exposeFloat('percentRemaining', {
      nullable: true,
      description: 'Share of the validity period (notBefore → notAfter) still ahead, 0–100.',
    }),
    certificateStatus: t.exposeString('certificateStatus', {
      nullable: true,
      description: 'ssl-checker status: valid, expired, not-yet-valid, hostname-mismatch or untrusted.',
    }),
    tlsVersion: t.exposeString('tlsVersion', {
      nullable: true,
      description: 'The negotiated version, e.g. "TLSv1.3".',
    }),
    expiryDate: t.exposeString('expiryDate', { nullable: true, description: 'ISO 8601 UTC.' }),
    port: t.exposeInt('port', {
      nullable: true,
      description: "The port of the handshake: the target URL's when it is https, else 443.",
    }),
  }),
});

export const WebsiteSecurityDetails = builder.objectRef<SecurityDetails>('WebsiteSecurityDetails').implement({
  description: `security — of http-headers' five security headers: ok: all present; info: one missing; warning: ${SECURITY_HEADERS_MISSING_WARNING} or more missing.`,
  fields: (t) => ({
    present: t.exposeInt('present', { nullable: true, description: 'How many are present.' }),
    total: t.exposeInt('total', { nullable: true, description: 'Always 5.' }),
    missing: t.exposeStringList('missing', { nullable: true, description: 'Lower-case names of the missing ones.' }),
  }),
});

export const WebsiteProtocolDetails = builder.objectRef<ProtocolDetails>('WebsiteProtocolDetails').implement({
  description:
    'protocol — ok: HTTP/2; warning: HTTP/1.1 (over https HTTP/2 was offered through ALPN and not taken; over http browsers never use HTTP/2).',
  fields: (t) => ({
    protocol: t.exposeString('protocol', { nullable: true, description: '"HTTP/2" or "HTTP/1.1".' }),
  }),
});

export const WebsiteCompressionDetails = builder.objectRef<CompressionDetails>('WebsiteCompressionDetails').implement({
  description: `compression — ok: br or zstd, or nothing worth compressing (no body, an already compressed type, under ${COMPRESSION_MIN_BYTES} bytes); info: gzip or deflate; warning: a text response sent uncompressed.`,
  fields: (t) => ({
    encoding: t.exposeString('encoding', {
      nullable: true,
      description: 'The Content-Encoding of the final response ("br", "gzip", …), or "none".',
    }),
    contentType: t.exposeString('contentType', {
      nullable: true,
      description: 'Its media type, lower case, without parameters.',
    }),
    contentLength: t.exposeInt('contentLength', {
      nullable: true,
      description: 'Its Content-Length; null when it has none.',
    }),
  }),
});

export const WebsitePortEntry = builder.objectRef<PortEntry>('WebsitePortEntry').implement({
  fields: (t) => ({
    port: t.exposeInt('port'),
    protocol: t.exposeString('protocol', { description: 'Always "tcp".' }),
    status: t.exposeString('status', {
      description: 'port-checker status: open, closed (refused) or filtered (no answer in time, or ICMP unreachable).',
    }),
  }),
});

export const WebsitePortsDetails = builder.objectRef<PortsDetails>('WebsitePortsDetails').implement({
  description:
    "ports — 80 and 443 (and the target URL's own port): critical: the URL's port, or both web ports, not open; warning: 443 not open; info: 80 not open; ok: all open.",
  fields: (t) => ({
    ports: t.field({ type: [WebsitePortEntry], nullable: true, resolve: (d) => d.ports }),
  }),
});

const RATING_STATUS_RULE =
  'ok: A+ or A; info: A-, or an answer that was not graded; warning: B+ to C-; critical: D+ to F, T (not trusted) or M (name mismatch).';

export const WebsiteTlsRatingDetails = builder.objectRef<TlsRatingDetails>('WebsiteTlsRatingDetails').implement({
  description: `tls-rating — the SSL Labs grade of the HTTPS port (the ssl check's): ${RATING_STATUS_RULE} A rating its bounds cut short is graded on what it learnt (partial); one that could not finish within the check's bound is error.`,
  fields: (t) => ({
    tlsRating: t.field({
      type: TlsRating,
      nullable: true,
      description: "tls-rating's data for the site's HTTPS port; null when the rating could not run.",
      resolve: (d) => d.tlsRating,
    }),
  }),
});

export const WebsiteHttpRatingDetails = builder.objectRef<HttpRatingDetails>('WebsiteHttpRatingDetails').implement({
  description: `http-rating — the MDN HTTP Observatory's grade of the target: ${RATING_STATUS_RULE}`,
  fields: (t) => ({
    httpRating: t.field({
      type: HttpRating,
      nullable: true,
      description: "http-rating's data for the target; null when the rating could not run.",
      resolve: (d) => d.httpRating,
    }),
  }),
});

export const DETAILS_TYPE_OF = {
  dns: WebsiteDnsDetails,
  location: WebsiteLocationDetails,
  organization: WebsiteOrganizationDetails,
  ping: WebsitePingDetails,
  latency: WebsiteLatencyDetails,
  http: WebsiteHttpDetails,
  redirects: WebsiteRedirectsDetails,
  ssl: WebsiteSslDetails,
  security: WebsiteSecurityDetails,
  protocol: WebsiteProtocolDetails,
  compression: WebsiteCompressionDetails,
  ports: WebsitePortsDetails,
  'tls-rating': WebsiteTlsRatingDetails,
  'http-rating': WebsiteHttpRatingDetails,
} as const satisfies Record<WebsiteCheckId, unknown>;

const WebsiteCheckDetailsUnion = checkDetailsUnion(
  'WebsiteCheckDetails',
  "A website check's details: the type follows the check's id (WebsiteDnsDetails for dns, …; the ratings hold their single check's data under its name, WebsiteTlsRatingDetails.tlsRating and WebsiteHttpRatingDetails.httpRating, which REST answers as the details themselves). A check that could not run has every field null.",
  DETAILS_TYPE_OF,
);
export const WebsiteCheckDetails = WebsiteCheckDetailsUnion.union;

export const WebsiteCheckRef = builder.objectRef<WebsiteCheck>('WebsiteCheck').implement({
  description: `One check of website-health-check. id: dns, location, organization, ping, latency, http, redirects, ssl, security, protocol, compression, ports, tls-rating or http-rating (in this order); each details type states its rule.`,
  interfaces: [HealthCheckRef],
  fields: (t) => ({
    details: t.field({
      type: WebsiteCheckDetails,
      resolve: (c) => WebsiteCheckDetailsUnion.tag(c.id, c.details),
    }),
  }),
});

export const WebsiteHealthCheckRef = builder.objectRef<WebsiteHealthResult>('WebsiteHealthCheck').implement({
  fields: (t) => ({
    domain: t.exposeString('domain', { description: 'The host checked (lower-case A-label).' }),
    targetUrl: t.exposeString('targetUrl', {
      description: 'The URL as given (normalised), or https://<domain>/ for a domain.',
    }),
    ip: t.exposeString('ip', {
      description: 'The address the checks connect to: the first IPv4 address, else the first IPv6 one.',
    }),
    verdict: t.field({ type: HealthVerdictRef, resolve: (r) => r.verdict }),
    checks: t.field({ type: [WebsiteCheckRef], resolve: (r) => r.checks }),
  }),
});
