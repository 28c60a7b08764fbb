/**
 * The Redis layout of monitors (docs/contract/monitors.md "Behaviour", with `store.redisUrl`), shared by
 * every instance. `P` is the prefix (`netdiag:monitors:` unless the caller gives another):
 *   P monitor:<id>                hash: `rec` (the MonitorRecord, JSON), `rv` (its version, never reused:
 *                                 PATCH commits only over the version it read), keyId, member (its entry in the key's
 *                                 list), pairs, paused, hook (1: it has a webhook), and the progress's fields one by one (so that a
 *                                 script changes one of them without reading the others)
 *   P monitor:<id>:states         hash: pair (`<targetIndex>|<check>`) → the pair's PairState (JSON)
 *   P monitor:<id>:last           hash: pair → the last run id committed for it: the pair's version, which
 *                                 only grows (run ids are ordered, ./monitor-store.ts), so an outcome is
 *                                 committed only over the state it was evaluated from
 *   P monitor:<id>:runs           hash: run number → StoredRun (JSON)
 *   P monitor:<id>:order          sorted set of `<seq>|<targetIndex>|<check>` by run number: the history across pairs
 *   P monitor:<id>:pair:<pair>    sorted set of one pair's run numbers: its history, trimmed to `monitors.keepRuns`
 *   P monitor:<id>:events         sorted set of the events (JSON) by their number
 *   P monitor:<id>:event-times    sorted set of event numbers by the events' time (ms): what pruning reads
 *   P key:<keyId>                 sorted set of `<createdAt> <id>`, all of score 0: the key's monitors in
 *                                 creation order, read a page at a time (ZRANGE … BYLEX REV)
 *   P usage:<keyId>               hash: monitors, pairs — the key's usage, kept by the scripts that create
 *                                 and delete, so that the limits are checked without reading every monitor
 *   P all                         sorted set of every monitor id (score 0): pruning walks it a stretch per call
 *   P prune-cursor                where the last pruning stopped in `all`
 *   P deleted                     set of deleted monitors whose runs, states and events are still to purge
 *   P undelivered                 sorted set of the monitors with a webhook and events not yet delivered (score
 *                                 0): what a runner starting, or looking for a deliverer that died, reads a page
 *                                 at a time; kept by the scripts that add events, deliver, update and delete
 *   P deliverer:<id>              the lease of the one process delivering the monitor's webhook, with its token
 *                                 (../runtime/redis-delivery-lease.ts)
 * The scripts (./redis-monitor-scripts.ts) name a key's list and usage themselves, so a Redis Cluster is
 * not supported (as for jobs, src/jobs/redis/redis-job-keys.ts).
 */
export const MONITORS_PREFIX = 'netdiag:monitors:';

/** The queue of due runs every instance takes from (../schedule/redis-schedule.ts), beside the jobs' queue. */
export const MONITOR_RUN_QUEUE = 'netdiag-monitor-runs';
export const MONITOR_BULL_PREFIX = 'netdiag:bull';

/** One target × check of a monitor, as a hash field and in key names: check names never hold `|`. */
export const pairField = (targetIndex: number, check: string) => `${targetIndex}|${check}`;

export function parsePairField(field: string): { targetIndex: number; check: string } {
  const bar = field.indexOf('|');
  return { targetIndex: Number(field.slice(0, bar)), check: field.slice(bar + 1) };
}

export interface MonitorKeys {
  readonly prefix: string;
  monitor(id: string): string;
  states(id: string): string;
  last(id: string): string;
  runs(id: string): string;
  order(id: string): string;
  pair(id: string, field: string): string;
  events(id: string): string;
  eventTimes(id: string): string;
  byKey(keyId: string): string;
  usage(keyId: string): string;
  readonly all: string;
  readonly pruneCursor: string;
  readonly deleted: string;
  readonly undelivered: string;
  deliverer(id: string): string;
}

export function monitorKeys(prefix: string = MONITORS_PREFIX): MonitorKeys {
  const monitor = (id: string) => `${prefix}monitor:${id}`;
  return {
    prefix,
    monitor,
    states: (id) => `${monitor(id)}:states`,
    last: (id) => `${monitor(id)}:last`,
    runs: (id) => `${monitor(id)}:runs`,
    order: (id) => `${monitor(id)}:order`,
    pair: (id, field) => `${monitor(id)}:pair:${field}`,
    events: (id) => `${monitor(id)}:events`,
    eventTimes: (id) => `${monitor(id)}:event-times`,
    byKey: (keyId) => `${prefix}key:${keyId}`,
    usage: (keyId) => `${prefix}usage:${keyId}`,
    all: `${prefix}all`,
    pruneCursor: `${prefix}prune-cursor`,
    deleted: `${prefix}deleted`,
    undelivered: `${prefix}undelivered`,
    deliverer: (id) => `${prefix}deliverer:${id}`,
  };
}
