/**
 * Which MX hosts, and which of their addresses, a check follows (the caps are fan-out-limits.ts's).
 * Pure: mx-lookup, mailhealth-check and mta-sts all select with these, so they follow the same hosts.
 */
import { MX_MAX_ADDRESSES_PER_EXCHANGE, MX_MAX_EXCHANGES } from '../../../loaders/fan-out-limits.js';
import { canonicalName } from '../../../net/dns-name.js';
import type { MxEntry } from './records.js';

/** The part of a list a check follows, and how many it left out. */
export interface Followed<T> {
  followed: T[];
  omitted: number;
}

/** The root name: the exchange of a null MX (RFC 7505 §3). */
export function isRootExchange(exchange: string): boolean {
  return exchange === '' || exchange === '.';
}

/** RFC 7505 §3: a null MX is the only MX record, with the exchange ".". */
export function isNullMx(records: readonly MxEntry[]): boolean {
  return records.length === 1 && isRootExchange(records[0]!.exchange);
}

/**
 * The MX_MAX_EXCHANGES best hosts: lowest preference first (RFC 5321 §5.1), ties by name so that
 * every request follows the same ones. A null MX's root exchange is no host.
 */
export function bestExchanges(records: readonly MxEntry[]): Followed<MxEntry> {
  const hosts = records
    .filter((r) => !isRootExchange(r.exchange))
    .sort((a, b) => a.priority - b.priority || canonicalName(a.exchange).localeCompare(canonicalName(b.exchange)));
  return { followed: hosts.slice(0, MX_MAX_EXCHANGES), omitted: Math.max(0, hosts.length - MX_MAX_EXCHANGES) };
}

/** A host's first MX_MAX_ADDRESSES_PER_EXCHANGE addresses, in the order given (IPv4 first from the check context). */
export function followedAddresses<T>(addresses: readonly T[]): Followed<T> {
  return {
    followed: addresses.slice(0, MX_MAX_ADDRESSES_PER_EXCHANGE),
    omitted: Math.max(0, addresses.length - MX_MAX_ADDRESSES_PER_EXCHANGE),
  };
}
