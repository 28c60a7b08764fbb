/**
 * Reads REST query parameters into GraphQL variables (decisions §6): a required parameter must be present
 * and non-empty, no known parameter may be repeated, every value is checked for control characters and
 * length. Unknown parameters are ignored. Field-level syntax (hostnames, URLs, ...) is the resolver's.
 */
import { suggestionList } from 'graphql/jsutils/suggestionList.js';
import { InputError } from '../errors.js';
import { checkParameterText, parsePort } from '../validation.js';

export class QueryReader {
  /** `known`: the route's parameter names (a known name sent is never taken for a misspelling) */
  constructor(
    private readonly params: URLSearchParams,
    private readonly known: readonly string[] = [],
  ) {}

  private single(name: string): string | null {
    const all = this.params.getAll(name);
    if (all.length > 1) throw new InputError(name, `${name}: the parameter is repeated; pass it once`);
    return all[0] ?? null;
  }

  required(name: string): string {
    const v = this.single(name);
    if (v === null || v.trim() === '')
      throw new InputError(name, `${name}: missing required parameter${this.misspelt(name)}`);
    return checkParameterText(name, v);
  }

  /** A parameter sent under a near name (`domian` for `domain`): named in the message, as GraphQL does. */
  private misspelt(name: string): string {
    const near = suggestionList(
      name,
      [...this.params.keys()].filter((sent) => !this.known.includes(sent)),
    )[0];
    return near === undefined ? '' : ` (the request has "${near.slice(0, 64)}": did you mean "${name}"?)`;
  }

  optional(name: string): string | null {
    const v = this.single(name);
    if (v === null || v.trim() === '') return null;
    return checkParameterText(name, v);
  }

  port(name: string): number {
    return parsePort(name, this.required(name));
  }

  /** A port that may be left out (null: the check's default). */
  optionalPort(name: string): number | null {
    const v = this.optional(name);
    return v === null ? null : parsePort(name, v);
  }
}
