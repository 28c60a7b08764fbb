/**
 * The watch spec of every check a monitor may run, read from the registry of declarations (each check
 * declares its spec with `watch:`, src/graphql/check-declaration.ts): what monitors/ is given as data, since
 * it imports nothing of the checks or the schema (.dependency-cruiser.cjs "monitors-read-plain-data").
 */
import { allChecks } from '../graphql/check-declaration.js';
import type { CompiledWatchSpec } from '../watch/watch-spec.js';
import './load-declarations.js';

let specs: ReadonlyMap<string, CompiledWatchSpec> | undefined;

/** By tool name: every check but those answering about the caller (my-ip, what-is-my-ip), which declare none. */
export function watchSpecs(): ReadonlyMap<string, CompiledWatchSpec> {
  specs ??= new Map(allChecks().flatMap((check) => (check.watch ? [[check.tool, check.watch] as const] : [])));
  return specs;
}
