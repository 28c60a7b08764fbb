/**
 * The limits of the developer page's key form, all kept in the issue ledger (`services.issueLedger`),
 * so they hold across workers and instances wherever that ledger lives (the primary over IPC, or
 * Redis); each kind of entry has its own allowance (src/platform/ledger-policies.ts):
 * - each form token is used once: its nonce is charged 1 against an allowance of 1 for as long as the
 *   token can be accepted, and the store's atomic check-and-charge refuses the second use even when
 *   both arrive at the same moment on different instances;
 * - `auth.issuePerIpPerDay` keys per client per rolling 24 h, a client being an IPv4 address or an
 *   IPv6 /48;
 * - `auth.issuePerHour` keys per rolling hour to all clients together, which bounds what someone with
 *   addresses in many networks can collect.
 */
import ipaddr from 'ipaddr.js';
import type { ClientAddress } from '../platform/client-address.js';
import { ISSUE_LEDGER_KEYS } from '../platform/ledger-policies.js';
import type { ChargeOutcome, QuotaStore } from '../platform/quota.js';

/** Whom the per-client limit counts, as a ledger key and in words for the refusal page. */
export interface IssuanceClient {
  readonly key: string;
  readonly label: string;
}

/**
 * An IPv4 address (an IPv4-mapped IPv6 address has been made IPv4 when the client address was read),
 * or an IPv6 /48. Not the /64 that the unkeyed budget counts: a /48 is what one site is routinely
 * given (RFC 6177) and what tunnel brokers and cloud accounts hand out for free, and it holds 65,536
 * /64s — counted by /64, one site could take 65,536 times the limit.
 */
export function issuanceClient(client: ClientAddress): IssuanceClient {
  if (client.version === 'IPv4') return { key: client.ip, label: `the address ${client.ip}` };
  const parts = ipaddr.IPv6.parse(client.ip).parts;
  const network = `${new ipaddr.IPv6([...parts.slice(0, 3), 0, 0, 0, 0, 0]).toString()}/48`;
  return { key: network, label: `the network ${network}` };
}

/** Spends the form token with this nonce: true the first time, false ever after (while it could be accepted). */
export async function spendFormToken(ledger: QuotaStore, nonce: string): Promise<boolean> {
  return (await ledger.charge(`${ISSUE_LEDGER_KEYS.formToken}${nonce}`, 1)).allowed;
}

export type IssuanceVerdict =
  | { readonly allowed: true; readonly keysLeftForClient: number }
  | { readonly allowed: false; readonly limit: 'client' | 'all-clients'; readonly retryAfterSeconds: number };

/**
 * Counts one key against the client's limit and then against all clients'. The client's own limit
 * comes first so that a client over it does not use up the shared count; when the shared count
 * refuses, the client's charge is given back, since no key was issued.
 */
export async function chargeIssuance(ledger: QuotaStore, client: IssuanceClient): Promise<IssuanceVerdict> {
  const clientKey = `${ISSUE_LEDGER_KEYS.perClient}${client.key}`;
  const forClient = await ledger.charge(clientKey, 1);
  if (!forClient.allowed) {
    return { allowed: false, limit: 'client', retryAfterSeconds: forClient.retryAfterSeconds };
  }
  // A give-back that cannot reach the ledger leaves the client one key short for a day: better than
  // turning the refusal (or the ledger's own error) into another error.
  const giveBack = () =>
    forClient.chargeId === null ? Promise.resolve() : ledger.refund(clientKey, forClient.chargeId, 1).catch(() => {});
  let forAll: ChargeOutcome;
  try {
    forAll = await ledger.charge(ISSUE_LEDGER_KEYS.allClients, 1);
  } catch (e) {
    await giveBack();
    throw e;
  }
  if (!forAll.allowed) {
    await giveBack();
    return { allowed: false, limit: 'all-clients', retryAfterSeconds: forAll.retryAfterSeconds };
  }
  return { allowed: true, keysLeftForClient: Math.max(0, forClient.remaining) };
}
