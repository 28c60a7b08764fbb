/**
 * One due run of a monitor (docs/contract/monitors.md "Behaviour"), as the schedule hands it out
 * (../schedule/monitor-schedule.ts):
 *   1. `beginRun`: the store decides whether it starts, resumes (a crash), or is skipped (busy, paused,
 *      gone, already run);
 *   2. a new run is charged cost(check) × targets for each check, with the same ledger and key as a job
 *      (src/jobs/job-operations.ts), and `recordCharge` says whether it was covered (not covered: `paused`,
 *      and the run ends unstarted);
 *   3. each item not yet committed runs through the jobs' tool port (the single call's pipeline, prepaid)
 *      on the item slots, which yield to interactive requests as job items do; each outcome is committed
 *      with its evaluation and events (`recordOutcome`), and its events are announced;
 *   4. `finishRun`.
 *
 * The charge's crash window (charged, then killed before `recordCharge` commits): the ledger keeps no charge
 * id across processes, so a run that is resumed with its charge not recorded is taken as paid and not charged
 * again. At worst a crash in that window (between two awaits) makes one run free; it never charges twice
 * (docs/monitors.md "Durability").
 *
 * An item whose target was refused before anything was sent gives its price back, as a job item does
 * (decisions §1).
 */
import type { JobTools } from '../../jobs/job-tools.js';
import type { ItemSlots, SchedulableJob } from '../../jobs/runner/item-slots.js';
import type { KeyIdentity } from '../../platform/keys.js';
import type { Services } from '../../services.js';
import type { MonitorTarget } from '../events.js';
import { type DueRun, runIdOf } from '../schedule/monitor-schedule.js';
import { nextDueAfter } from '../schedule/embedded-schedule.js';
import type { MonitorStore } from '../store/monitor-store.js';
import type { MonitorRecord } from '../store/records.js';
import { runOutcomeOf } from './item-outcome.js';

/** Outcomes of one run waiting for their commit at most. */
const MAX_PENDING_COMMITS = 64;

export interface MonitorRunDeps {
  readonly store: MonitorStore;
  readonly tools: JobTools;
  readonly services: Services;
  readonly slots: ItemSlots;
  /** the monitor has new events committed: its streams and its webhook deliverer follow */
  readonly published: (monitorId: string) => void;
  readonly signal: AbortSignal;
}

/**
 * The parameters of one item: the shared ones, then the target's own (as a job item's, src/jobs/job-tools.ts),
 * each check taking those it reads (a monitor's shared parameters serve several checks).
 */
export function monitorItemValues(
  params: Readonly<Record<string, string>>,
  target: MonitorTarget,
  tool: { readonly mainParameter: string | null; readonly parameters: readonly string[] },
): Record<string, string> {
  const all: Record<string, string> =
    typeof target !== 'string'
      ? { ...params, ...target }
      : tool.mainParameter === null
        ? { ...params }
        : { ...params, [tool.mainParameter]: target };
  return Object.fromEntries(Object.entries(all).filter(([name]) => tool.parameters.includes(name)));
}

/** What one run costs: each check's price for every target. */
export function priceOf(monitor: MonitorRecord, tools: JobTools): number {
  let perTarget = 0;
  for (const check of monitor.checks) perTarget += tools.get(check)?.cost ?? 0;
  return perTarget * monitor.targets.length;
}

/** The items of one run as the item slots schedule them (a job among jobs, keys in turn). */
class RunItems implements SchedulableJob {
  readonly id: string;
  readonly keyId: string;
  #next = 0;
  #settled = 0;
  readonly #items: readonly { targetIndex: number; check: string }[];
  readonly #runOne: (item: { targetIndex: number; check: string }) => Promise<void>;
  readonly done: Promise<void>;
  #resolve!: () => void;

  constructor(
    id: string,
    keyId: string,
    items: readonly { targetIndex: number; check: string }[],
    runOne: (item: { targetIndex: number; check: string }) => Promise<void>,
  ) {
    this.id = id;
    this.keyId = keyId;
    this.#items = items;
    this.#runOne = runOne;
    this.done = new Promise((resolve) => {
      this.#resolve = resolve;
    });
    if (items.length === 0) this.#resolve();
  }

  hasWork(): boolean {
    return this.#next < this.#items.length;
  }

  async runNext(): Promise<void> {
    const item = this.#items[this.#next++]!;
    try {
      await this.#runOne(item);
    } finally {
      if (++this.#settled === this.#items.length) this.#resolve();
    }
  }
}

export function createMonitorRun(deps: MonitorRunDeps): (due: DueRun) => Promise<void> {
  const { store, tools, services, slots, published, signal } = deps;
  const { quota, logger } = services;

  return async function runDue(due: DueRun): Promise<void> {
    if (signal.aborted) throw new Error('the service is stopping');
    const monitor = await store.get(due.monitorId);
    if (!monitor) return;
    const runId = runIdOf(due);
    const now = services.now();
    const begun = await store.beginRun(monitor.id, {
      runId,
      at: new Date(now),
      nextRunAt: new Date(nextDueAfter(due.dueAt, monitor.everyMs, now)),
    });
    let chargeId: string | null = null;
    if (begun.outcome === 'start') {
      const price = priceOf(monitor, tools);
      const charge = await quota.charge(monitor.keyId, price);
      chargeId = charge.chargeId;
      const events = await store.recordCharge(monitor.id, runId, charge.allowed, new Date(services.now()));
      if (events.length > 0) published(monitor.id);
      if (!charge.allowed) {
        logger.info('monitor_run_not_covered', { monitorId: monitor.id, credits: price });
        return;
      }
      services.metrics.creditsCharged('monitors', price);
    } else if (begun.outcome === 'resume') {
      // taken as paid when its charge was not recorded (the crash window above): never charged twice
      if (!begun.charged) {
        const events = await store.recordCharge(monitor.id, runId, true, new Date(services.now()));
        if (events.length > 0) published(monitor.id);
      }
      logger.info('monitor_run_resumed', { monitorId: monitor.id, runId });
    } else {
      if (begun.outcome === 'busy') logger.info('monitor_run_skipped', { monitorId: monitor.id, runId });
      return;
    }

    // issued keys' ids start with k_ (src/platform/keys.ts)
    const identity: KeyIdentity = { id: monitor.keyId, kind: monitor.keyId.startsWith('k_') ? 'issued' : 'static' };
    const pending = await store.pendingItems(monitor.id, runId);
    let failures = 0;
    const runOne = async ({ targetIndex, check }: { targetIndex: number; check: string }) => {
      if (signal.aborted) {
        failures++;
        return;
      }
      const tool = tools.get(check);
      const target = monitor.targets[targetIndex]!;
      const result = tool
        ? await tool.run(monitorItemValues(monitor.params, target, tool), identity, signal)
        : { ok: false, status: 500, error: `the check ${check} is not served here`, refund: false };
      // an item cut short by the stop is not committed: it runs again when the run resumes
      if (signal.aborted) {
        failures++;
        return;
      }
      // committed apart from the slot, which goes to the next item at once: a commit waits for the
      // database's flush, and the commits of items finishing together are flushed together
      // (bounded: past MAX_PENDING_COMMITS the slot waits for one, so answers never pile up in memory)
      while (commits.size >= MAX_PENDING_COMMITS) await Promise.race(commits);
      const pending: Promise<void> = commit(targetIndex, check, result, tool?.cost ?? 0)
        .catch((e: unknown) => {
          failures++;
          logger.error('monitor_item_failed', {
            monitorId: monitor.id,
            targetIndex,
            check,
            message: (e as Error).message,
          });
        })
        .finally(() => commits.delete(pending));
      commits.add(pending);
    };
    const commits = new Set<Promise<void>>();
    const commit = async (
      targetIndex: number,
      check: string,
      result: Awaited<ReturnType<NonNullable<ReturnType<JobTools['get']>>['run']>>,
      cost: number,
    ) => {
      const committed = await store.recordOutcome(monitor.id, {
        runId,
        targetIndex,
        check,
        at: new Date(services.now()),
        outcome: runOutcomeOf(result),
      });
      if (committed.events.length > 0) published(monitor.id);
      if (result.refund && chargeId !== null && cost > 0 && !committed.duplicate)
        await quota
          .refund(monitor.keyId, chargeId, cost)
          .catch((e: unknown) =>
            logger.error('monitor_refund_failed', { monitorId: monitor.id, message: (e as Error).message }),
          );
    };
    const items = new RunItems(`${monitor.id} ${runId}`, monitor.keyId, pending, (item) =>
      runOne(item).catch((e: unknown) => {
        // not committed: the run is handed out again and runs what is left (a full disk, a store error)
        failures++;
        logger.error('monitor_item_failed', { monitorId: monitor.id, ...item, message: (e as Error).message });
      }),
    );
    slots.add(items);
    try {
      await items.done;
    } finally {
      slots.remove(items);
    }
    await Promise.all(commits);
    if (failures > 0)
      throw new Error(`monitor ${monitor.id}: ${failures} items were not committed; the run goes on later`);
    await store.finishRun(monitor.id, runId, new Date(services.now()));
  };
}
