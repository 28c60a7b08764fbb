/**
 * How a watch spec ranks the values of a path (docs/contract/monitors.md "Events", `severity`): a higher rank
 * is worse, and some values are a critical state. The monitors judge a change with these
 * (src/monitors/severity.ts); the specs, declared with their checks, name them.
 */
import type { Leaf } from './projection.js';

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
