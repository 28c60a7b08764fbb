/**
 * The verdict of a composite health check (website-health-check, mailhealth-check), from
 * the statuses of its checks. Pure: no I/O.
 *
 * Rules (decisions §4):
 * - A check is `ok`, `info` (noteworthy, nothing to do), `warning` (should be fixed),
 *   `critical` (broken or about to break: fix now) or `error` (the check could not run).
 * - The verdict is the worst check: `critical` if any check is critical, else `warning`
 *   if any check is warning or error (a check that could not run is not a clean bill of
 *   health), else `ok` (info counts as ok).
 * - The headline names the checks at the verdict's level; the summary gives their
 *   one-sentence summaries, worst first, at most MAX_SUMMARISED_FINDINGS of them.
 */

export type HealthCheckStatus = 'ok' | 'info' | 'warning' | 'critical' | 'error';
export type VerdictStatus = 'ok' | 'warning' | 'critical';

/** decisions §4: the complete value sets. */
export const HEALTH_CHECK_STATUSES: readonly HealthCheckStatus[] = ['ok', 'info', 'warning', 'critical', 'error'];
export const VERDICT_STATUSES: readonly VerdictStatus[] = ['ok', 'warning', 'critical'];

/** What the verdict reads of a check. */
export interface VerdictInput {
  readonly label: string;
  readonly status: HealthCheckStatus;
  /** one sentence: what was found and, when not ok, what to do */
  readonly summary: string;
}

export interface Verdict {
  status: VerdictStatus;
  /** a few words: how many checks need attention, and which */
  headline: string;
  /** the summaries of the worst findings, worst first */
  summary: string;
}

/** The verdict's summary quotes at most this many findings and counts the rest. */
export const MAX_SUMMARISED_FINDINGS = 3;

/** How a check's status weighs in the verdict: error counts as warning, info as ok. */
export function verdictStatusOf(status: HealthCheckStatus): VerdictStatus {
  switch (status) {
    case 'critical':
      return 'critical';
    case 'warning':
    case 'error':
      return 'warning';
    case 'ok':
    case 'info':
      return 'ok';
  }
}

const VERDICT_RANK: Readonly<Record<VerdictStatus, number>> = { ok: 0, warning: 1, critical: 2 };
/** Within the verdict's level: critical, then warning, then error (could not run), then info, then ok. */
const SUMMARY_ORDER: Readonly<Record<HealthCheckStatus, number>> = {
  critical: 0,
  warning: 1,
  error: 2,
  info: 3,
  ok: 4,
};

export function worstVerdictStatus(statuses: Iterable<HealthCheckStatus>): VerdictStatus {
  let worst: VerdictStatus = 'ok';
  for (const status of statuses) {
    const weight = verdictStatusOf(status);
    if (VERDICT_RANK[weight] > VERDICT_RANK[worst]) worst = weight;
  }
  return worst;
}

/** "A", "A and B", "A, B and C". */
export function listInProse(items: readonly string[]): string {
  if (items.length <= 1) return items[0] ?? '';
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

/** "1 warning", "3 warnings". */
export function plural(count: number, one: string, many: string): string {
  return `${count} ${count === 1 ? one : many}`;
}

function labelsOf(checks: readonly VerdictInput[]): string {
  return listInProse(checks.map((c) => c.label));
}

/** A summary as a sentence that ends in a full stop, so that several can follow one another. */
function sentence(text: string): string {
  const trimmed = text.trim();
  return /[.!?]$/.test(trimmed) ? trimmed : `${trimmed}.`;
}

export function verdictOf(checks: readonly VerdictInput[]): Verdict {
  const status = worstVerdictStatus(checks.map((c) => c.status));
  const by = (s: HealthCheckStatus) => checks.filter((c) => c.status === s);
  const critical = by('critical');
  const warnings = by('warning');
  const errors = by('error');
  const notes = by('info');

  if (status === 'ok') {
    const headline =
      notes.length === 0
        ? `All ${checks.length} checks passed`
        : `All ${checks.length} checks passed, with ${plural(notes.length, 'note', 'notes')}`;
    const summary =
      notes.length === 0
        ? `No problems found in ${plural(checks.length, 'check', 'checks')}.`
        : `No problems found; worth knowing: ${notes.map((c) => `${c.label}: ${sentence(c.summary)}`).join(' ')}`;
    return { status, headline, summary };
  }

  const parts: string[] = [];
  if (critical.length > 0)
    parts.push(`${plural(critical.length, 'critical problem', 'critical problems')} (${labelsOf(critical)})`);
  if (warnings.length > 0) parts.push(`${plural(warnings.length, 'warning', 'warnings')} (${labelsOf(warnings)})`);
  if (errors.length > 0) parts.push(`${plural(errors.length, 'check', 'checks')} could not run (${labelsOf(errors)})`);
  const headline = listInProse(parts).replace(/^./, (c) => c.toUpperCase());

  const worst = [...critical, ...warnings, ...errors].sort((a, b) => SUMMARY_ORDER[a.status] - SUMMARY_ORDER[b.status]);
  const quoted = worst.slice(0, MAX_SUMMARISED_FINDINGS).map((c) => `${c.label}: ${sentence(c.summary)}`);
  const rest = worst.length - quoted.length;
  if (rest > 0) quoted.push(`${plural(rest, 'more finding', 'more findings')} below.`);
  return { status, headline, summary: quoted.join(' ') };
}
