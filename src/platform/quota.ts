/**
 * The credit ledger (decisions §1): an exact rolling window per key. A charge expires exactly
 * `windowSeconds` after it was made. Check-and-charge is one atomic step of the store, so N concurrent
 * requests with credits for M < N admit exactly M.
 */
export interface ChargeOutcome {
  readonly allowed: boolean;
  /** credits left after this outcome */
  readonly remaining: number;
  /** seconds until the next (oldest) charge expires and frees credits; 0 when nothing is charged */
  readonly resetSeconds: number;
  /** when refused: seconds until enough credits are free for this cost */
  readonly retryAfterSeconds: number;
  /** handle to give part of the charge back (input errors found during execution are not charged) */
  readonly chargeId: string | null;
}

export interface QuotaStore {
  charge(keyId: string, cost: number): Promise<ChargeOutcome>;
  refund(keyId: string, chargeId: string, amount: number): Promise<void>;
  close(): Promise<void>;
}

export interface LedgerAllowance {
  readonly credits: number;
  readonly windowSeconds: number;
}

export interface QuotaPolicy extends LedgerAllowance {
  /**
   * Keys starting with one of these prefixes get that entry's allowance instead (the first match): one
   * store — one ledger of the primary's IPC set, one Redis key prefix — can then hold limits of
   * different sizes and windows, such as the issue ledger's per client, all clients and per form token.
   */
  readonly byKeyPrefix?: readonly PrefixAllowance[];
}

export interface PrefixAllowance extends LedgerAllowance {
  readonly prefix: string;
}

/** The allowance that applies to `keyId` under `policy`. */
export function allowanceOf(policy: QuotaPolicy, keyId: string): LedgerAllowance {
  if (policy.byKeyPrefix === undefined) return policy;
  return policy.byKeyPrefix.find((entry) => keyId.startsWith(entry.prefix)) ?? policy;
}

/**
 * One key's live charges, oldest first, as parallel columns of numbers with their running total (O(1)
 * check, amortised O(1) expiry). Columns of numbers rather than an object and an id string per charge:
 * a fraction of the memory per charge (docs/performance.md "Measured reasons behind design choices"),
 * and a key with a large allowance keeps a window's worth.
 */
interface Ledger {
  /** when each charge was made (ms) */
  readonly at: number[];
  /** what is left of each charge after refunds */
  readonly cost: number[];
  /** each charge's number, its refund handle */
  readonly id: number[];
  used: number;
}

/** In-memory ledger for a single instance. Memory: at most `credits` entries per key (every charge costs ≥ 1). */
export function createMemoryQuotaStore(policy: QuotaPolicy, now: () => number = Date.now): QuotaStore {
  const ledgers = new Map<string, Ledger>();
  let sequence = 0;
  const shortestWindowMs = Math.min(
    policy.windowSeconds * 1000,
    ...(policy.byKeyPrefix ?? []).map((entry) => entry.windowSeconds * 1000),
  );

  /** The key's ledger with expired charges dropped (a charge expires exactly one window after it was made). */
  const live = (keyId: string, t: number, windowMs: number): Ledger | undefined => {
    const ledger = ledgers.get(keyId);
    if (!ledger) return undefined;
    let expired = 0;
    while (expired < ledger.at.length && ledger.at[expired]! + windowMs <= t) ledger.used -= ledger.cost[expired++]!;
    if (expired > 0) for (const column of [ledger.at, ledger.cost, ledger.id]) column.splice(0, expired);
    if (ledger.at.length === 0) {
      ledgers.delete(keyId);
      return undefined;
    }
    return ledger;
  };

  // Sweep keys idle for a whole window so the map does not grow with every key ever seen.
  const sweep = setInterval(
    () => {
      const t = now();
      for (const keyId of [...ledgers.keys()]) live(keyId, t, allowanceOf(policy, keyId).windowSeconds * 1000);
    },
    Math.min(shortestWindowMs, 3_600_000),
  );
  sweep.unref();

  return {
    async charge(keyId, cost) {
      const t = now();
      const { credits, windowSeconds } = allowanceOf(policy, keyId);
      const windowMs = windowSeconds * 1000;
      const ledger = live(keyId, t, windowMs);
      const left = credits - (ledger?.used ?? 0);
      if (cost > left) {
        return {
          allowed: false,
          remaining: left,
          resetSeconds: secondsUntil(ledger?.at[0], windowMs, t),
          retryAfterSeconds: ledger ? retryAfter(ledger, cost - left, windowMs, t, windowSeconds) : windowSeconds,
          chargeId: null,
        };
      }
      let chargeId: string | null = null;
      let current = ledger;
      if (cost > 0) {
        const id = ++sequence;
        chargeId = String(id);
        if (!current) {
          current = { at: [], cost: [], id: [], used: 0 };
          ledgers.set(keyId, current);
        }
        current.at.push(t);
        current.cost.push(cost);
        current.id.push(id);
        current.used += cost;
      }
      return {
        allowed: true,
        remaining: left - cost,
        resetSeconds: secondsUntil(current?.at[0], windowMs, t),
        retryAfterSeconds: 0,
        chargeId,
      };
    },
    async refund(keyId, chargeId, amount) {
      const ledger = ledgers.get(keyId);
      // Refunds come right after the charge, so the entry is at the end: search backwards.
      const id = Number(chargeId);
      const index = ledger ? ledger.id.lastIndexOf(id) : -1;
      if (!ledger || index < 0) return;
      const back = Math.min(ledger.cost[index]!, amount);
      ledger.cost[index]! -= back;
      ledger.used -= back;
      if (ledger.cost[index] === 0) for (const column of [ledger.at, ledger.cost, ledger.id]) column.splice(index, 1);
      if (ledger.at.length === 0) ledgers.delete(keyId);
    },
    async close() {
      clearInterval(sweep);
    },
  };
}

function secondsUntil(oldestAt: number | undefined, windowMs: number, t: number): number {
  return oldestAt === undefined ? 0 : Math.max(1, Math.ceil((oldestAt + windowMs - t) / 1000));
}

/** Seconds until charges worth `needed` credits have expired (oldest first). */
function retryAfter(ledger: Ledger, needed: number, windowMs: number, t: number, windowSeconds: number): number {
  let freed = 0;
  for (let i = 0; i < ledger.at.length; i++) {
    freed += ledger.cost[i]!;
    if (freed >= needed) return Math.max(1, Math.ceil((ledger.at[i]! + windowMs - t) / 1000));
  }
  // The cost exceeds the whole allowance: it never fits. Say "a full window" rather than 0.
  return windowSeconds;
}

/** The IETF draft RateLimit fields plus the earlier drafts' X-less trio (decisions §1). */
export function rateLimitHeaders(policy: QuotaPolicy, outcome: ChargeOutcome): Record<string, string> {
  const headers: Record<string, string> = {
    'RateLimit-Policy': `"daily";q=${policy.credits};w=${policy.windowSeconds}`,
    RateLimit: `"daily";r=${Math.max(0, outcome.remaining)};t=${outcome.resetSeconds}`,
    'RateLimit-Limit': String(policy.credits),
    'RateLimit-Remaining': String(Math.max(0, outcome.remaining)),
    'RateLimit-Reset': String(outcome.resetSeconds),
  };
  if (!outcome.allowed) headers['Retry-After'] = String(outcome.retryAfterSeconds);
  return headers;
}
