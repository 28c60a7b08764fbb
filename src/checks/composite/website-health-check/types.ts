/**
 * website-health-check: its object types, its own checks' details typed per check id through a union,
 * which the parts that are single checks join (./parts.ts); the check is ./check.ts.
 */
import { HealthVerdictRef, HealthCheckRef } from '../shared/health-types.js';
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
  WebsiteCheckId,
} from './details.js';
import type { WebsiteCheck, WebsiteHealthResult } from './run.js';
import { builder } from '../../../graphql/builder.js';
import { checkDetailsUnion, tagDetails } from '../shared/check-details.js';
import { whenAllDeclared } from '../../../graphql/check-declaration.js';
import { listInProse } from '../shared/verdict.js';
import { websiteParts } from './parts.js';
import { isWebsitePartNotTested, WEBSITE_CHECK_IDS, type WebsitePartNotTested } from './details.js';

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
} as const satisfies Record<WebsiteCheckId, unknown>;

export const WebsiteCheckRef = builder.objectRef<WebsiteCheck>('WebsiteCheck');

export const WebsitePartNotTestedRef = builder.objectRef<WebsitePartNotTested>('WebsitePartNotTested').implement({
  description:
    "The details of a part that is a single check (tls-rating, http-rating, …) when it has no data of that check: it could not run (the check's error says why).",
  fields: (t) => ({
    tested: t.exposeBoolean('tested', { description: 'Always false: the part has no data of its check.' }),
    reason: t.exposeString('reason', { description: "could-not-run: the part could not run (the check's error)." }),
  }),
});

// The union and the check's description name every part: they are made once every check has joined.
whenAllDeclared(() => {
  const parts = websiteParts.joined;
  const ids = [...WEBSITE_CHECK_IDS, ...parts.map((p) => p.spec.id)];
  const held = parts.map((p) => `${p.details.name}.${p.field}`);
  const details = checkDetailsUnion(
    'WebsiteCheckDetails',
    `A website check's details: the type follows the check's id (WebsiteDnsDetails for dns, …; the parts that are single checks hold that check's data under its name, ${listInProse(held)}, which REST answers as the details themselves). A check that could not run has every field null; a part that is a single check and could not run has WebsitePartNotTested details.`,
    DETAILS_TYPE_OF,
    websiteParts,
    [{ type: WebsitePartNotTestedRef, is: isWebsitePartNotTested }],
  );
  WebsiteCheckRef.implement({
    description: `One check of website-health-check. id: ${ids.slice(0, -1).join(', ')} or ${ids.at(-1)} (in this order); each details type states its rule.`,
    interfaces: [HealthCheckRef],
    fields: (t) => ({
      details: t.field({ type: details, resolve: (c) => tagDetails(c.id, c.details) as never }),
    }),
  });
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
