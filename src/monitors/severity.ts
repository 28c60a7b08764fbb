/**
 * How bad a change is (docs/contract/monitors.md "Events", `severity`): critical when a state gets worse
 * into critical (a letter drops to C or lower, T, M or F; a part becomes critical; a chain becomes bogus; an
 * address becomes listed), warning when it gets worse otherwise, info when it improves or only changes.
 * A watch spec ranks the paths whose values can be better or worse (src/watch/ranking.ts); every other path
 * only changes.
 */
import { matches, type Ranking } from '../watch/ranking.js';
import type { Change } from './diff.js';

export type Severity = 'info' | 'warning' | 'critical';

const SEVERITY_ORDER: Record<Severity, number> = { info: 0, warning: 1, critical: 2 };

/** The more severe of two. */
export function worse(a: Severity, b: Severity): Severity {
  return SEVERITY_ORDER[b] > SEVERITY_ORDER[a] ? b : a;
}

/** One change's severity under the ranked paths. */
export function severityOf(change: Change, ranked: readonly { keys: readonly string[]; ranking: Ranking }[]): Severity {
  const rule = ranked.find((r) => matches(r.keys, change.keys));
  if (!rule) return 'info';
  const before = rule.ranking(change.before);
  const after = rule.ranking(change.after);
  if (after === null) return 'info';
  // a value that appears where nothing could be placed before: only a critical one is news of its own
  if (before === null) return after.critical ? 'critical' : 'info';
  if (after.rank <= before.rank) return 'info';
  return after.critical ? 'critical' : 'warning';
}
