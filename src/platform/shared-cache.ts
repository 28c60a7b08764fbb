/**
 * A cross-request cache that several instances can share (decisions §9, §11), for answers whose
 * upstream question is slow or rate-limited: WHOIS/RDAP (slow per hop, and registries throttle per
 * source address, so N instances asking separately would spend N times the budget). A Redis hit costs
 * far less than a WHOIS hop but more than a DNS answer (the system resolver is already a shared cache) or
 * a lookup in the bundled IP data: so only WHOIS/RDAP answers are shared (bench/redis-cache-cost.ts;
 * the figures: docs/performance.md "Measured reasons behind design choices").
 *
 * Two tiers: an in-process LRU (bounded in entries and bytes) answers repeats for free; on a local
 * miss Redis is asked (GET + PTTL in one round trip) and a hit is kept locally for the time Redis
 * still has it. Without Redis it is the local tier alone. A cache never decides an answer: when
 * Redis is down or holds something unreadable, `get` reports a miss and `set` keeps the value locally —
 * the caller asks upstream as it would anyway (unlike the credit ledger, which fails closed).
 */
import { LRUCache } from 'lru-cache';
import type { RedisConnection } from './redis.js';

export const SHARED_CACHE_KEY_PREFIX = 'netdiag:cache:';

export interface SharedCache<T> {
  /** the value, or undefined on a miss (or when Redis cannot be asked) */
  get(key: string): Promise<T | undefined>;
  /** keeps `value` for `ttlMs`; resolves once Redis took it or failed to (never rejects) — callers need not await it */
  set(key: string, value: T, ttlMs: number): Promise<void>;
}

export interface SharedCacheOptions<T> {
  /** names this cache's Redis keys; include a format version ("registry:v1") so a deploy that changes the shape starts afresh */
  namespace: string;
  /** bounds of the in-process tier */
  maxEntries: number;
  maxBytes: number;
  /** a value whose JSON is larger is not cached at all (default 512 KiB) */
  maxValueBytes?: number;
  /** what an entry counts against maxBytes (default: the bytes of its JSON) */
  sizeOf?: (value: T) => number;
  /** test seam: the local tier's clock (ms) */
  now?: () => number;
}

interface LocalEntry<T> {
  readonly value: T;
  readonly bytes: number;
}

export function createSharedCache<T>(redis: RedisConnection | null, options: SharedCacheOptions<T>): SharedCache<T> {
  const maxValueBytes = options.maxValueBytes ?? 512 * 1024;
  const local = new LRUCache<string, LocalEntry<T>>({
    max: options.maxEntries,
    maxSize: options.maxBytes,
    sizeCalculation: (entry, key) =>
      Math.max(1, (options.sizeOf ? options.sizeOf(entry.value) : entry.bytes) + key.length),
    // an injected clock is read on every check (lru-cache otherwise reuses a reading for 1 ms)
    ...(options.now ? { perf: { now: options.now }, ttlResolution: 0 } : {}),
  });
  const redisKey = (key: string) => `${SHARED_CACHE_KEY_PREFIX}${options.namespace}:${key}`;

  const fromRedis = async (key: string): Promise<T | undefined> => {
    if (!redis) return undefined;
    let replies: Array<[Error | null, unknown]> | null;
    try {
      replies = await redis.run((client) => client.pipeline().get(redisKey(key)).pttl(redisKey(key)).exec());
    } catch {
      return undefined;
    }
    const [json, ttl] = replies ?? [];
    if (!json || json[0] || typeof json[1] !== 'string' || !ttl || ttl[0] || typeof ttl[1] !== 'number')
      return undefined;
    let value: T;
    try {
      value = JSON.parse(json[1]) as T;
    } catch {
      return undefined;
    }
    // PTTL -1 (no expiry) cannot come from set(); trust only a positive remaining time.
    if (ttl[1] > 0) local.set(key, { value, bytes: Buffer.byteLength(json[1]) }, { ttl: ttl[1] });
    return value;
  };

  return {
    async get(key) {
      return local.get(key)?.value ?? fromRedis(key);
    },
    async set(key, value, ttlMs) {
      const ttl = Math.floor(ttlMs);
      if (ttl <= 0) return;
      const json = JSON.stringify(value);
      const bytes = Buffer.byteLength(json);
      if (bytes > maxValueBytes) return;
      local.set(key, { value, bytes }, { ttl });
      if (!redis) return;
      try {
        await redis.run((client) => client.set(redisKey(key), json, 'PX', ttl));
      } catch {
        // Redis down: the value stays in this instance's tier; the others ask upstream themselves.
      }
    },
  };
}
