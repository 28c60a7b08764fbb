/**
 * ping `data` (api-v1.md) from the parsed transcript and the reverse lookup, and the
 * reverse-lookup rules. Pure: no I/O.
 */
import net from 'node:net';
import { recordsOfType, type DnsResponse } from '../../../probes/dns/client.js';
import type { ResolvedAddress } from '../../../probes/guard.js';
import { reversedAddressLabels } from '../../dns/dns-blacklist-checker/dnsbl.js';
import type { PingStatistics } from '../../../probes/ping/parse.js';

/** The PTR lookup of the pinged address: the name, or "" with the reason it is empty. */
export interface ReverseDns {
  /** the first PTR target without its trailing dot; "" when there is none or the lookup failed */
  name: string;
  /** why the lookup failed (time-out, SERVFAIL, …); null when it answered (NXDOMAIN and no PTR included) */
  error: string | null;
}

export interface PingData
  extends Pick<
    PingStatistics,
    'status' | 'sent' | 'received' | 'lost' | 'lossPercent' | 'min' | 'max' | 'average' | 'duplicates' | 'text'
  > {
  /** the host as requested, normalised (lower-case A-label without trailing dot, or canonical IP text) */
  host: string;
  /** the address pinged */
  ip: string;
  reverseDns: string;
  reverseDnsError: string | null;
  /** ICMP errors ping counted, e.g. Destination Host Unreachable from a router (PingStatistics.errors) */
  icmpErrors: number;
}

/**
 * The address to ping: the first IPv4 address, else the first IPv6 one — the rule of the
 * other single-connection checks (ssl-checker, port-checker), so that they and ping talk
 * to the same host of a dual-stack name. An IPv4-mapped IPv6 address never reaches
 * here: the guard reports it as IPv4.
 */
export function addressToPing(addresses: readonly ResolvedAddress[]): ResolvedAddress {
  const chosen = addresses.find((a) => a.family === 4) ?? addresses[0];
  // The guard never returns an empty list (a name without addresses is its InputError).
  if (chosen === undefined) throw new RangeError('the target guard returned no address');
  return chosen;
}

/** The reverse-lookup name of an IP: RFC 1035 §3.5 (in-addr.arpa) or RFC 3596 §2.5 (ip6.arpa, nibbles). */
export function reverseLookupName(ip: string): string {
  return `${reversedAddressLabels(ip)}.${net.isIPv4(ip) ? 'in-addr.arpa' : 'ip6.arpa'}`;
}

/**
 * The name a PTR answer gives: the first PTR record at `name` (CNAMEs followed, as RFC 2317
 * classless delegation needs), without the trailing dot; "" for NXDOMAIN or no PTR.
 */
export function reverseDnsFromResponse(response: DnsResponse, name: string): ReverseDns {
  const [first] = recordsOfType(response, name, 'PTR');
  const target = typeof first?.data === 'string' ? first.data.replace(/\.$/, '') : '';
  return { name: target, error: null };
}

export function pingData(host: string, ip: string, reverse: ReverseDns, statistics: PingStatistics): PingData {
  return {
    host,
    ip,
    reverseDns: reverse.name,
    reverseDnsError: reverse.error,
    status: statistics.status,
    sent: statistics.sent,
    received: statistics.received,
    lost: statistics.lost,
    lossPercent: statistics.lossPercent,
    min: statistics.min,
    max: statistics.max,
    average: statistics.average,
    duplicates: statistics.duplicates,
    icmpErrors: statistics.errors,
    text: statistics.text,
  };
}
