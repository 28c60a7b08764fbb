/**
 * One declaration per check. A check is one folder, `src/checks/<family>/<check>/`, and its `check.ts` calls
 * `defineCheck` once with everything the service derives the check from: the Query field (name, result
 * type, description, arguments), the REST tool name (the route `GET /api/v1/<tool>` and its parameters, the
 * key of `quota.costs`, the metrics label), its family (the OpenAPI tag and the docs page), the argument
 * parser, the function that runs it, its default price, the composites it is a part of, and what monitors
 * watch of its answer.
 *
 * From it come the GraphQL field (registered here with the declaration in its `extensions.check`), the
 * REST route and its document (src/rest/routes.ts, scripts/rest-documents/generate.ts), pricing before
 * execution (./pricing.ts; a field the same parser refuses is given its price back after execution), the
 * OpenAPI operation and the docs page. The schema assembly (src/graphql-server/schema.ts) loads every
 * `check.ts` (src/graphql-server/load-declarations.ts) and then completes what depends on all of them
 * (`completeDeclarations`: a composite's parts).
 */
import type { OutputRef } from '@pothos/core';
import { decidedBeforeUpstream } from '../errors.js';
import type { CheckContext } from '../loaders/context.js';
import { builder } from './builder.js';
import type { RequestContext } from './context.js';
import type { CompiledWatchSpec } from '../watch/watch-spec.js';

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
 * `TLS/HTTP` → `tls-http`, `Mail transport` → `mail-transport`: the family's folder under src/checks/ and
 * its page under docs/tools/.
 */
export function familySlug(family: string): string {
  return family
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

/**
 * How a REST query parameter becomes the argument of the same name: `required` and `optional` text
 * (checked for length and control characters), `port` a required port number, `optionalPort` one that
 * may be left out. Unknown parameters are ignored (docs/getting-started.md "REST parameters").
 */
export type RestParameterKind = 'required' | 'optional' | 'port' | 'optionalPort';

type ArgBuilder = Parameters<Parameters<typeof builder.queryField>[1]>[0]['arg'];

/**
 * How a composite embeds a check (made by the composites of src/checks/composite/): given the check's
 * declaration, the part registers itself with its composite, which derives its details type, its
 * `@flatten` mark and its place in the verdict from it.
 */
export interface PartOfComposite {
  /** the composite's tool and the part's id, for the docs and the tests */
  readonly composite: string;
  readonly id: string;
  join(check: CheckDeclaration): void;
}

interface CheckDeclarationBase<A, P, R> {
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
  /** the REST query parameters, each feeding the argument of its name (the first is the main one) */
  readonly rest: Readonly<Record<string, RestParameterKind>>;
  /** validates the arguments (throws InputError): also run before execution to price the operation */
  readonly parse: (args: A, ctx: RequestContext) => P;
  /**
   * Credits of one call by default; left out, the check costs `quota.costs.default`. An operator's
   * `quota.costs` entry for the tool wins over both.
   */
  readonly price?: number;
  /** the composites this check is a part of (src/checks/composite/) */
  readonly partOf?: readonly PartOfComposite[];
  /**
   * Fields of the REST document that REST answers in place of the object holding them (`@flatten`,
   * src/rest/flatten.ts), as `Type.field`: a composite derives them from its parts.
   */
  readonly flatten?: () => readonly string[];
  /** fields, as `Type.field`, the REST document leaves out, each with the reason REST does without it */
  readonly restLeavesOut?: Readonly<Record<string, string>>;
  /**
   * What monitors watch of the check (docs/contract/monitors.md "Events": a check's watched fields): the
   * projection of the REST answer's `data` compared between two runs, which paths rank better or worse, what
   * in it expires, and the state a person sees (src/watch/, the check's `watch.ts`). Every check a monitor
   * may run has one (all but those answering about the caller: my-ip, what-is-my-ip); monitors receive the
   * specs as data (src/graphql-server/watch-specs.ts).
   */
  readonly watch?: CompiledWatchSpec;
}

/**
 * A check that asks upstreams: `run` gets the request's check context (probes behind per-request loaders)
 * first, as every run function of src/checks/ takes it, so a declaration names its run function as it is.
 */
interface IoCheckDeclaration<A, P, R> extends CheckDeclarationBase<A, P, R> {
  readonly run: (checks: CheckContext, parsed: P, ctx: RequestContext) => Promise<R> | R;
}

/**
 * A check that only reads the request (my-ip): no check context, no deadline timer and no loaders are
 * made for it — the hottest path of the service.
 */
interface LocalCheckDeclaration<A, P, R> extends CheckDeclarationBase<A, P, R> {
  readonly answer: (parsed: P, ctx: RequestContext) => R;
}

export type CheckDeclaration<A = any, P = any, R = any> = IoCheckDeclaration<A, P, R> | LocalCheckDeclaration<A, P, R>;

const byField = new Map<string, CheckDeclaration>();
const byTool = new Map<string, CheckDeclaration>();
const completions: (() => void)[] = [];
let completed = false;

/** The declaration behind a Query field, or undefined for a field that is not a check. */
export function checkOfField(field: string): CheckDeclaration | undefined {
  return byField.get(field);
}

/** The declaration of a REST tool, or undefined. */
export function checkOfTool(tool: string): CheckDeclaration | undefined {
  return byTool.get(tool);
}

/** Every check, grouped by family in CHECK_FAMILIES order, by tool name within a family. */
export function allChecks(): CheckDeclaration[] {
  const families = Object.keys(CHECK_FAMILIES);
  return [...byField.values()].sort(
    (a, b) => families.indexOf(a.family) - families.indexOf(b.family) || a.tool.localeCompare(b.tool),
  );
}

/**
 * Work that needs every declaration (a composite's union of its parts' details): run once by
 * `completeDeclarations`, after every `check.ts` is loaded and before the schema is built.
 */
export function whenAllDeclared(complete: () => void): void {
  if (completed) throw new Error('whenAllDeclared after the declarations were completed');
  completions.push(complete);
}

/** Called once by the schema assembly, after loading every declaration. */
export function completeDeclarations(): void {
  if (completed) return;
  completed = true;
  for (const complete of completions) complete();
}

/** Declares a check: registers its Query field and its declaration (see the module comment). */
export function defineCheck<A, P, R>(declaration: IoCheckDeclaration<A, P, R> | LocalCheckDeclaration<A, P, R>): void {
  const { field, tool } = declaration;
  if (byField.has(field)) throw new Error(`check field ${field} is defined twice`);
  const other = byTool.get(tool);
  if (other) throw new Error(`tool ${tool} is defined by ${other.field} and ${field}`);
  if (completed) throw new Error(`check ${tool} declared after the declarations were completed`);
  byField.set(field, declaration);
  byTool.set(tool, declaration);

  // What the parser refuses is refused before anything is sent upstream: its price is given back.
  const parse = (args: A, ctx: RequestContext): P => {
    try {
      return declaration.parse(args, ctx);
    } catch (e) {
      throw decidedBeforeUpstream(e);
    }
  };
  const resolve =
    'run' in declaration
      ? async (_parent: unknown, args: A, ctx: RequestContext) => {
          // parsed first: a refused input never makes the check context (its loaders, its deadline)
          const parsed = parse(args, ctx);
          return declaration.run(ctx.scope.checks, parsed, ctx);
        }
      : async (_parent: unknown, args: A, ctx: RequestContext) => declaration.answer(parse(args, ctx), ctx);

  builder.queryField(field, (t) =>
    t.field({
      nullable: true,
      type: declaration.type,
      description: declaration.description,
      ...(declaration.args ? { args: declaration.args(t.arg) } : {}),
      extensions: { check: { tool, family: declaration.family, composite: declaration.composite ?? false } },
      resolve,
      // Pothos infers argument and result types from literal options; a declaration carries them as
      // values, typed by the declaration itself (parse, run and the result type against each other).
    } as never),
  );
  for (const part of declaration.partOf ?? []) part.join(declaration);
}
