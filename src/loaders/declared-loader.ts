/**
 * A loader a check declares beside itself, rather than one added by hand to the shared check context: the
 * context keeps the common upstream families (DNS, addresses and the target guard, TLS/TCP connections,
 * fetch, SMTP, ping, IP facts); a check that needs more (a whole TLS rating, a registration look-up)
 * declares its loader with `declareLoader` and asks for it with `checks.use(loader)`. The context makes one
 * instance per request on first use, shared by every check of the request that uses the same declaration
 * — so a composite and the single check it embeds share answers (decisions §9).
 */
import type { ObserveUpstream } from '../platform/metrics.js';
import type { ResolvedAddress, TargetGuard } from '../probes/guard.js';
import type { LoaderDependencies } from './dependencies.js';

/** What a declared loader is made from: the long-lived services and the request's own signal, guard and counters. */
export interface LoaderScope {
  readonly services: LoaderDependencies;
  /** the request's signal (client gone, deadline passed, request ended) */
  readonly signal: AbortSignal;
  /** waits for the family's process-wide slot, then counts the question by outcome (src/platform/metrics.ts) */
  readonly observe: ObserveUpstream;
  /** A and AAAA of a name through the request's system-resolver loader */
  addresses(name: string): Promise<ResolvedAddress[]>;
  /** the target guard's verdict on one address (decisions §7): throws when it is refused */
  assertAllowed(address: string, target: string): void;
  readonly guard: TargetGuard;
}

export interface DeclaredLoader<T> {
  /** for messages and the docs */
  readonly name: string;
  readonly make: (scope: LoaderScope) => T;
}

/** A per-request loader declared by the check(s) that use it; `make` runs once per request, on first use. */
export function declareLoader<T>(name: string, make: (scope: LoaderScope) => T): DeclaredLoader<T> {
  return { name, make };
}
