/**
 * The monitors' bus between instances on one Redis (./monitor-bus.ts; docs/monitors.md "Where monitors
 * run"): one pub/sub channel, `netdiag:monitors:bus`, as the jobs' (src/jobs/redis/redis-job-bus.ts).
 * A runner on any instance says a monitor has new events, and the event streams of every process of every
 * instance read them. In Redis mode every process listens on the channel itself, the job worker and each
 * API worker alike: simpler than relaying through the primary as well, and one path for a run done on this
 * instance or on another. "scheduled" needs no message here: the due times are BullMQ's delayed jobs in
 * Redis, which every instance's worker takes when they are due.
 */
import type { Logger } from '../../log.js';
import { createRedisChannel } from '../../platform/redis-channel.js';
import { isMonitorBusMessage, type ApiMonitorBus, type RunnerMonitorBus } from './monitor-bus.js';

export const MONITOR_BUS_CHANNEL = 'netdiag:monitors:bus';

export interface RedisMonitorBus extends ApiMonitorBus, RunnerMonitorBus {
  close(): Promise<void>;
}

export function createRedisMonitorBus(redisUrl: string, logger: Logger): RedisMonitorBus {
  const channel = createRedisChannel(redisUrl, MONITOR_BUS_CHANNEL, {
    logger,
    subscribeFailed: 'monitor_bus_subscribe_failed',
  });
  const events = new Set<(id: string) => void>();
  let listening = false;
  return {
    // the schedule is BullMQ's, shared in Redis: nothing to tell
    scheduled: () => undefined,
    onScheduled: () => undefined,
    events: (id) => channel.publish({ netdiagMonitors: 'events', id }),
    onEvents(listener) {
      if (!listening) {
        listening = true;
        channel.listen((message) => {
          if (isMonitorBusMessage(message) && message.netdiagMonitors === 'events')
            for (const each of events) each(message.id);
        });
      }
      events.add(listener);
      return () => events.delete(listener);
    },
    close: () => channel.close(),
  };
}
