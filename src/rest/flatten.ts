/**
 * `@flatten` in a REST document (schema/rest/*.graphql): `holder { … field @flatten { … } }` means that
 * in the REST answer the field's value takes the place of the object that holds it.
 *
 * Why: a GraphQL union member may not select a field under a name another member uses with a different
 * type, so a composite's union members hold a single check's data under a field of their own
 * (`MailMtaStsDetails.mtaSts`), where the REST contract wants that data as the details themselves. The
 * directive is REST's alone, not the schema's: the route table reads the marks once at start and keeps
 * the document without them (plain GraphQL, valid wherever it is executed or shown), and the shim applies
 * the marks to the result (handler.ts) and to the documented shape (openapi.ts).
 */
import { Kind, visit, type DocumentNode, type FieldNode, type SelectionSetNode } from 'graphql';

const FLATTEN_DIRECTIVE = 'flatten';

/** Response names from the root field's value to a flattened field; lists on the way are walked through. */
export type FlattenPath = readonly string[];

function isFlattened(field: FieldNode): boolean {
  return field.directives?.some((d) => d.name.value === FLATTEN_DIRECTIVE) ?? false;
}

/** A REST document as GraphQL runs it, and the paths (from the root field's value) its marks flatten. */
export function readFlattenMarks(
  document: DocumentNode,
  root: FieldNode,
  where: string,
): { document: DocumentNode; paths: FlattenPath[] } {
  const paths = root.selectionSet ? flattenPathsOf(root.selectionSet, where) : [];
  const unmarked = visit(document, {
    Field: (field) =>
      isFlattened(field)
        ? { ...field, directives: field.directives?.filter((d) => d.name.value !== FLATTEN_DIRECTIVE) }
        : undefined,
    // what is left is a mark on something else than a field (a fragment), which means nothing
    Directive: (directive) => {
      if (directive.name.value === FLATTEN_DIRECTIVE)
        throw new Error(`${where}: @${FLATTEN_DIRECTIVE} belongs on a field`);
    },
  });
  return { document: unmarked, paths };
}

/**
 * Every flattened field under `selection`, inner ones before the fields that hold them (so that applying
 * them in order never looks for a name that was already flattened away). A selection the answer could
 * not be read back by is refused: two flattened fields in one object, or a name flattened in one union
 * member and plain in another.
 */
function flattenPathsOf(selection: SelectionSetNode, where: string): FlattenPath[] {
  const paths: FlattenPath[] = [];
  const walk = (set: SelectionSetNode, prefix: readonly string[]) => {
    const flattenedHere = new Map<string, boolean>();
    const collect = (members: SelectionSetNode) => {
      let inThisObject = 0;
      for (const s of members.selections) {
        if (s.kind === Kind.INLINE_FRAGMENT) collect(s.selectionSet);
        if (s.kind !== Kind.FIELD) continue;
        const name = s.alias?.value ?? s.name.value;
        const flattened = isFlattened(s);
        if (flattened && ++inThisObject > 1)
          throw new Error(`${where}: two @${FLATTEN_DIRECTIVE} fields would both replace the object at ${at(prefix)}`);
        if (flattenedHere.has(name) && flattenedHere.get(name) !== flattened)
          throw new Error(`${where}: "${name}" at ${at(prefix)} is flattened in one branch and not in another`);
        flattenedHere.set(name, flattened);
        if (s.selectionSet) walk(s.selectionSet, [...prefix, name]);
        if (flattened) paths.push([...prefix, name]);
      }
    };
    collect(set);
  };
  walk(selection, []);
  return paths;
}

function at(prefix: readonly string[]): string {
  return prefix.length === 0 ? 'the root' : prefix.join('.');
}

/** `value` with each path's field put in place of the object holding it (a holder without the field is left as it is). */
export function applyFlatten(value: unknown, paths: readonly FlattenPath[]): unknown {
  let out = value;
  for (const path of paths) out = flattenAt(out, path);
  return out;
}

function flattenAt(value: unknown, path: FlattenPath): unknown {
  if (Array.isArray(value)) return value.map((item) => flattenAt(item, path));
  if (value === null || typeof value !== 'object') return value;
  const [name, ...rest] = path as [string, ...string[]];
  if (!Object.hasOwn(value, name)) return value;
  const inner = (value as Record<string, unknown>)[name];
  return rest.length === 0 ? inner : { ...value, [name]: flattenAt(inner, rest) };
}
