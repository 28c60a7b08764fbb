/**
 * What the check context is made from: the long-lived services it uses (probes, caches, limits) and the
 * ports spoken with targets. services.ts gathers them with the platform.
 */
import type { Config, HostPort } from '../config.js';
import type { DnsClient } from '../probes/dns/client.js';
import type { IpDataSource } from '../probes/ipdata/source.js';
import type { RdapClient } from '../probes/registry/rdap.js';
import type { Bootstrap } from '../probes/registry/bootstrap.js';
import type { ConnectionSettings } from '../probes/tls/settings.js';
import type { Outbound } from '../probes/outbound.js';
import type { Metrics } from '../platform/metrics.js';
import type { DnsCache } from './dns-cache.js';
import type { IpFactsCache } from './ip-facts-cache.js';
import type { RegistryCache } from './registry-cache.js';

/**
 * The ports of the protocols spoken with a caller's targets: DNS to authoritative servers 53, HTTP 80,
 * HTTPS 443, SMTP with MX hosts 25. Fixed in production; the test labs point them at their own ports.
 */
export interface WellKnownPorts {
  readonly dnsAuthoritative: number;
  readonly http: number;
  readonly https: number;
  readonly smtp: number;
}

/** What the check context uses of the long-lived services: the probes, caches and limits, nothing else. */
export interface LoaderDependencies {
  readonly config: Config;
  readonly now: () => number;
  readonly metrics: Metrics;
  readonly outbound: Outbound;
  readonly dnsClient: DnsClient;
  readonly dnsCache: DnsCache;
  /** `dns.system`, or the operating system's resolvers when that is empty */
  readonly systemResolvers: readonly HostPort[];
  readonly ports: WellKnownPorts;
  readonly connections: ConnectionSettings;
  readonly ipData: IpDataSource;
  readonly ipFactsCache: IpFactsCache;
  readonly rdapBootstrap: Bootstrap | null;
  readonly rdapClient: RdapClient | null;
  readonly registryCache: RegistryCache;
  /** the ping executable */
  readonly pingPath: string;
}
