/**
 * Cross-request cache of IP facts (decisions §9: IP data 24 h), bounded in entries. Facts that came
 * from a fallback after a live failure are not kept: the next request tries the live source again.
 */
import { LRUCache } from 'lru-cache';
import type { IpFacts } from '../probes/ipdata/facts.js';

export const IP_FACTS_TTL_MS = 24 * 3600 * 1000;

export interface IpFactsCache {
  get(ip: string): IpFacts | undefined;
  set(facts: IpFacts): void;
}

export function createIpFactsCache(maxEntries = 50_000): IpFactsCache {
  const cache = new LRUCache<string, IpFacts>({ max: maxEntries, ttl: IP_FACTS_TTL_MS });
  return {
    get: (ip) => cache.get(ip),
    set(facts) {
      if (facts.liveError === null) cache.set(facts.ip, facts);
    },
  };
}
