/**
 * The policies of the three credit ledgers, in one place for the process that holds them: a worker's
 * services (create-services.ts) or, with several workers and no Redis, the primary
 * (src/cluster/primary.ts). A module of its own so that the primary does not load the web and GraphQL
 * layers (the schema and its checks) to learn two numbers.
 */
import type { Config } from '../config.js';
import type { QuotaPolicy } from './quota.js';

/** The developer page issues keys per client address per day (docs/keys-and-limits.md "Developer page and free keys"). */
export const ISSUE_WINDOW_SECONDS = 86_400;
/** The window of `auth.issuePerHour`, the cap on keys issued to all clients together. */
export const ISSUE_RATE_WINDOW_SECONDS = 3_600;

/** How long a rendered developer page's form stays usable. */
export const FORM_TOKEN_MAX_AGE_SECONDS = 3_600;
/** Tokens minted by another instance whose clock runs ahead are still accepted within this margin. */
export const FORM_TOKEN_CLOCK_SKEW_SECONDS = 300;

/**
 * The entries of the issue ledger, each with its own allowance (QuotaPolicy.byKeyPrefix): they share
 * one ledger so that they hold across workers and instances wherever that ledger lives (the primary's
 * IPC set, or Redis) without a ledger of their own.
 */
export const ISSUE_LEDGER_KEYS = {
  /** `issue:<client address or network>`: `auth.issuePerIpPerDay` per rolling day */
  perClient: 'issue:',
  /** one entry for every key issued: `auth.issuePerHour` per rolling hour */
  allClients: 'all-clients',
  /** `form:<token nonce>`: one use per token */
  formToken: 'form:',
} as const;

/**
 * How long a spent form token is remembered: as long as any instance may still accept it — its age
 * runs from −skew to the maximum age on the verifying instance's clock, and that clock may differ
 * from the ledger's by the skew again.
 */
const SPENT_FORM_TOKEN_SECONDS = FORM_TOKEN_MAX_AGE_SECONDS + 2 * FORM_TOKEN_CLOCK_SKEW_SECONDS;

export interface LedgerPolicies {
  /** the keys' allowance */
  readonly quota: QuotaPolicy;
  /** keys issued per client address, to all clients, and the form tokens spent */
  readonly issue: QuotaPolicy;
  /** requests without a key per client address */
  readonly unkeyed: QuotaPolicy;
}

export function ledgerPolicies(config: Config): LedgerPolicies {
  return {
    quota: { credits: config.quota.credits, windowSeconds: config.quota.windowSeconds },
    issue: {
      credits: config.auth.issuePerIpPerDay,
      windowSeconds: ISSUE_WINDOW_SECONDS,
      byKeyPrefix: [
        {
          prefix: ISSUE_LEDGER_KEYS.allClients,
          credits: config.auth.issuePerHour,
          windowSeconds: ISSUE_RATE_WINDOW_SECONDS,
        },
        { prefix: ISSUE_LEDGER_KEYS.formToken, credits: 1, windowSeconds: SPENT_FORM_TOKEN_SECONDS },
      ],
    },
    unkeyed: { credits: config.unkeyed.requests, windowSeconds: config.unkeyed.windowSeconds },
  };
}
