/**
 * The job bus on Redis (../job-bus.ts): one channel, `netdiag:jobs:bus` (../../platform/redis-channel.ts),
 * that every instance publishes its submissions, cancellations and changes on and listens to, so that a
 * runner on any instance hears of a new job at once and an event stream on any instance follows items run
 * on another.
 */
import type { Logger } from '../../log.js';
import { createRedisChannel } from '../../platform/redis-channel.js';
import { isJobBusMessage, type ApiJobBus, type JobBusMessage, type JobChange, type RunnerJobBus } from '../job-bus.js';
import { BUS_CHANNEL } from './redis-job-keys.js';

export interface RedisJobBus extends ApiJobBus, RunnerJobBus {
  close(): Promise<void>;
}

export function createRedisJobBus(redisUrl: string, logger: Logger): RedisJobBus {
  const channel = createRedisChannel(redisUrl, BUS_CHANNEL, { logger, subscribeFailed: 'job_bus_subscribe_failed' });
  const handlers = { submitted: new Set<(id: string) => void>(), cancel: new Set<(id: string) => void>() };
  const changes = new Set<(change: JobChange) => void>();
  let listening = false;

  function listen(): void {
    if (listening) return;
    listening = true;
    channel.listen((message) => {
      if (!isJobBusMessage(message)) return;
      if (message.netdiagJobs === 'changed') for (const listener of changes) listener(message);
      else for (const listener of handlers[message.netdiagJobs]) listener(message.id);
    });
  }

  const publish = (message: JobBusMessage) => channel.publish(message);

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
    close: () => channel.close(),
  };
}
