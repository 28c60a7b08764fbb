/**
 * How bad a change is (docs/contract/monitors.md "Events", `severity`): critical when a state gets worse
 * into critical (a letter drops to C or lower, T, M or F; a part becomes critical; a chain becomes bogus; an
 * address becomes listed), warning when it gets worse otherwise, info when it improves or only changes.
 * A watch spec ranks the paths whose values can be better or worse; every other path only changes.
 */
import type { Change } from './diff.js';
import type { Leaf } from './projection.js';

export type Severity = 'info' | 'warning' | 'critical';

const SEVERITY_ORDER: Record<Severity, number> = { info: 0, warning: 1, critical: 2 };

/** The more severe of two. */
export function worse(a: Severity, b: Severity): Severity {
  return SEVERITY_ORDER[b] > SEVERITY_ORDER[a] ? b : a;
}

/** Where a value stands: a higher rank is worse; `critical` marks the values that are a critical state. */
export interface Standing {
  readonly rank: number;
  readonly critical: boolean;
}

/** Ranks a path's values; null for a value it cannot place (absent, not graded). */
export type Ranking = (value: Leaf) => Standing | null;

/** A ranked path: `pattern` names it as a change's path does, with `[*]` for any member of a set. */
export interface RankedPath {
  readonly pattern: string;
  readonly ranking: Ranking;
}

/**
 * A ranking from a list of values, best first; values from `criticalFrom` on are critical (none when it is
 * not in the list). Values not listed cannot be placed.
 */
export function ordered(values: readonly string[], criticalFrom?: string): Ranking {
  const rank = new Map(values.map((v, i) => [v, i]));
  const critical = criticalFrom === undefined ? Number.POSITIVE_INFINITY : (rank.get(criticalFrom) ?? Infinity);
  return (value) => {
    if (typeof value !== 'string') return null;
    const r = rank.get(value);
    return r === undefined ? null : { rank: r, critical: r >= critical };
  };
}

/** Ranks by explicit levels: `{ ok: 0, warning: 1, critical: 2 }`; the levels named in `critical` are critical. */
export function levels(table: Readonly<Record<string, number>>, critical: readonly string[] = []): Ranking {
  return (value) => {
    const key = value === null ? 'null' : String(value);
    if (!Object.hasOwn(table, key)) return null;
    return { rank: table[key]!, critical: critical.includes(key) };
  };
}

/**
 * Letter grades of both ratings (tls-rating: SSL Labs, http-rating: the MDN HTTP Observatory), best first.
 * The contract makes "C or lower" critical: C, C-, every D, E and F, and T (not trusted) and M (name
 * mismatch), which rank with F. C+ is above C: a drop to it is a warning.
 */
const LETTERS = ['A+', 'A', 'A-', 'B+', 'B', 'B-', 'C+', 'C', 'C-', 'D+', 'D', 'D-', 'E', 'F'];
export const letterGrade: Ranking = (value) => {
  if (typeof value !== 'string') return null;
  const r = value === 'T' || value === 'M' ? LETTERS.indexOf('F') : LETTERS.indexOf(value);
  return r < 0 ? null : { rank: r, critical: r >= LETTERS.indexOf('C') };
};

/** A check part's status (mailhealth-check, website-health-check): a part that errored ranks with warning. */
export const partStatus: Ranking = levels({ ok: 0, info: 1, warning: 2, error: 2, critical: 3 }, ['critical']);

/** A flag whose `true` is a critical state (an address listed); absent counts as false. */
export const criticalWhenTrue: Ranking = (value) =>
  value === true ? { rank: 1, critical: true } : { rank: 0, critical: false };

/** A set member whose presence is a critical state (a listing); absent ranks best. */
export const criticalWhenPresent: Ranking = (value) =>
  value === null ? { rank: 0, critical: false } : { rank: 1, critical: true };

/** Whether a change's keys match a pattern's (`[*]` matches any member). */
export function matches(pattern: readonly string[], keys: readonly string[]): boolean {
  if (pattern.length !== keys.length) return false;
  return pattern.every((p, i) => p === keys[i] || (p === '[*]' && keys[i]!.startsWith('[')));
}

/** The keys of a pattern text (`parts[*].status` → `parts`, `[*]`, `status`). */
export function patternKeys(pattern: string): string[] {
  return pattern.match(/\[[^\]]*\]|[^.[\]]+/g) ?? [];
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
