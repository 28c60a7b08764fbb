/**
 * The runner of the embedded store (docs/jobs.md "Where items run"): one per instance, in the job worker
 * process the primary forks (or beside the API in a single process). At start it takes every unfinished
 * job (the store's active slots) and every callback still to send; after that it hears of new jobs and
 * cancellations by push (./job-bus.ts), never by scanning. Items run on the runner's own slots
 * (`jobs.concurrency`, keys in turn, then each key's jobs: ../runner/item-slots.ts). Ended jobs are
 * removed `jobs.retentionHours` after they end.
 */
import type { KeyIdentity } from '../../platform/keys.js';
import type { Services } from '../../services.js';
import { ActiveJob } from '../runner/active-job.js';
import { createItemSlots } from '../runner/item-slots.js';
import type { RunnerJobBus } from '../job-bus.js';
import type { JobRecord } from '../job-record.js';
import { sendJobCallback } from '../job-callback.js';
import { throttledChanges, type JobRunner, type JobStats } from '../job-runner.js';
import { itemValues, type JobTools } from '../job-tools.js';
import type { DeliveryState } from '../signed-delivery.js';
import type { EmbeddedJobStore } from './lmdb-job-store.js';

/** How often ended jobs past their retention are removed. */
const SWEEP_INTERVAL_MS = 60_000;

export interface EmbeddedRunnerOptions {
  readonly store: EmbeddedJobStore;
  readonly tools: JobTools;
  readonly services: Services;
  readonly bus: RunnerJobBus;
  /** true while interactive requests run in this same process (a single-process instance, tests) */
  readonly interactiveBusy?: () => boolean;
}

export function startEmbeddedRunner(options: EmbeddedRunnerOptions): JobRunner {
  const { store, tools, services, bus } = options;
  const { config, logger, quota } = services;
  const active = new Map<string, ActiveJob>();
  const delivering = new Set<string>();
  const stopping = new AbortController();
  let itemsFinished = 0;
  const pushes = throttledChanges((id, ended) => bus.changed({ id, ended }));
  const slots = createItemSlots(
    config.jobs.concurrency,
    (e) => logger.error('job_slot_failed', { message: (e as Error).message }),
    options.interactiveBusy,
  );

  async function refund(record: JobRecord, items: number, reason: string): Promise<void> {
    const credits = items * record.itemCost;
    if (credits === 0 || record.chargeId === null) return;
    try {
      await quota.refund(record.keyId, record.chargeId, credits);
    } catch (e) {
      // never the reverse: a refund the ledger could not take leaves the caller charged
      logger.error('job_refund_failed', { jobId: record.id, credits, reason, message: (e as Error).message });
    }
  }

  function activate(id: string): void {
    if (active.has(id) || stopping.signal.aborted) return;
    const record = store.readSync(id);
    const targets = store.readTargets(id);
    if (!record || !targets || record.finishedAt !== null) return;
    const tool = tools.get(record.tool);
    if (!tool) {
      logger.error('job_tool_unknown', { jobId: id, tool: record.tool });
      return;
    }
    const identity: KeyIdentity = { id: record.keyId, kind: record.keyKind };
    const job = new ActiveJob(record, targets, {
      writeResults: store.writeResults,
      save: store.save,
      finish: store.finish,
      refund,
      logger,
      now: services.now,
      run: (job, target) =>
        tool.run(itemValues(job, target, tool.mainParameter), identity, stopping.signal).finally(() => itemsFinished++),
      changed: (job) => pushes.changed(job.id, job.record.finishedAt !== null, job.record.status === 'cancelled'),
      ended: (job) => {
        active.delete(job.id);
        slots.remove(job);
        if (job.record.finishedAt !== null) void callBack(job.record);
      },
    });
    active.set(id, job);
    if (record.done > 0 || record.status !== 'queued')
      logger.info('job_resumed', { jobId: id, done: record.done, total: record.total });
    slots.add(job);
    job.start();
    if (store.cancelRequested(id)) void job.cancel();
  }

  /** Sends the ended job's callback, if it has one still to send, keeping its outcome on the job. */
  async function callBack(record: JobRecord): Promise<void> {
    if (delivering.has(record.id)) return;
    delivering.add(record.id);
    try {
      const save = async (attempt: DeliveryState) => {
        record.callback = attempt;
        store.save(record);
      };
      const state = await sendJobCallback(services, record, save, stopping.signal);
      if (state && state.status !== 'pending') store.callbackSettled(record);
    } catch (e) {
      logger.error('job_callback_failed', { jobId: record.id, message: (e as Error).message });
    } finally {
      delivering.delete(record.id);
    }
  }

  function sweep(): void {
    try {
      const removed = store.sweep(services.now(), config.jobs.retentionHours * 3_600_000);
      if (removed > 0) logger.info('jobs_expired', { removed });
    } catch (e) {
      logger.error('job_sweep_failed', { message: (e as Error).message });
    }
  }

  // Listening first, then the store: a job submitted in between is heard of, or read, or both (once).
  bus.onSubmitted(activate);
  bus.onCancel((id) => {
    const job = active.get(id);
    if (job) void job.cancel();
    else activate(id);
  });
  for (const id of store.unfinished()) activate(id);
  for (const id of store.pendingCallbacks()) {
    const record = store.readSync(id);
    if (record) void callBack(record);
  }
  sweep();
  const sweepTimer = setInterval(sweep, SWEEP_INTERVAL_MS);
  sweepTimer.unref();

  return {
    async stats(): Promise<JobStats> {
      let queued = 0;
      let running = 0;
      let queueDepth = 0;
      for (const job of active.values()) {
        if (job.record.status === 'queued') queued++;
        else if (job.record.status === 'running') running++;
        queueDepth += job.waiting;
      }
      return { jobs: { queued, running }, itemsFinished, queueDepth };
    },
    async stop() {
      clearInterval(sweepTimer);
      pushes.stop();
      stopping.abort(new DOMException('the service is stopping', 'AbortError'));
      for (const job of active.values()) job.stop();
    },
  };
}
