/**
 * How the API side of an instance and the process that runs its monitors tell each other what happened,
 * by push (docs/monitors.md "Where monitors run"), as jobs do (src/jobs/job-bus.ts): the API side says a
 * monitor's schedule changed (created, run now, a new `every`), so the schedule re-arms its timer; the
 * runner says a monitor has new events, so the event streams following it read them. In one process both
 * ends are one object; in a multi-process instance the messages go over the IPC channels through the
 * primary (src/cluster/job-worker-process.ts relays them). A lost message only delays: the store is the
 * truth, and streams read it again now and then.
 */

/** The API side's end. */
export interface ApiMonitorBus {
  /** a schedule was written: the runner's schedule looks at its earliest due time again */
  scheduled(monitorId: string): void;
  /** calls `listener` with each monitor that has new events; returns the call that stops it */
  onEvents(listener: (monitorId: string) => void): () => void;
}

/** The runner's end. */
export interface RunnerMonitorBus {
  onScheduled(listener: (monitorId: string) => void): void;
  events(monitorId: string): void;
}

/** The messages of the IPC channels (API worker → primary → job worker, and back to every API worker). */
export type MonitorBusMessage =
  | { readonly netdiagMonitors: 'scheduled'; readonly id: string }
  | { readonly netdiagMonitors: 'events'; readonly id: string };

export function isMonitorBusMessage(message: unknown): message is MonitorBusMessage {
  const m = message as Partial<MonitorBusMessage> | null;
  return typeof m?.id === 'string' && (m.netdiagMonitors === 'scheduled' || m.netdiagMonitors === 'events');
}

/** The side of an IPC channel a forked process holds: Node's `process`. */
export interface MonitorChannel {
  send?(message: unknown): unknown;
  on(event: 'message', listener: (message: unknown) => void): unknown;
}

function listeners() {
  const set = new Set<(id: string) => void>();
  return {
    add(listener: (id: string) => void): () => void {
      set.add(listener);
      return () => set.delete(listener);
    },
    emit(id: string): void {
      for (const listener of set) listener(id);
    },
  };
}

/** Both ends in one process: the monitors run here. */
export function localMonitorBus(): ApiMonitorBus & RunnerMonitorBus {
  const scheduled = listeners();
  const events = listeners();
  return {
    scheduled: (id) => scheduled.emit(id),
    onEvents: (listener) => events.add(listener),
    onScheduled: (listener) => void scheduled.add(listener),
    events: (id) => events.emit(id),
  };
}

function sender(channel: MonitorChannel) {
  return (message: MonitorBusMessage) => {
    try {
      channel.send?.(message);
    } catch {
      // the primary is gone: the instance is stopping, and the store is read again at the next start
    }
  };
}

/** An API worker's end, over its channel to the primary. */
export function ipcApiMonitorBus(channel: MonitorChannel): ApiMonitorBus {
  const events = listeners();
  channel.on('message', (message) => {
    if (isMonitorBusMessage(message) && message.netdiagMonitors === 'events') events.emit(message.id);
  });
  const send = sender(channel);
  return {
    scheduled: (id) => send({ netdiagMonitors: 'scheduled', id }),
    onEvents: (listener) => events.add(listener),
  };
}

/** The job worker's end, over its channel to the primary. */
export function ipcRunnerMonitorBus(channel: MonitorChannel): RunnerMonitorBus {
  const scheduled = listeners();
  channel.on('message', (message) => {
    if (isMonitorBusMessage(message) && message.netdiagMonitors === 'scheduled') scheduled.emit(message.id);
  });
  const send = sender(channel);
  return {
    onScheduled: (listener) => void scheduled.add(listener),
    events: (id) => send({ netdiagMonitors: 'events', id }),
  };
}
