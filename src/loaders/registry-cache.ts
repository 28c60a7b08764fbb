/**
 * Cross-request cache of registration look-ups (decisions §9: WHOIS/RDAP 1 h), keyed by the
 * registrable domain that was queried, so `www.example.com` and `example.com` share one entry.
 * Bounded in entries and in bytes: a WHOIS answer may be 256 KiB.
 *
 * Failures are never kept (nothing is stored when the look-up throws). A partial answer — a
 * server of the chain failed, timed out, refused or rate-limited us, or an answer was cut short —
 * is kept for PARTIAL_TTL_MS only: long enough that a burst of requests does not hammer a
 * registrar that is already rate-limiting us, short enough that the full answer comes back soon.
 *
 * With `store.redisUrl` the entries are also kept in Redis (src/platform/shared-cache.ts), so one
 * look-up serves every instance: a hit saves a slow WHOIS hop, and registries throttle
 * per source address, so N instances asking separately would spend N times that budget. Redis
 * trouble is only a miss (the look-up runs as it would without the cache).
 */
import type { RedisConnection } from '../platform/redis.js';
import { createSharedCache } from '../platform/shared-cache.js';
import type { RegistryResult } from '../probes/registry/lookup.js';
import { canonicalName } from '../net/dns-name.js';

export const REGISTRY_TTL_MS = 3600 * 1000;
export const PARTIAL_TTL_MS = 5 * 60 * 1000;

export interface CachedRegistration {
  readonly result: RegistryResult;
  /** when the registry answered (ms since the epoch, the service clock) */
  readonly fetchedAt: number;
  /** false when a server of the chain failed or the answer was cut short (kept PARTIAL_TTL_MS) */
  readonly complete: boolean;
}

export interface RegistryCache {
  get(matchedDomain: string): Promise<CachedRegistration | undefined>;
  /** keeps the entry here at once; the Redis copy follows in the background */
  set(matchedDomain: string, entry: CachedRegistration): void;
}

export interface RegistryCacheOptions {
  maxEntries?: number;
  /** bound of the cached text, in bytes (UTF-16 in memory: two per character) */
  maxBytes?: number;
  /** the service clock (Services.now), so tests can move time (the in-process tier; Redis keeps its own time) */
  now?: () => number;
  /** shared by the instances when `store.redisUrl` is set */
  redis?: RedisConnection | null;
}

/** In-memory size of an entry: its strings at two bytes a character, plus a fixed overhead. */
export function registrationBytes(result: RegistryResult): number {
  const strings = [
    result.domain,
    result.matchedDomain,
    result.registrar,
    result.creationDate,
    result.expiryDate,
    result.updatedDate,
    result.abuseEmail,
    result.abusePhone,
    result.message,
    result.raw,
    ...result.nameServers,
    ...result.servers,
  ];
  return 512 + 2 * strings.reduce((sum, s) => sum + (s?.length ?? 0), 0);
}

const key = (matchedDomain: string): string => canonicalName(matchedDomain);

export function createRegistryCache(options: RegistryCacheOptions = {}): RegistryCache {
  const cache = createSharedCache<CachedRegistration>(options.redis ?? null, {
    namespace: 'registry:v1',
    maxEntries: options.maxEntries ?? 10_000,
    maxBytes: options.maxBytes ?? 64 * 1024 * 1024,
    sizeOf: (entry) => registrationBytes(entry.result),
    // a 256 KiB WHOIS answer (decisions §8) grows in JSON by its escaped line ends
    maxValueBytes: 1024 * 1024,
    // The service clock when given, so that expiry follows Services.now.
    ...(options.now ? { now: options.now } : {}),
  });
  return {
    get: (matchedDomain) => cache.get(key(matchedDomain)),
    set(matchedDomain, entry) {
      void cache.set(key(matchedDomain), entry, entry.complete ? REGISTRY_TTL_MS : PARTIAL_TTL_MS);
    },
  };
}
