/**
 * One Redis pub/sub channel that every instance on one Redis publishes on and listens to: the buses
 * between instances (src/jobs/redis/redis-job-bus.ts, src/monitors/runtime/redis-monitor-bus.ts) are
 * messages on one. A message while disconnected is dropped rather than queued: the stores are the truth,
 * and what listens reads them again now and then. The listening connection is opened when the first
 * listener is added (a subscribed connection can do nothing else); the client library is loaded with the
 * channel, not with this module (./redis.ts).
 */
import type { Redis } from 'ioredis';
import type { Logger } from '../log.js';
import { loadRedisClient, REDIS_CONNECT_TIMEOUT_MS, REDIS_MAX_RECONNECT_DELAY_MS } from './redis.js';

export interface RedisChannel {
  /** sends `message` (as JSON) to every instance's listeners, this one's included; never throws */
  publish(message: unknown): void;
  /** calls `listener` with each message parsed from JSON (what is not JSON is dropped) */
  listen(listener: (message: unknown) => void): void;
  close(): Promise<void>;
}

export function createRedisChannel(
  redisUrl: string,
  channel: string,
  options: { logger: Logger; subscribeFailed: string },
): RedisChannel {
  const connection = {
    connectTimeout: REDIS_CONNECT_TIMEOUT_MS,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    retryStrategy: (times: number) => Math.min(times * 100, REDIS_MAX_RECONNECT_DELAY_MS),
  };
  const library = loadRedisClient();
  const publisher = library.then((Redis) => {
    const client = new Redis(redisUrl, connection);
    client.on('error', () => undefined); // the store's connection reports Redis being down
    return client;
  });
  let subscriber: Promise<Redis> | null = null;
  const listeners = new Set<(message: unknown) => void>();

  function listenOn(client: Redis): void {
    client.on('error', () => undefined);
    const subscribe = () =>
      client
        .subscribe(channel)
        .catch((e: unknown) => options.logger.error(options.subscribeFailed, { message: (e as Error).message }));
    // at each (re)connection: a subscription asked for while Redis was away failed, and ioredis renews only
    // those that were made
    client.on('ready', () => void subscribe());
    client.on('message', (_channel: string, text: string) => {
      let message: unknown;
      try {
        message = JSON.parse(text);
      } catch {
        return;
      }
      for (const listener of listeners) listener(message);
    });
  }

  return {
    publish(message) {
      void publisher.then((client) => client.publish(channel, JSON.stringify(message))).catch(() => undefined);
    },
    listen(listener) {
      listeners.add(listener);
      if (subscriber) return;
      subscriber = library.then((Redis) => new Redis(redisUrl, { ...connection, enableOfflineQueue: true }));
      void subscriber.then(listenOn);
    },
    async close() {
      (await subscriber)?.disconnect(false);
      (await publisher).disconnect(false);
    },
  };
}
