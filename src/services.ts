/**
 * Everything a request may use that outlives it: configuration, the keyring, the credit ledger,
 * the logger, the probes and the cross-request caches. Built once in create-services.ts (from
 * main.ts, the composition root); tests build their own with loopback upstreams.
 */
import type { Config } from './config.js';
import type { DnsCache } from './loaders/dns-cache.js';
import type { ConnectionSettings } from './probes/tls/settings.js';
import type { Logger } from './log.js';
import type { Metrics } from './platform/metrics.js';
import type { DnsClient } from './probes/dns/client.js';
import type { DnsServer } from './probes/dns/types.js';
import type { IpDataSource } from './probes/ipdata/source.js';
import type { IpFactsCache } from './loaders/ip-facts-cache.js';
import type { Bootstrap } from './probes/registry/bootstrap.js';
import type { RegistryCache } from './loaders/registry-cache.js';
import type { RdapClient } from './probes/registry/rdap.js';
import type { QuotaStore } from './platform/quota.js';
import type { Keyring } from './platform/keys.js';
import type { Admission } from './platform/admission.js';
import type { Outbound } from './probes/outbound.js';
import type { LoaderDependencies, WellKnownPorts } from './loaders/dependencies.js';

export interface Services extends LoaderDependencies {
  readonly config: Config;
  readonly keyring: Keyring;
  /** check requests in flight and waiting, per key and per process (src/platform/admission.ts) */
  readonly admission: Admission;
  /** process-wide caps on upstream questions in flight, and coalescing of identical ones (src/probes/outbound.ts) */
  readonly outbound: Outbound;
  readonly quota: QuotaStore;
  /** key issuance on the developer page, by client address: `auth.issuePerIpPerDay` per rolling 24 h (decisions §10) */
  readonly issueLedger: QuotaStore;
  /** requests without a key, by client address: `unkeyed.requests` per rolling `unkeyed.windowSeconds` (docs/keys-and-limits.md "Abuse limits") */
  readonly unkeyedLedger: QuotaStore;
  /** `auth.secret` or the generated one: signs issued keys and the developer page's form tokens */
  readonly secret: string;
  readonly logger: Logger;
  /** Prometheus counters and histograms of this instance (its own registry), served at /metrics */
  readonly metrics: Metrics;
  readonly now: () => number;
  readonly dnsClient: DnsClient;
  readonly dnsCache: DnsCache;
  /** `dns.system`, or the operating system's resolvers when that is empty, labelled as the service's own */
  readonly systemResolvers: readonly DnsServer[];
  /** trust anchors and time bounds of the TLS and TCP connection checks */
  readonly connections: ConnectionSettings;
  /** IP → ASN / country facts (bundled database, operator MMDB or IPinfo Lite) */
  readonly ipData: IpDataSource & { warm?(): Promise<void> };
  /** cross-request cache of IP facts (decisions §9: 24 h) */
  readonly ipFactsCache: IpFactsCache;
  /** the IANA RDAP bootstrap (`rdap.bootstrapFile` or the bundled copy), read once at start; null when `rdap.enabled` is false */
  readonly rdapBootstrap: Bootstrap | null;
  /** the RDAP client; null when `rdap.enabled` is false */
  readonly rdapClient: RdapClient | null;
  /** cross-request cache of registration look-ups (decisions §9: 1 h; partial answers 5 min) */
  readonly registryCache: RegistryCache;
  /** the ping executable: 'ping' (iputils-ping, through the default PATH); a test seam, ServiceOverrides.pingPath */
  readonly pingPath: string;
  /** the ports spoken with targets (53, 80, 443, 25; ServiceOverrides point them at test labs) */
  readonly ports: WellKnownPorts;
  /** readiness (for /readyz): configuration loaded, and Redis reachable when `store.redisUrl` is set */
  ready(): Promise<{ ok: boolean; reason?: string }>;
  /** releases timers, sockets and stores */
  close(): Promise<void>;
}
