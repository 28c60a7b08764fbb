/**
 * The difference between two projections (src/watch/projection.ts): each changed path with both values, as the
 * contract's `changes: [{ path, before, after }]` (docs/contract/monitors.md "Events"). Paths are stable:
 * fields joined by dots, set members by their identity in brackets (`mx[mail.example.com].starttls`).
 * A member or object present on one side only is compared leaf by leaf against nothing, so each of its
 * watched values is a change from or to null, and rules written for a path (`parts[*].status`) see it.
 */
import {
  isMemberKey,
  isProjectionObject,
  type Leaf,
  type Projection,
  type ProjectionObject,
  sameValue,
} from '../watch/projection.js';

export interface Change {
  /** the path as people and the contract read it */
  readonly path: string;
  /** the same path as the keys walked (fields and `[identity]` members), for rules that match paths */
  readonly keys: readonly string[];
  readonly before: Leaf;
  readonly after: Leaf;
}

/** The path text of a list of keys: `grade.letter`, `protocols[TLSv1.2]`, `mx[a.example].status`. */
export function pathOf(keys: readonly string[]): string {
  let path = '';
  for (const key of keys) path += path === '' || isMemberKey(key) ? key : `.${key}`;
  return path;
}

/** Every changed leaf between `before` and `after`; [] when they are the same. */
export function diffProjections(before: Projection, after: Projection): Change[] {
  const changes: Change[] = [];
  walk(before, after, [], changes);
  return changes;
}

const EMPTY: ProjectionObject = {};

function walk(a: ProjectionObject, b: ProjectionObject, keys: string[], out: Change[]): void {
  for (const key of orderedKeys(a, b)) {
    const x = Object.hasOwn(a, key) ? a[key] : undefined;
    const y = Object.hasOwn(b, key) ? b[key] : undefined;
    if (sameValue(x, y)) continue;
    const here = [...keys, key];
    const xObject = isProjectionObject(x);
    const yObject = isProjectionObject(y);
    // an object against an object, or against nothing: compare leaf by leaf
    if ((xObject || x === undefined || x === null) && (yObject || y === undefined || y === null)) {
      if (xObject || yObject) {
        walk(xObject ? x : EMPTY, yObject ? y : EMPTY, here, out);
        continue;
      }
    }
    out.push({ path: pathOf(here), keys: here, before: leafOf(x), after: leafOf(y) });
  }
}

/** Fields in declaration order (the newer projection's first), then set members in key order. */
function orderedKeys(a: ProjectionObject, b: ProjectionObject): string[] {
  const fields: string[] = [];
  const members: string[] = [];
  for (const key of new Set([...Object.keys(b), ...Object.keys(a)])) (isMemberKey(key) ? members : fields).push(key);
  return [...fields, ...members.sort()];
}

/** A leaf as a change carries it; a whole object on one side (a shape change) is carried as null. */
function leafOf(value: unknown): Leaf {
  if (value === undefined || typeof value === 'symbol') return null;
  if (isProjectionObject(value as Leaf)) return null;
  return value as Leaf;
}
