/**
 * The cross-request DNS answer cache (decisions §9): an answer is kept for its TTL (negative answers
 * for their SOA minimum, RFC 2308), at most 300 s, bounded in entries and bytes. Failures are never
 * cached: the next request asks again.
 */
import { LRUCache } from 'lru-cache';
import { responseTtl, type DnsResponse } from '../probes/dns/client.js';

export const DNS_CACHE_MAX_TTL_SECONDS = 300;

export interface DnsCache {
  get(key: string): DnsResponse | undefined;
  set(key: string, response: DnsResponse): void;
  /** forget every answer (benchmarks; an operator's cache flush) */
  clear(): void;
}

export function createDnsCache(options: { maxEntries?: number; maxBytes?: number; now?: () => number } = {}): DnsCache {
  const cache = new LRUCache<string, DnsResponse>({
    max: options.maxEntries ?? 20_000,
    maxSize: options.maxBytes ?? 32 * 1024 * 1024,
    // A rough byte size: the answer's JSON plus the key; good enough to bound memory.
    sizeCalculation: (value, key) => JSON.stringify(value).length + key.length,
    ttlAutopurge: false,
    ...(options.now ? { perf: { now: options.now } } : {}),
  });
  return {
    get: (key) => cache.get(key),
    clear: () => cache.clear(),
    set(key, response) {
      const ttl = Math.min(responseTtl(response), DNS_CACHE_MAX_TTL_SECONDS);
      if (ttl > 0) cache.set(key, response, { ttl: ttl * 1000 });
    },
  };
}
