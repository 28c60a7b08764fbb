/**
 * The policies of the three credit ledgers, in one place for the process that holds them: a worker's
 * services (create-services.ts) or, with several workers and no Redis, the primary
 * (src/cluster/primary.ts). A module of its own so that the primary does not load the web and GraphQL
 * layers (the schema and its checks) to learn two numbers.
 */
import type { Config } from '../config.js';
import type { QuotaPolicy } from './quota.js';

/** The developer page issues keys per client address per day (README "Developer page and free keys"). */
export const ISSUE_WINDOW_SECONDS = 86_400;

export interface LedgerPolicies {
  /** the keys' allowance */
  readonly quota: QuotaPolicy;
  /** keys issued per client address */
  readonly issue: QuotaPolicy;
  /** requests without a key per client address */
  readonly unkeyed: QuotaPolicy;
}

export function ledgerPolicies(config: Config): LedgerPolicies {
  return {
    quota: { credits: config.quota.credits, windowSeconds: config.quota.windowSeconds },
    issue: { credits: config.auth.issuePerIpPerDay, windowSeconds: ISSUE_WINDOW_SECONDS },
    unkeyed: { credits: config.unkeyed.requests, windowSeconds: config.unkeyed.windowSeconds },
  };
}
