/**
 * The per-request budget of connections to targets (issue 31 finding 4): no request makes the service
 * connect to third parties more than CONNECTIONS_PER_CREDIT times for each credit it costs. Every TCP
 * connect (port tests, each address an HTTP hop tries), TLS handshake and hand-built ClientHello, and SMTP
 * session a request's loaders open is spent here first, once per distinct question (a repeat is the
 * per-request loader's answer, free), like the DNS question budget (question-budget.ts). What the budget
 * refuses fails with FAN_OUT_LIMIT, never silently: a check that can go on without it plans within
 * `remaining` (tls-rating) or reports what it did not test (a redirect chain ends where the budget does).
 *
 * Not counted here: DNS questions (their own budget), ICMP echoes (ping's count bounds them), and the
 * registries' WHOIS and RDAP servers (the service's own data sources, cached across requests).
 */
import { NetdiagError } from '../errors.js';

/** The invariant: at most this many connections to targets per credit a request costs. */
export const CONNECTIONS_PER_CREDIT = 10;

/** A request wanted more connections to targets than its price allows (502: the check could not be done). */
export class ConnectionBudgetError extends NetdiagError {
  readonly limit: number;
  constructor(limit: number, what: string) {
    super(
      'FAN_OUT_LIMIT',
      502,
      `${what} was not attempted: this request has opened the ${limit} connections to targets its price allows (${CONNECTIONS_PER_CREDIT} per credit)`,
    );
    this.limit = limit;
  }
}

export interface ConnectionBudget {
  /** spends one connection; throws ConnectionBudgetError once the budget is spent */
  spend(what: string): void;
  readonly limit: number;
  /** connections spent so far */
  readonly used: number;
  readonly remaining: number;
}

/** The budget of a request that costs `credits` (a price of 0, an operator's free tool, counts as 1). */
export function connectionBudgetFor(credits: number): number {
  return CONNECTIONS_PER_CREDIT * Math.max(1, credits);
}

export function createConnectionBudget(limit: number): ConnectionBudget {
  let used = 0;
  return {
    spend(what) {
      if (used >= limit) throw new ConnectionBudgetError(limit, what);
      used++;
    },
    limit,
    get used() {
      return used;
    },
    get remaining() {
      return Math.max(0, limit - used);
    },
  };
}

/** `run`'s promise once a connection is spent; the budget's refusal as a rejection. */
export async function spendThen<R>(
  budget: Pick<ConnectionBudget, 'spend'>,
  what: string,
  run: () => Promise<R>,
): Promise<R> {
  budget.spend(what);
  return run();
}
