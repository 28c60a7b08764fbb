/**
 * How the API side of an instance and the runner of its jobs tell each other what happened, by push
 * (docs/jobs.md "Where items run"): the API side says a job was submitted or a cancellation asked, the
 * runner says a job's written state moved on (items written, a status change, its end), and the API
 * side's event streams follow it. In one process the two sides are one object (`localJobBus`); in a
 * multi-process instance the messages go over the IPC channels through the primary
 * (src/cluster/job-worker-process.ts relays them: API workers ↔ the job worker); with Redis, changes are
 * published on a Redis channel (./redis/redis-job-bus.ts) and new items reach the runners through
 * the queue itself.
 */

export interface JobChange {
  readonly id: string;
  /** the job has ended: its `end` event can be sent */
  readonly ended: boolean;
}

/** The API side's end. */
export interface ApiJobBus {
  submitted(id: string): void;
  cancel(id: string): void;
  /** calls `listener` with every change; returns the call that stops it */
  onChange(listener: (change: JobChange) => void): () => void;
}

/** The runner's end. */
export interface RunnerJobBus {
  onSubmitted(listener: (id: string) => void): void;
  onCancel(listener: (id: string) => void): void;
  changed(change: JobChange): void;
}

/** The messages of the IPC channels (API worker → primary → job worker, and back to every API worker). */
export type JobBusMessage =
  | { readonly netdiagJobs: 'submitted'; readonly id: string }
  | { readonly netdiagJobs: 'cancel'; readonly id: string }
  | { readonly netdiagJobs: 'changed'; readonly id: string; readonly ended: boolean };

export function isJobBusMessage(message: unknown): message is JobBusMessage {
  const m = message as Partial<JobBusMessage> | null;
  return (
    typeof m?.netdiagJobs === 'string' &&
    typeof m.id === 'string' &&
    (m.netdiagJobs === 'submitted' || m.netdiagJobs === 'cancel' || m.netdiagJobs === 'changed')
  );
}

/** The side of an IPC channel a forked process holds: Node's `process`. */
export interface ParentChannel {
  send?(message: unknown): unknown;
  on(event: 'message', listener: (message: unknown) => void): unknown;
}

function listeners<T>() {
  const set = new Set<(value: T) => void>();
  return {
    add(listener: (value: T) => void): () => void {
      set.add(listener);
      return () => set.delete(listener);
    },
    emit(value: T): void {
      for (const listener of set) listener(value);
    },
  };
}

/** Both ends in one process: the runner runs here. */
export function localJobBus(): ApiJobBus & RunnerJobBus {
  const submitted = listeners<string>();
  const cancelled = listeners<string>();
  const changes = listeners<JobChange>();
  return {
    submitted: (id) => submitted.emit(id),
    cancel: (id) => cancelled.emit(id),
    onChange: (listener) => changes.add(listener),
    onSubmitted: (listener) => void submitted.add(listener),
    onCancel: (listener) => void cancelled.add(listener),
    changed: (change) => changes.emit(change),
  };
}

/** An API worker's end, over its channel to the primary. A lost message only delays: the store is the truth. */
export function ipcApiJobBus(channel: ParentChannel): ApiJobBus {
  const changes = listeners<JobChange>();
  channel.on('message', (message) => {
    if (isJobBusMessage(message) && message.netdiagJobs === 'changed')
      changes.emit({ id: message.id, ended: message.ended });
  });
  const send = (message: JobBusMessage) => {
    try {
      channel.send?.(message);
    } catch {
      // the primary is gone: the instance is stopping, and the job worker reads the store when it starts
    }
  };
  return {
    submitted: (id) => send({ netdiagJobs: 'submitted', id }),
    cancel: (id) => send({ netdiagJobs: 'cancel', id }),
    onChange: (listener) => changes.add(listener),
  };
}

/**
 * The job worker's end, over its channel to the primary. Made first thing in the process: what arrives
 * before the runner listens (while the process loads) is kept and handed to it then.
 */
export function ipcRunnerJobBus(channel: ParentChannel): RunnerJobBus {
  const submitted = listeners<string>();
  const cancelled = listeners<string>();
  let early: JobBusMessage[] | null = [];
  const dispatch = (message: JobBusMessage) => {
    if (message.netdiagJobs === 'submitted') submitted.emit(message.id);
    else if (message.netdiagJobs === 'cancel') cancelled.emit(message.id);
  };
  channel.on('message', (message) => {
    if (!isJobBusMessage(message)) return;
    if (early) early.push(message);
    else dispatch(message);
  });
  /** the runner listens to both kinds before it reads the store: what came early is handed over after */
  const listening = () => {
    const kept = early;
    early = null;
    for (const message of kept ?? []) queueMicrotask(() => dispatch(message));
  };
  return {
    onSubmitted: (listener) => void submitted.add(listener),
    onCancel(listener) {
      cancelled.add(listener);
      listening();
    },
    changed(change) {
      try {
        channel.send?.({ netdiagJobs: 'changed', id: change.id, ended: change.ended } satisfies JobBusMessage);
      } catch {
        // the primary is gone: the instance is stopping
      }
    },
  };
}
