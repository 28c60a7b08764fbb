/**
 * website-health-check: its own checks (ids in api-v1.md order, labels) and the details each reports
 * (api-v1.md); the parts that are single checks (the ratings of grades.md, …) join from their own folders
 * (./parts.ts). A check that could not run reports the same keys with nothing measured (null), so that
 * clients can read details by id whatever the status.
 */
import type { PortState } from '../../../probes/tcp/port-state.js';
import type { SslStatus } from '../../tls-http/shared/certificate.js';

export const WEBSITE_CHECK_IDS = [
  'dns',
  'location',
  'organization',
  'ping',
  'latency',
  'http',
  'redirects',
  'ssl',
  'security',
  'protocol',
  'compression',
  'ports',
] as const;
export type WebsiteCheckId = (typeof WEBSITE_CHECK_IDS)[number];

/**
 * A joined part's details when it has no data of its check (it could not run: the check's `error` says why):
 * an object all the same (docs/contract/api-v1.md "Result objects (`data`) by endpoint": `details` is an
 * object), as mailhealth-check's PartNotTested.
 */
export interface WebsitePartNotTested {
  tested: false;
  reason: 'could-not-run';
}

export function isWebsitePartNotTested(details: unknown): details is WebsitePartNotTested {
  return typeof details === 'object' && details !== null && (details as Partial<WebsitePartNotTested>).tested === false;
}

export const WEBSITE_CHECK_LABELS: Readonly<Record<WebsiteCheckId, string>> = {
  dns: 'DNS',
  location: 'Location',
  organization: 'Organization',
  ping: 'Ping',
  latency: 'Latency',
  http: 'HTTP status',
  redirects: 'Redirects',
  ssl: 'SSL/TLS',
  security: 'Security headers',
  protocol: 'HTTP protocol',
  compression: 'Compression',
  ports: 'Web ports',
};

export interface DnsDetails {
  /** the address the checks connect to: the first IPv4 address, else the first IPv6 one */
  ip: string | null;
  ipv4: string[];
  ipv6: string[];
}
export interface LocationDetails {
  countryCode: string | null;
  country: string | null;
}
export interface OrganizationDetails {
  /** the AS's web domain as IPinfo data gives it; null when the source has none */
  orgDomain: string | null;
  asn: string | null;
  asName: string | null;
}
export interface PingDetails {
  avgRoundTripMs: number | null;
  packetLossPercent: number | null;
  sent: number | null;
  received: number | null;
}
export interface LatencyBreakdown {
  dnsMs: number;
  tcpMs: number;
  tlsMs: number;
  remainingMs: number;
  totalMs: number;
}
export interface LatencyDetails {
  totalMs: number | null;
  breakdown: LatencyBreakdown | null;
  /** the URL of the connection measured (the first hop of the fetch) */
  url: string | null;
}
export interface HttpDetails {
  statusCode: number | null;
  statusText: string | null;
  cloudflareBlocked: boolean | null;
  /** the URL fetched first */
  url: string | null;
  finalUrl: string | null;
  /** the target was a domain, https:// refused the connection, and http:// was fetched instead */
  httpsRefused: boolean | null;
}
export interface RedirectHop {
  url: string;
  statusCode: number;
  /** the Location resolved against url (as sent when it does not resolve) */
  location: string | null;
}
export interface RedirectsDetails {
  hops: RedirectHop[] | null;
  finalUrl: string | null;
}
export interface SslDetails {
  daysRemaining: number | null;
  /** share of the certificate's validity period (notBefore → notAfter) still ahead, in percent */
  percentRemaining: number | null;
  /** ssl-checker's status of the certificate */
  certificateStatus: SslStatus | null;
  /** the TLS version the handshake negotiated ("TLSv1.3") */
  tlsVersion: string | null;
  expiryDate: string | null;
  port: number | null;
}
export interface SecurityDetails {
  present: number | null;
  total: number | null;
  missing: string[] | null;
}
export interface ProtocolDetails {
  protocol: 'HTTP/2' | 'HTTP/1.1' | null;
}
export interface CompressionDetails {
  /** the Content-Encoding of the final response ("br", "gzip", …), "none" without one */
  encoding: string | null;
  contentType: string | null;
  contentLength: number | null;
}
export interface PortEntry {
  port: number;
  protocol: 'tcp';
  status: PortState;
}
export interface PortsDetails {
  ports: PortEntry[] | null;
}

export interface WebsiteDetailsById {
  dns: DnsDetails;
  location: LocationDetails;
  organization: OrganizationDetails;
  ping: PingDetails;
  latency: LatencyDetails;
  http: HttpDetails;
  redirects: RedirectsDetails;
  ssl: SslDetails;
  security: SecurityDetails;
  protocol: ProtocolDetails;
  compression: CompressionDetails;
  ports: PortsDetails;
}

export type { Finding } from '../shared/finding.js';

/** The details of a check that could not run: the same keys, nothing measured. */
export function detailsNotMeasured<K extends WebsiteCheckId>(id: K): WebsiteDetailsById[K] {
  const empty: WebsiteDetailsById = {
    dns: { ip: null, ipv4: [], ipv6: [] },
    location: { countryCode: null, country: null },
    organization: { orgDomain: null, asn: null, asName: null },
    ping: { avgRoundTripMs: null, packetLossPercent: null, sent: null, received: null },
    latency: { totalMs: null, breakdown: null, url: null },
    http: {
      statusCode: null,
      statusText: null,
      cloudflareBlocked: null,
      url: null,
      finalUrl: null,
      httpsRefused: null,
    },
    redirects: { hops: null, finalUrl: null },
    ssl: {
      daysRemaining: null,
      percentRemaining: null,
      certificateStatus: null,
      tlsVersion: null,
      expiryDate: null,
      port: null,
    },
    security: { present: null, total: null, missing: null },
    protocol: { protocol: null },
    compression: { encoding: null, contentType: null, contentLength: null },
    ports: { ports: null },
  };
  return empty[id];
}

/** The ports website-health-check knows as HTTP and HTTPS (CheckContext.ports: 80 and 443). */
export interface WebPorts {
  readonly http: number;
  readonly https: number;
}
