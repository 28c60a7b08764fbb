/**
 * dns-blacklist-checker: the address to check and the awaiting part. Every list of `dnsbl.zones` is
 * asked in parallel through the system resolver (each question bounded by `dns.timeoutMs`, so a dead
 * list costs one time-out, not one per list); the meaning of each answer is dnsbl.ts's.
 *
 * The address (api-v1.md rule 11): an IPv4 literal, or a domain's first IPv4 address. A domain with
 * only AAAA records is reported as `ipv6Only` and nothing is checked: block lists are keyed by IPv4
 * address in practice, and an IPv6 literal is refused as input for the same reason. A special-purpose
 * IPv4 address (RFC 6890: private, loopback, documentation, …) is refused with TARGET_REFUSED:
 * public lists do not list such space, so any answer about it would mean nothing. `targets.allow`
 * does not change that — it governs where probes may connect, and nothing connects to this address.
 */
import { InputError, TargetRefusedError } from '../../errors.js';
import { classifyAddress } from '../../net/address-class.js';
import { recordsOfType } from '../../probes/dns.js';
import { isProbeError } from '../../probes/errors.js';
import { parseHostOrIp, type HostOrIp } from '../../validation.js';
import type { CheckContext } from '../context.js';
import { classifyDnsblOutcome, countListed, dnsblQueryName, type DnsblListResult, type DnsblOutcome, type DnsblZone } from './dnsbl.js';

export interface DnsblCheckResult {
  /** the host as given (normalised: lower case, numeric IPv4 forms as dotted quads) */
  host: string;
  /** the IPv4 address checked; with `ipv6Only`, the first IPv6 address of the domain */
  ip: string;
  /** the domain the address was resolved from; null when `host` was an address */
  resolvedFrom: string | null;
  /** one entry per configured list, in configuration order; [] when `ipv6Only` */
  results: DnsblListResult[];
  listedCount: number;
  /** the domain has AAAA records but no A record: no list was asked */
  ipv6Only: boolean;
}

/** `host`: an IPv4 address or a domain (api-v1.md rule 11). Pure: refuses what can be refused before any question. */
export function parseDnsblHost(parameter: string, value: string): HostOrIp {
  const host = parseHostOrIp(parameter, value);
  if (host.kind === 'ip' && host.family === 6) {
    throw new InputError(
      parameter,
      `${parameter}: ${host.ip} is an IPv6 address; block lists are checked for IPv4 addresses, so give an IPv4 address or a domain`,
    );
  }
  if (host.kind === 'ip') refuseSpecialPurpose(host.ip, host.ip);
  return host;
}

function refuseSpecialPurpose(ip: string, target: string): void {
  const verdict = classifyAddress(ip);
  if (verdict.special) throw new TargetRefusedError(target, ip, verdict.range);
}

export async function runDnsblCheck(ctx: CheckContext, host: HostOrIp): Promise<DnsblCheckResult> {
  if (host.kind === 'ip') return checkAddress(ctx, host.ip, host.ip, null);
  const { hostname } = host;
  const addresses = await ctx.addresses(hostname);
  const ipv4 = addresses.find((a) => a.family === 4);
  if (ipv4 === undefined) {
    const ipv6 = addresses.find((a) => a.family === 6);
    if (ipv6 === undefined) {
      throw new InputError('host', `host: ${hostname} has no A or AAAA record, so there is no address to check`);
    }
    return { host: hostname, ip: ipv6.address, resolvedFrom: hostname, results: [], listedCount: 0, ipv6Only: true };
  }
  refuseSpecialPurpose(ipv4.address, hostname);
  return checkAddress(ctx, hostname, ipv4.address, hostname);
}

async function checkAddress(ctx: CheckContext, host: string, ip: string, resolvedFrom: string | null): Promise<DnsblCheckResult> {
  const results = await Promise.all(ctx.config.dnsbl.zones.map((list) => checkList(ctx, ip, list)));
  return { host, ip, resolvedFrom, results, listedCount: countListed(results), ipv6Only: false };
}

/** One list: its A answer decides; a listing also gets the list's TXT explanation (RFC 5782 §2.1). */
async function checkList(ctx: CheckContext, ip: string, list: DnsblZone): Promise<DnsblListResult> {
  const query = dnsblQueryName(ip, list.zone);
  let outcome: DnsblOutcome;
  try {
    const response = await ctx.resolve(query, 'A');
    outcome = { kind: 'answer', rcode: response.rcode, addresses: recordsOfType(response, query, 'A').map((r) => r.data as string) };
  } catch (e) {
    // The request ending is not a finding about this list: let it end the check.
    if (isProbeError(e) && e.kind !== 'ABORTED') return classifyDnsblOutcome(list, query, { kind: 'error', error: e });
    throw e;
  }
  const result = classifyDnsblOutcome(list, query, outcome);
  if (result.status !== 'listed') return result;
  return classifyDnsblOutcome(list, query, { ...outcome, txt: await listingExplanation(ctx, query) });
}

/**
 * The TXT record a list publishes beside a listing. It only words the reason: when it cannot be had,
 * the listing stands and the reason falls back to the meaning of the code (dnsbl.ts).
 */
async function listingExplanation(ctx: CheckContext, query: string): Promise<string[]> {
  try {
    const response = await ctx.resolve(query, 'TXT');
    return recordsOfType(response, query, 'TXT').map((r) => r.data as string);
  } catch (e) {
    if (isProbeError(e) && e.kind !== 'ABORTED') return [];
    throw e;
  }
}
