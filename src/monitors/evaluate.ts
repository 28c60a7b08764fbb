/**
 * What one run of one target × check means (docs/contract/monitors.md "Events"): a pure function of the
 * previous state of the pair, the run's outcome, `warnDays` and the time, returning the new state and the
 * events to commit with it. The store writes both in one transaction (./store/monitor-store.ts).
 * - An answer: its projection is diffed against the last known one; any difference is one `changed`
 *   event. The first answer is the baseline and makes no `changed` event. `expiring` as ./expiry.ts says.
 * - An error answer (the check could not run): the second in a row is `failing`; the next answer after
 *   that is `recovered`. The last projection is kept, so a passing failure makes no change.
 */
import { diffProjections } from './diff.js';
import { describeTarget, describeValue, type MonitorTarget, type NewMonitorEvent } from './events.js';
import { type ExpiriesAnnounced, expiryNotices } from './expiry.js';
import { carryForward, type JsonObject, type Projection } from '../watch/projection.js';
import { type Severity, severityOf, worse } from './severity.js';
import type { AnswerStatus, CompiledWatchSpec } from '../watch/watch-spec.js';

/** The state of a target × check as GET /api/v1/monitors/{id} shows it (`pending` before its first run). */
export type PairStatus = AnswerStatus | 'error' | 'pending';

/** What is kept of one target × check between runs. */
export interface PairState {
  /** the watched fields as last known; null until the first answer */
  readonly projection: Projection | null;
  /** error answers in a row */
  readonly failures: number;
  readonly expiries: ExpiriesAnnounced;
  readonly status: PairStatus;
  readonly summary: string;
  readonly grade: string | null;
  readonly lastRunAt: string | null;
  readonly lastChangeAt: string | null;
  /** the run this state comes from (run ids are ordered): a run's outcome committed twice (a retry after a crash) is recognised */
  readonly lastRunId: string | null;
}

export const PENDING_STATE: PairState = {
  projection: null,
  failures: 0,
  expiries: {},
  status: 'pending',
  summary: 'Not run yet.',
  grade: null,
  lastRunAt: null,
  lastChangeAt: null,
  lastRunId: null,
};

/** One run's outcome, as a job item's: the single call's `data`, or its error. */
export type RunOutcome =
  | { readonly ok: true; readonly status: number; readonly data: JsonObject }
  | {
      readonly ok: false;
      readonly status: number;
      readonly error: { readonly code: string; readonly message: string };
    };

export interface RunContext {
  readonly spec: CompiledWatchSpec;
  readonly target: MonitorTarget;
  readonly runId: string;
  readonly warnDays: number;
  readonly now: Date;
}

/** Error answers in a row that make a `failing` event. */
export const FAILING_AFTER = 2;

export function evaluateRun(
  previous: PairState | null,
  outcome: RunOutcome,
  context: RunContext,
): { state: PairState; events: NewMonitorEvent[] } {
  const prev = previous ?? PENDING_STATE;
  const at = context.now.toISOString();
  const base = { at, target: context.target, check: context.spec.tool };
  const subject = `${context.spec.tool} of ${describeTarget(context.target)}`;
  const events: NewMonitorEvent[] = [];

  if (!outcome.ok) {
    const failures = prev.failures + 1;
    if (failures === FAILING_AFTER)
      events.push({
        ...base,
        kind: 'failing',
        severity: 'warning',
        summary: `The ${subject} could not run ${FAILING_AFTER} times in a row: ${outcome.error.message}`,
        changes: [],
      });
    return {
      state: {
        ...prev,
        failures,
        status: 'error',
        summary: outcome.error.message,
        grade: null,
        lastRunAt: at,
        lastRunId: context.runId,
      },
      events,
    };
  }

  if (prev.failures >= FAILING_AFTER)
    events.push({
      ...base,
      kind: 'recovered',
      severity: 'info',
      summary: `The ${subject} runs again after ${prev.failures} failed runs.`,
      changes: [],
    });

  const { spec } = context;
  const projection = carryForward(prev.projection, spec.project(outcome.data));
  let lastChangeAt = prev.lastChangeAt;
  if (prev.projection !== null) {
    const changes = diffProjections(prev.projection, projection);
    if (changes.length > 0) {
      // the sentence leads with the first of the most severe changes
      const severities = changes.map((change) => severityOf(change, spec.rankedKeys));
      const severity = severities.reduce<Severity>(worse, 'info');
      const lead = changes[severities.indexOf(severity)]!;
      const more = changes.length - 1;
      events.push({
        ...base,
        kind: 'changed',
        severity,
        summary: `The ${subject} changed: ${lead.path} went from ${describeValue(lead.before)} to ${describeValue(lead.after)}${more > 0 ? ` (and ${more} more change${more === 1 ? '' : 's'})` : ''}.`,
        changes: changes.map(({ path, before, after }) => ({ path, before, after })),
      });
      lastChangeAt = at;
    }
  }

  const expiries = expiryNotices(prev.expiries, spec.expiries?.(outcome.data) ?? [], context.warnDays, context.now);
  for (const notice of expiries.notices)
    events.push({ ...base, kind: 'expiring', severity: notice.severity, summary: notice.summary, changes: [] });

  const assessment = spec.assess(outcome.data);
  return {
    state: {
      projection,
      failures: 0,
      expiries: expiries.announced,
      status: assessment.status,
      summary: assessment.summary,
      grade: assessment.grade,
      lastRunAt: at,
      lastChangeAt,
      lastRunId: context.runId,
    },
    events,
  };
}
