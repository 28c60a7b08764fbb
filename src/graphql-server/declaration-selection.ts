/**
 * Which check declarations a process loads (./load-declarations.ts): every one, as a service does, or only
 * the checks a command asks for (`netdiag tls-rating …`, docs/cli.md "Performance"), so that a command
 * neither evaluates the other checks' code nor builds their part of the schema. The command selects before
 * it imports the schema; the schema is then assembled from what was loaded, and the REST routes and the
 * tool index list those checks only.
 *
 * A composite (`checks/composite/…`) needs every declaration (its parts' details are gathered from all of
 * them, src/graphql/check-declaration.ts `whenAllDeclared`), and a tool no folder is named for must meet
 * the full list to be refused as the service refuses it: either loads every declaration.
 */

/** A declaration's place: `<family>/<tool>/check.ts` below src/checks/ (the folder names the tool). */
export interface DeclarationFile {
  readonly family: string;
  readonly tool: string;
}

const COMPOSITE_FAMILY = 'composite';

let selected: readonly string[] | null = null;
let loaded = false;
let partial = false;

/**
 * Loads only these tools' declarations (null: every one). Must come before the schema is first imported:
 * afterwards the declarations are loaded, and a late selection would not change them.
 */
export function selectDeclarations(tools: readonly string[] | null): void {
  if (loaded) throw new Error('the check declarations were selected after they were loaded');
  selected = tools === null ? null : [...tools];
}

/** True when only some of the declarations were loaded (the REST routes then skip the others' documents). */
export function isPartialSelection(): boolean {
  return partial;
}

/**
 * The files to load for `wanted` tools, in their order: theirs when each names a folder and none is a
 * composite, else every one (null: the selection does not apply).
 */
export function declarationsFor<F extends DeclarationFile>(
  files: readonly F[],
  wanted: readonly string[] | null,
): { files: F[]; partial: boolean } {
  if (wanted === null) return { files: [...files], partial: false };
  const chosen = files.filter((f) => wanted.includes(f.tool));
  const applies = chosen.length === new Set(wanted).size && chosen.every((f) => f.family !== COMPOSITE_FAMILY);
  return applies ? { files: chosen, partial: chosen.length < files.length } : { files: [...files], partial: false };
}

/** The files to load under the current selection (./load-declarations.ts); from now the selection is fixed. */
export function declarationsToLoad<F extends DeclarationFile>(files: readonly F[]): F[] {
  loaded = true;
  const outcome = declarationsFor(files, selected);
  partial = outcome.partial;
  return outcome.files;
}
