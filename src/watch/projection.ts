/**
 * A projection: the part of a check's answer a monitor watches (docs/contract/monitors.md "Events"), as a
 * tree that two runs can be compared on. Its rules:
 * - an object's fields are named by the watch spec; a set's members are keyed by their identity, written
 *   `[identity]` (`protocols[TLSv1.2]`, `mx[mail.example.com]`), so that the order a server or resolver
 *   happened to give never makes a difference, and a member added or removed is one path;
 * - a list whose members have no identity beyond their text is a sorted, de-duplicated leaf;
 * - what changes on every run (timings, TTLs, ids) is never projected;
 * - a value this run could not learn (a resolver that did not answer, a part that errored) is `UNKNOWN`:
 *   the previous run's value is carried forward (`carryForward`), so a passing failure makes no change.
 *
 * Data read here is a hostile server's, relayed: readers never trust a shape, and a set key is built
 * from text so that no identity can reach an object's prototype (`[__proto__]` is an ordinary key).
 */

/** What a leaf may be: JSON scalars, or a sorted list of them. */
export type Leaf = string | number | boolean | null | readonly (string | number)[];
export interface ProjectionObject {
  readonly [field: string]: ProjectionValue;
}
export type ProjectionValue = Leaf | ProjectionObject | typeof UNKNOWN;
export type Projection = ProjectionObject;

/** A value this run could not learn; never stored (see `carryForward`). */
export const UNKNOWN: unique symbol = Symbol('unknown');

/** The key of a set member: its identity in brackets (see the module comment). */
export function memberKey(identity: string | number): string {
  return `[${identity}]`;
}

/** Whether a projection key is a set member's (its path joins without a dot). */
export function isMemberKey(key: string): boolean {
  return key.startsWith('[') && key.endsWith(']');
}

/** A set of members keyed by identity; a repeated identity keeps its first member (an answer lists each once). */
export function keyed<T>(
  items: readonly T[],
  identity: (item: T) => string | number | null,
  value: (item: T) => ProjectionValue,
): ProjectionObject {
  const members = new Map<string, ProjectionValue>();
  for (const item of items) {
    const id = identity(item);
    if (id === null) continue;
    const key = memberKey(id);
    if (!members.has(key)) members.set(key, value(item));
  }
  // stored in key order: the same set gives the same tree whatever order the answer listed it in
  const out: Record<string, ProjectionValue> = {};
  for (const key of [...members.keys()].sort()) out[key] = members.get(key)!;
  return out;
}

/** A set of texts as a sorted, de-duplicated leaf. */
export function sortedSet(items: readonly unknown[]): string[] {
  return [...new Set(items.filter((x): x is string => typeof x === 'string'))].sort();
}

// Readers of plain JSON: each returns a safe default for a missing or mistyped value.

export type Json = null | boolean | number | string | readonly Json[] | { readonly [key: string]: Json };
export type JsonObject = { readonly [key: string]: Json };

export function obj(value: unknown): JsonObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as JsonObject) : {};
}

/** `obj` that tells a missing object (null) from an empty one. */
export function objOrNull(value: unknown): JsonObject | null {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as JsonObject) : null;
}

export function arr(value: unknown): readonly Json[] {
  return Array.isArray(value) ? value : [];
}

export function str(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

export function num(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) ? value : null;
}

export function bool(value: unknown): boolean | null {
  return typeof value === 'boolean' ? value : null;
}

/** A scalar as it is (string, number, boolean), anything else null. */
export function scalar(value: unknown): string | number | boolean | null {
  return typeof value === 'string' || typeof value === 'boolean' || num(value) !== null
    ? (value as string | number | boolean)
    : null;
}

function isObject(value: ProjectionValue | undefined): value is ProjectionObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * The projection to store after a run: `next` with each `UNKNOWN` replaced by `previous`'s value at the
 * same path (and left out when the previous run did not know it either).
 */
export function carryForward(previous: Projection | null, next: Projection): Projection {
  return mergeObject(previous, next);
}

function mergeObject(previous: ProjectionObject | null, next: ProjectionObject): ProjectionObject {
  const out: Record<string, ProjectionValue> = {};
  for (const [key, value] of Object.entries(next)) {
    const before = previous && Object.hasOwn(previous, key) ? previous[key] : undefined;
    if (value === UNKNOWN) {
      if (before !== undefined) out[key] = before;
    } else if (isObject(value)) {
      out[key] = mergeObject(isObject(before) ? before : null, value);
    } else {
      out[key] = value;
    }
  }
  return out;
}

/** Whether two stored projection values are equal (leaves and trees; lists compare in order, as sorted). */
export function sameValue(a: ProjectionValue | undefined, b: ProjectionValue | undefined): boolean {
  if (a === b) return true;
  if (a === undefined || b === undefined || a === null || b === null) return a === b;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((x, i) => x === b[i]);
  }
  if (isObject(a) && isObject(b)) {
    const keys = Object.keys(a);
    if (keys.length !== Object.keys(b).length) return false;
    return keys.every((k) => Object.hasOwn(b, k) && sameValue(a[k], b[k]));
  }
  return false;
}

export { isObject as isProjectionObject };
