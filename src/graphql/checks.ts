/**
 * The registry of check fields. Each Query field that runs a check is registered here with its REST
 * tool name (its price, from `quota.costs`) and its argument parser (the validation module), so that the
 * credit plugin can price an operation *before* execution and leave unpriced the fields whose input is
 * invalid (decisions §1: a 400 is not charged), and the resolver validates with the very same parser.
 */
import type { CheckContext } from '../loaders/context.js';
import type { RequestContext } from './context.js';

export interface CheckSpec {
  /** GraphQL field name on Query */
  readonly field: string;
  /** REST tool name: the last path segment, and the key of `quota.costs` */
  readonly tool: string;
  /** composite checks get the longer bound of decisions §8 */
  readonly composite: boolean;
  readonly parse: (args: any, ctx: RequestContext) => unknown;
}

const specs = new Map<string, CheckSpec>();

export function checkSpecForField(field: string): CheckSpec | undefined {
  return specs.get(field);
}

export function allCheckSpecs(): CheckSpec[] {
  return [...specs.values()];
}

/**
 * Registers a check and returns its resolver: parse (validate) the arguments, then run the check.
 * `parse` throws InputError for bad input; `run` gets the parsed arguments and the check context.
 */
export function defineCheck<A, P, R>(spec: {
  field: string;
  tool: string;
  composite?: boolean;
  parse: (args: A, ctx: RequestContext) => P;
  /** `checks` is the request's check context (probes behind per-request loaders) */
  run: (parsed: P, checks: CheckContext, ctx: RequestContext) => Promise<R> | R;
}): (parent: unknown, args: A, ctx: RequestContext) => Promise<R> {
  if (specs.has(spec.field)) throw new Error(`check field ${spec.field} is defined twice`);
  specs.set(spec.field, { field: spec.field, tool: spec.tool, composite: spec.composite ?? false, parse: spec.parse });
  return async (_parent, args, ctx) => {
    const parsed = spec.parse(args, ctx);
    // A run function that declares no check-context parameter (my-ip) does no I/O: building the
    // loaders and the request's deadline signal for it would be pure overhead on the hottest path.
    const checks = spec.run.length >= 2 ? ctx.scope.checks : (undefined as unknown as CheckContext);
    return spec.run(parsed, checks, ctx);
  };
}
