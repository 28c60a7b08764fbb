/**
 * The jobs of this process: submission (charge, then store), running through the item slots, resuming
 * after a restart, cancelling, and the retention sweep (docs/contract/jobs.md). Several processes may share
 * one store: the store's owner file decides which one runs a job; the others answer reads from the store.
 */
import type { KeyIdentity } from '../../platform/keys.js';
import type { ChargeOutcome } from '../../platform/quota.js';
import type { Services } from '../../services.js';
import { costOf } from '../../graphql/pricing.js';
import type { NetdiagYoga } from '../../graphql-server/yoga.js';
import { restRoutes } from '../routes.js';
import { ActiveJob } from './active-job.js';
import { createItemSlots, type ItemSlots } from './item-slots.js';
import { isActive, type JobRecord, type SubmittedTarget } from './job-record.js';
import type { JobStore } from './job-store.js';
import { deliverCallback } from './callback.js';
import { newJobRecord } from './new-job.js';
import { jobView } from './job-view.js';
import { runItem } from './run-item.js';
import type { Submission } from './submission.js';
import { oneAtATimePerKey } from './one-at-a-time.js';

/** How often the store is scanned for jobs whose process died, cancellations asked elsewhere, and expired jobs. */
const SCAN_INTERVAL_MS = 5_000;
/** How often this process looks for cancellations of its jobs asked through another worker process. */
const CANCEL_CHECK_MS = 250;
/** A job directory without its job.json (a submission cut by a crash before its 202) is removed after this. */
const ABANDONED_SUBMISSION_MS = 3_600_000;

export interface JobStats {
  /** jobs queued and running (in this process on the embedded store; in the deployment on Redis) */
  readonly jobs: { readonly queued: number; readonly running: number };
  /** items this process has finished since it started (a counter: its rate is items per second) */
  readonly itemsFinished: number;
  /** items waiting to start (this process's jobs on the embedded store; the shared queue on Redis) */
  readonly queueDepth: number;
}

export type SubmitOutcome =
  | { ok: true; job: JobRecord; charge: ChargeOutcome }
  | { ok: false; reason: 'active-limit'; active: number }
  | { ok: false; reason: 'credits'; charge: ChargeOutcome; price: number };

export interface JobService {
  submit(identity: KeyIdentity, submission: Submission): Promise<SubmitOutcome>;
  /** the job as its key may see it; null when unknown or another key's (contract: 404 alike) */
  get(id: string, keyId: string): Promise<{ record: JobRecord; etaSeconds: number | null } | null>;
  list(keyId: string): Promise<JobRecord[]>;
  cancel(id: string, keyId: string): Promise<JobRecord | null>;
  /** the job's written outcome lines after index `after`, in target order (as GET …/results streams them) */
  results(record: JobRecord, after: number): AsyncIterable<string>;
  /** stops running items at the next start (tests, shutdown): what is not written runs again later */
  stop(): void;
  /** figures for /metrics (the metrics module reads them when scraped) */
  stats(): Promise<JobStats>;
}

export function createJobService(yoga: NetdiagYoga, services: Services, store: JobStore): JobService {
  const { config, logger, quota } = services;
  const now = services.now;
  const active = new Map<string, ActiveJob>();
  const stopping = new AbortController();
  const slots: ItemSlots = createItemSlots(
    config.jobs.concurrency,
    (e) => logger.error('job_slot_failed', { message: (e as Error).message }),
    () => services.admission.state().inFlight > 0,
  );
  /** one submission per key at a time in this process, so that `jobs.maxActivePerKey` is exact here */
  const inTurn = oneAtATimePerKey();
  const itemsFinished = { count: 0 };
  /** jobs whose callback this process is sending */
  const delivering = new Set<string>();

  function activate(record: JobRecord, targets: readonly SubmittedTarget[]): ActiveJob {
    const job = newActive(record, targets);
    active.set(record.id, job);
    slots.add(job);
    job.start();
    return job;
  }

  function newActive(record: JobRecord, targets: readonly SubmittedTarget[]): ActiveJob {
    const route = restRoutes.get(record.tool)!;
    return new ActiveJob(record, targets, {
      store,
      quota,
      logger,
      now,
      run: (job, target) =>
        runItem(yoga, services, route, {
          params: job.params,
          target,
          auth: { ok: true, identity: { id: job.keyId, kind: job.keyKind } },
          signal: stopping.signal,
        }).finally(() => itemsFinished.count++),
      ended: (job) => {
        active.delete(job.id);
        slots.remove(job);
        void callBack(job.record).finally(() => store.release(job.id));
      },
    });
  }

  /** Sends the ended job's callback, if it has one still to send, keeping its outcome on the job. */
  async function callBack(record: JobRecord): Promise<void> {
    if (!record.callbackUrl || !record.callbackSecret || record.callback?.status !== 'pending') return;
    delivering.add(record.id);
    try {
      await deliverCallback(
        services,
        {
          url: record.callbackUrl,
          secret: record.callbackSecret,
          body: JSON.stringify(jobView(record, 0)),
          backoffMs: config.jobs.callbackBackoffMs,
          signal: stopping.signal,
        },
        async (state) => {
          record.callback = state;
          await store.save(record, true);
        },
      );
    } catch (e) {
      logger.error('job_callback_failed', { jobId: record.id, message: (e as Error).message });
    } finally {
      delivering.delete(record.id);
    }
  }

  /** Takes over a job no live process runs (resumed after a restart, or a dead worker's). */
  async function resume(id: string): Promise<void> {
    if (active.has(id) || delivering.has(id)) return;
    const record = await store.read(id);
    if (!record) return;
    // ended, but its callback was not sent when the process running it died
    if (record.finishedAt !== null && record.callback?.status === 'pending') {
      if (!(await store.claim(id))) return;
      const fresh = await store.read(id);
      if (fresh) await callBack(fresh);
      await store.release(id);
      return;
    }
    const unfinished = isActive(record.status) || (record.status === 'cancelled' && record.finishedAt === null);
    if (!unfinished || !restRoutes.has(record.tool)) return;
    if (!(await store.claim(id))) return;
    const fresh = await store.read(id);
    if (!fresh) return;
    const { lines, failed } = await store.recoverResults(id);
    fresh.done = lines;
    fresh.failed = failed;
    if (await store.cancelRequested(id)) {
      fresh.status = 'cancelled';
      fresh.cancelled = fresh.total - fresh.done;
    }
    logger.info('job_resumed', { jobId: id, done: fresh.done, total: fresh.total });
    const job = activate(fresh, await store.readTargets(id));
    if (fresh.status === 'cancelled') await job.cancel();
  }

  async function sweepExpired(id: string): Promise<void> {
    const record = await store.read(id);
    const retentionMs = config.jobs.retentionHours * 3_600_000;
    if (record?.finishedAt && Date.parse(record.finishedAt) + retentionMs <= now()) {
      await store.remove(id);
      return;
    }
    if (!record && /^j[0-9a-z]{9}/.test(id) && parseInt(id.slice(1, 10), 36) + ABANDONED_SUBMISSION_MS <= now())
      await store.remove(id);
  }

  async function scan(): Promise<void> {
    for (const id of await store.allIds()) {
      if (active.has(id)) continue;
      await resume(id);
      await sweepExpired(id);
    }
  }

  /** A DELETE answered by another worker process of this store: seen here within CANCEL_CHECK_MS. */
  const cancelTimer = setInterval(() => {
    for (const job of active.values())
      if (job.record.status !== 'cancelled')
        void store
          .cancelRequested(job.id)
          .then((asked) => (asked ? job.cancel() : undefined))
          .catch((e) => logger.error('job_cancel_failed', { jobId: job.id, message: (e as Error).message }));
  }, CANCEL_CHECK_MS);
  cancelTimer.unref();

  let scanning: Promise<void> = Promise.resolve();
  const runScan = () => {
    scanning = scanning.then(scan).catch((e) => logger.error('job_scan_failed', { message: (e as Error).message }));
  };
  runScan();
  const scanTimer = setInterval(runScan, SCAN_INTERVAL_MS);
  scanTimer.unref();

  async function submitNow(identity: KeyIdentity, submission: Submission): Promise<SubmitOutcome> {
    const mine = await store.listByKey(identity.id);
    const running = mine.filter((j) => isActive((active.get(j.id)?.record ?? j).status)).length;
    if (running >= config.jobs.maxActivePerKey) return { ok: false, reason: 'active-limit', active: running };
    const itemCost = costOf(config, submission.route.tool);
    const price = itemCost * submission.targets.length;
    // Charged at submission, all at once (contract "Credits"): the same ledger and rules as a single call.
    const charge = await quota.charge(identity.id, price);
    if (!charge.allowed) return { ok: false, reason: 'credits', charge, price };
    const record = newJobRecord(identity, submission, { itemCost, chargeId: charge.chargeId }, now());
    try {
      await store.create(record, submission.targets);
      if (!(await store.claim(record.id))) throw new Error('a new job was claimed by another process');
    } catch (e) {
      if (charge.chargeId) await quota.refund(identity.id, charge.chargeId, price).catch(() => undefined);
      throw e;
    }
    services.metrics.creditsCharged(record.tool, price);
    activate(record, submission.targets);
    return { ok: true, job: record, charge };
  }

  return {
    // what is written when asked: lines written while the answer streams are not added to it
    results: (record, after) => limited(store.results(record.id, after), record.done - after - 1),
    submit: (identity, submission) => inTurn(identity.id, () => submitNow(identity, submission)),
    async get(id, keyId) {
      const here = active.get(id);
      const record = here?.record ?? (await store.read(id));
      if (!record || record.keyId !== keyId) return null;
      return { record, etaSeconds: here ? here.etaSeconds() : null };
    },
    async list(keyId) {
      return (await store.listByKey(keyId)).map((j) => active.get(j.id)?.record ?? j);
    },
    async cancel(id, keyId) {
      const here = active.get(id);
      if (here) {
        if (here.record.keyId !== keyId) return null;
        await here.cancel();
        return here.record;
      }
      const record = await store.read(id);
      if (!record || record.keyId !== keyId) return null;
      if (!isActive(record.status)) return record;
      // Another live process runs it: it sees the request at its next scan and refunds what never ran.
      await store.requestCancel(id);
      if (await store.ownedElsewhere(id)) {
        return { ...record, status: 'cancelled', cancelled: record.total - record.done };
      }
      await resume(id);
      return active.get(id)?.record ?? (await store.read(id));
    },
    async stats() {
      let queued = 0;
      let running = 0;
      let queueDepth = 0;
      for (const job of active.values()) {
        if (job.record.status === 'queued') queued++;
        if (job.record.status === 'running') running++;
        queueDepth += job.waiting;
      }
      return { jobs: { queued, running }, itemsFinished: itemsFinished.count, queueDepth };
    },
    stop() {
      clearInterval(scanTimer);
      clearInterval(cancelTimer);
      stopping.abort(new DOMException('the service is stopping', 'AbortError'));
      for (const job of active.values()) job.stop();
    },
  };
}

async function* limited(lines: AsyncIterable<string>, count: number): AsyncIterable<string> {
  if (count <= 0) return;
  let n = 0;
  for await (const line of lines) {
    yield line;
    if (++n >= count) return;
  }
}
