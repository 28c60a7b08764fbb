/** Builds the long-lived services from the configuration (production wiring; tests may override parts). */
import { createOutbound } from './probes/outbound.js';
import { createAdmission, eventLoopDelaySensor, type LoopDelaySensor } from './platform/admission.js';
import { createDnsCache } from './loaders/dns-cache.js';
import { connectionSettings, type ConnectionSettings } from './probes/tls/settings.js';
import type { Config } from './config.js';
import type { Logger } from './log.js';
import { createDnsClient, OWN_RESOLVER_LABEL, systemResolvers } from './probes/dns/client.js';
import { createIpDataSource, type IpDataSource } from './probes/ipdata/source.js';
import { createIpFactsCache } from './loaders/ip-facts-cache.js';
import { loadBootstrapFile } from './probes/registry/bootstrap.js';
import { createRegistryCache } from './loaders/registry-cache.js';
import { createRdapClient, type RdapClient } from './probes/registry/rdap.js';
import { createGuardedRdapDispatcher } from './probes/registry/rdap-dispatcher.js';
import { createTargetGuard } from './probes/guard.js';
import { createKeyring, loadOrCreateSecret } from './platform/keys.js';
import { createMemoryQuotaStore, type QuotaStore } from './platform/quota.js';
import type { LedgerName } from './cluster/ledger-ipc.js';
import { createRedisQuotaStore } from './platform/quota-redis.js';
import { connectRedis } from './platform/redis.js';
import { ledgerPolicies } from './platform/ledger-policies.js';
import { createMetrics } from './platform/metrics.js';
import { restRoutes } from './rest/routes.js';
import type { Services } from './services.js';

export interface ServiceOverrides {
  now?: () => number;
  /** test seam: the lab root as trust anchor, shorter connect/handshake bounds (default: Node's store, 5 s each) */
  connections?: Partial<ConnectionSettings>;
  /** tests: a stand-in IP data source */
  ipData?: IpDataSource;
  /** test seam: the port authoritative name servers are asked on (dns-propagation), default 53; tests give their lab's */
  dnsAuthoritativePort?: number;
  /** test seam: a stand-in ping executable (default 'ping'); the real one may only ever ping loopback in tests */
  pingPath?: string;
  /** test seam: the ports website-health-check treats as HTTP and HTTPS (default 80 and 443); tests give their labs' */
  webPorts?: { http: number; https: number };
  /** test seam: the port mailhealth-check talks SMTP on with MX hosts (default 25); tests give their lab's */
  smtpPort?: number;
  /**
   * test seam: how late the event loop runs, as admission reads it (src/platform/admission.ts); in-process
   * test apps pass NO_LOOP_DELAY_SENSOR, so that a busy test machine sheds nothing and no timer runs per app
   */
  loopDelaySensor?: LoopDelaySensor;
  /** the credit ledgers held elsewhere (a worker asking its primary, src/cluster/ledger-ipc.ts) */
  ledgers?: Readonly<Record<LedgerName, QuotaStore>>;
}

export async function createServices(
  config: Config,
  logger: Logger,
  overrides: ServiceOverrides = {},
): Promise<Services> {
  const now = overrides.now ?? Date.now;
  const secret = loadOrCreateSecret(config.auth.secret, config.server.dataDir);
  const keyring = createKeyring({ staticKeys: config.auth.keys, secret, revoked: config.auth.revoked });
  const ipData =
    overrides.ipData ??
    createIpDataSource({
      source: config.ipInfo.source,
      database: config.ipInfo.database,
      dataDir: config.server.dataDir,
      token: config.ipInfo.token,
      baseUrl: config.ipInfo.baseUrl,
      timeoutMs: config.http.timeoutMs,
    });
  // Read once, before anything connects: an unreadable or invalid file refuses the start (ConfigError naming the path).
  const rdapBootstrap = config.rdap.enabled ? loadBootstrapFile(config.rdap.bootstrapFile ?? undefined) : null;
  // With store.redisUrl the ledgers live in Redis, shared by every instance (decisions §11); they use
  // Redis' clock unless a test injects one.
  const redis = config.store.redisUrl ? await connectRedis(config.store.redisUrl, { logger }) : null;
  const policies = ledgerPolicies(config);
  const redisClock = overrides.now ? { now: overrides.now } : {};
  const held = overrides.ledgers;
  const quota =
    held?.quota ??
    (redis ? createRedisQuotaStore(redis, policies.quota, redisClock) : createMemoryQuotaStore(policies.quota, now));
  const issueLedger =
    held?.issue ??
    (redis
      ? createRedisQuotaStore(redis, policies.issue, { ...redisClock, prefix: 'netdiag:issue:' })
      : createMemoryQuotaStore(policies.issue, now));
  const unkeyedLedger =
    held?.unkeyed ??
    (redis
      ? createRedisQuotaStore(redis, policies.unkeyed, { ...redisClock, prefix: 'netdiag:unkeyed:' })
      : createMemoryQuotaStore(policies.unkeyed, now));
  const admission = createAdmission(config.admission, overrides.loopDelaySensor ?? eventLoopDelaySensor());
  const metrics = createMetrics({ tools: restRoutes.keys() });
  metrics.watchAdmission(admission.state);
  return {
    config,
    keyring,
    admission,
    outbound: createOutbound(),
    quota,
    issueLedger,
    unkeyedLedger,
    secret,
    logger,
    metrics,
    now,
    dnsClient: createDnsClient({ timeoutMs: config.dns.timeoutMs }),
    dnsCache: createDnsCache(),
    systemResolvers: (config.dns.system.length > 0 ? config.dns.system : systemResolvers()).map((server) => ({
      ...server,
      label: OWN_RESOLVER_LABEL,
    })),
    ipData,
    ipFactsCache: createIpFactsCache(),
    rdapBootstrap,
    rdapClient: config.rdap.enabled ? createGuardedRdapClient(config.targets.allow) : null,
    registryCache: createRegistryCache({ ...(overrides.now ? { now: overrides.now } : {}), redis }),
    pingPath: overrides.pingPath ?? 'ping',
    ports: {
      dnsAuthoritative: overrides.dnsAuthoritativePort ?? 53,
      http: overrides.webPorts?.http ?? 80,
      https: overrides.webPorts?.https ?? 443,
      smtp: overrides.smtpPort ?? 25,
    },
    connections: connectionSettings({
      connectTimeoutMs: config.tcp.connectTimeoutMs,
      handshakeTimeoutMs: config.tls.handshakeTimeoutMs,
      ...overrides.connections,
    }),
    // config loaded (we are running) and, when configured, Redis reachable: for /readyz
    ready: async () => (redis ? redis.ready() : { ok: true }),
    async close() {
      admission.close();
      await quota.close();
      await issueLedger.close();
      await unkeyedLedger.close();
      await redis?.close();
    },
  };
}

/** RDAP through the special-purpose address check (registry links and redirects are upstream text). */
function createGuardedRdapClient(allow: readonly string[]): RdapClient {
  const guard = createTargetGuard({
    allow,
    resolve: () => Promise.reject(new Error('the RDAP guard only checks addresses')),
  });
  const assertAllowed = (address: string, target: string) => guard.assertAllowed(address, target);
  return createRdapClient({ dispatcher: createGuardedRdapDispatcher(assertAllowed), assertAllowed });
}
