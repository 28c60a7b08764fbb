/**
 * The job bus on Redis (../job-bus.ts): one channel, `netdiag:jobs:bus`, that every instance publishes
 * its submissions, cancellations and changes on and listens to, so that a runner on any instance hears of
 * a new job at once and an event stream on any instance follows items run on another. The listening
 * connection is opened when the first listener is added (a subscribed connection can do nothing else).
 */
import type { Redis } from 'ioredis';
import type { Logger } from '../../log.js';
import { loadRedisClient, REDIS_CONNECT_TIMEOUT_MS, REDIS_MAX_RECONNECT_DELAY_MS } from '../../platform/redis.js';
import { isJobBusMessage, type ApiJobBus, type JobBusMessage, type JobChange, type RunnerJobBus } from '../job-bus.js';
import { BUS_CHANNEL } from './redis-job-keys.js';

export interface RedisJobBus extends ApiJobBus, RunnerJobBus {
  close(): Promise<void>;
}

export function createRedisJobBus(redisUrl: string, logger: Logger): RedisJobBus {
  const options = {
    connectTimeout: REDIS_CONNECT_TIMEOUT_MS,
    // a message while disconnected is dropped rather than queued: the stores are the truth, and the
    // runners' own top-up and the streams' keep-alive read them again
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    retryStrategy: (times: number) => Math.min(times * 100, REDIS_MAX_RECONNECT_DELAY_MS),
  };
  // the client library is loaded with the bus, not with this module (../../platform/redis.ts)
  const library = loadRedisClient();
  const publisher = library.then((Redis) => {
    const client = new Redis(redisUrl, options);
    client.on('error', () => undefined); // the store's connection reports Redis being down
    return client;
  });
  let subscriber: Promise<Redis> | null = null;
  const handlers = { submitted: new Set<(id: string) => void>(), cancel: new Set<(id: string) => void>() };
  const changes = new Set<(change: JobChange) => void>();

  function listen(): void {
    if (subscriber) return;
    subscriber = library.then((Redis) => new Redis(redisUrl, { ...options, enableOfflineQueue: true }));
    void subscriber.then((client) => listenOn(client));
  }

  function listenOn(client: Redis): void {
    client.on('error', () => undefined);
    client
      .subscribe(BUS_CHANNEL)
      .catch((e: unknown) => logger.error('job_bus_subscribe_failed', { message: (e as Error).message }));
    client.on('message', (_channel: string, text: string) => {
      let message: unknown;
      try {
        message = JSON.parse(text);
      } catch {
        return;
      }
      if (!isJobBusMessage(message)) return;
      if (message.netdiagJobs === 'changed') for (const listener of changes) listener(message);
      else for (const listener of handlers[message.netdiagJobs]) listener(message.id);
    });
  }

  const publish = (message: JobBusMessage) =>
    void publisher.then((client) => client.publish(BUS_CHANNEL, JSON.stringify(message))).catch(() => undefined);

  return {
    submitted: (id) => publish({ netdiagJobs: 'submitted', id }),
    cancel: (id) => publish({ netdiagJobs: 'cancel', id }),
    changed: (change) => publish({ netdiagJobs: 'changed', id: change.id, ended: change.ended }),
    onChange(listener) {
      listen();
      changes.add(listener);
      return () => changes.delete(listener);
    },
    onSubmitted(listener) {
      listen();
      handlers.submitted.add(listener);
    },
    onCancel(listener) {
      listen();
      handlers.cancel.add(listener);
    },
    async close() {
      (await subscriber)?.disconnect(false);
      (await publisher).disconnect(false);
    },
  };
}
