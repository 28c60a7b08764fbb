/**
 * One definition per check. `defineCheck` declares, once, everything the service derives a check from:
 * the Query field (name, result type, description, arguments), the REST tool name (the route
 * `GET /api/v1/<tool>`, the price key of `quota.costs` — prices are configuration — and the metrics
 * label), its family (the OpenAPI tag), its REST parameters, the argument parser and the function that
 * runs it.
 *
 * From it come the GraphQL field (registered here with the definition in its `extensions.check`), the
 * REST route (src/rest/routes.ts, with the fixed document schema/rest/<tool>.graphql, checked against
 * the definition at start), pricing before execution (src/graphql/pricing.ts; a field the same parser
 * refuses is given its price back after execution, src/graphql/plugins/use-credits.ts) and the OpenAPI operation.
 * Every module in src/graphql/definitions/ is such a definition; src/graphql/schema.ts loads them all.
 */
import type { OutputRef } from '@pothos/core';
import { decidedBeforeUpstream } from '../errors.js';
import type { CheckContext } from '../loaders/context.js';
import { builder } from './builder.js';
import type { RequestContext } from './context.js';

/** The families checks are grouped in (the OpenAPI document's tags, in this order). */
export const CHECK_FAMILIES = {
  DNS: 'Records, propagation, DNSSEC and block lists.',
  Mail: 'Who may send mail for a domain: SPF, DKIM, DMARC.',
  'Mail transport':
    'Whether mail to a domain travels encrypted and authenticated: STARTTLS, MTA-STS, TLS reporting, DANE; and its BIMI logo.',
  'TLS/HTTP': 'Certificates, TLS versions, HTTP headers and page metadata.',
  Registry: 'Registration data from RDAP and WHOIS.',
  IP: 'Addresses, networks and reachability.',
  Composite: 'Several checks with rules and a verdict.',
} as const;

export type CheckFamily = keyof typeof CHECK_FAMILIES;

/**
 * How a REST query parameter becomes the argument of the same name: `required` and `optional` text
 * (checked for length and control characters), `port` a required port number, `optionalPort` one that
 * may be left out. Unknown parameters are ignored (docs/getting-started.md "REST parameters").
 */
export type RestParameterKind = 'required' | 'optional' | 'port' | 'optionalPort';

type ArgBuilder = Parameters<Parameters<typeof builder.queryField>[1]>[0]['arg'];

interface CheckDefinitionBase<A, P, R> {
  /** the Query field */
  readonly field: string;
  /** the REST tool name: the route's last path segment, the key of `quota.costs`, the metrics label */
  readonly tool: string;
  readonly family: CheckFamily;
  /** a composite check: the longer request bound (`server.compositeTimeoutMs`) */
  readonly composite?: boolean;
  readonly type: OutputRef<R>;
  readonly description: string;
  /** the field's arguments, built with Pothos' argument builder */
  readonly args?: (arg: ArgBuilder) => Record<string, unknown>;
  /** the REST query parameters, each feeding the argument of its name */
  readonly rest: Readonly<Record<string, RestParameterKind>>;
  /** validates the arguments (throws InputError): also run before execution to price the operation */
  readonly parse: (args: A, ctx: RequestContext) => P;
}

/**
 * A check that asks upstreams: `run` gets the request's check context (probes behind per-request loaders)
 * first, as every run function of src/checks/ takes it, so a definition names its run function as it is.
 */
interface IoCheckDefinition<A, P, R> extends CheckDefinitionBase<A, P, R> {
  readonly run: (checks: CheckContext, parsed: P, ctx: RequestContext) => Promise<R> | R;
}

/**
 * A check that only reads the request (my-ip): no check context, no deadline timer and no loaders are
 * made for it — the hottest path of the service.
 */
interface LocalCheckDefinition<A, P, R> extends CheckDefinitionBase<A, P, R> {
  readonly answer: (parsed: P, ctx: RequestContext) => R;
}

export type CheckDefinition<A = any, P = any, R = any> = IoCheckDefinition<A, P, R> | LocalCheckDefinition<A, P, R>;

const definitions = new Map<string, CheckDefinition>();
const definitionsByTool = new Map<string, CheckDefinition>();

/** The definition behind a Query field, or undefined for a field that is not a check. */
export function checkSpecForField(field: string): CheckDefinition | undefined {
  return definitions.get(field);
}

/** Every check, grouped by family in CHECK_FAMILIES order, by tool name within a family. */
export function allCheckSpecs(): CheckDefinition[] {
  const families = Object.keys(CHECK_FAMILIES);
  return [...definitions.values()].sort(
    (a, b) => families.indexOf(a.family) - families.indexOf(b.family) || a.tool.localeCompare(b.tool),
  );
}

/** Declares a check: registers its Query field and its definition (see the module comment). */
export function defineCheck<A, P, R>(definition: IoCheckDefinition<A, P, R> | LocalCheckDefinition<A, P, R>): void {
  const { field, tool } = definition;
  if (definitions.has(field)) throw new Error(`check field ${field} is defined twice`);
  const other = definitionsByTool.get(tool);
  if (other) throw new Error(`tool ${tool} is defined by ${other.field} and ${field}`);
  definitions.set(field, definition);
  definitionsByTool.set(tool, definition);

  // What the parser refuses is refused before anything is sent upstream: its price is given back.
  const parse = (args: A, ctx: RequestContext): P => {
    try {
      return definition.parse(args, ctx);
    } catch (e) {
      throw decidedBeforeUpstream(e);
    }
  };
  const resolve =
    'run' in definition
      ? async (_parent: unknown, args: A, ctx: RequestContext) => {
          // parsed first: a refused input never makes the check context (its loaders, its deadline)
          const parsed = parse(args, ctx);
          return definition.run(ctx.scope.checks, parsed, ctx);
        }
      : async (_parent: unknown, args: A, ctx: RequestContext) => definition.answer(parse(args, ctx), ctx);

  builder.queryField(field, (t) =>
    t.field({
      nullable: true,
      type: definition.type,
      description: definition.description,
      ...(definition.args ? { args: definition.args(t.arg) } : {}),
      extensions: { check: { tool, family: definition.family, composite: definition.composite ?? false } },
      resolve,
      // Pothos infers argument and result types from literal options; a definition carries them as
      // values, typed by the definition itself (parse, run and the result type against each other).
    } as never),
  );
}
