/**
 * dns-blacklist-checker: the address to check and the awaiting part. Every list of `dnsbl.zones` is
 * asked in parallel through the system resolver (each question bounded by `dns.timeoutMs`, so a dead
 * list costs one time-out, not one per list); the meaning of each answer is dnsbl.ts's.
 *
 * The address (api-v1.md rule 11): an IPv4 literal, or a domain's first IPv4 address. A domain with
 * only AAAA records is reported as `ipv6Only` and nothing is checked: block lists are keyed by IPv4
 * address in practice, and an IPv6 literal is refused as input for the same reason. A special-purpose
 * IPv4 address (RFC 6890: private, loopback, documentation, …) is refused with TARGET_REFUSED:
 * public lists do not list such space, so any answer about it would mean nothing — unless
 * `targets.allow` covers it: that key means "treat these ranges as public here" (configuration.md),
 * for every check alike (an operator's internal lists, the test labs).
 */
import { InputError, TargetRefusedError } from '../../../errors.js';
import { refusedRange } from '../../../net/address-class.js';
import { recordsOfType } from '../../../probes/dns/client.js';
import { isProbeError, ProbeError } from '../../../probes/errors.js';
import { parseHostOrIp, type HostOrIp } from '../../../validation.js';
import type { CheckContext } from '../../../loaders/context.js';
import {
  classifyDnsblOutcome,
  countListed,
  dnsblQueryName,
  type DnsblListResult,
  type DnsblOutcome,
  type DnsblZone,
} from './dnsbl.js';

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
export function parseDnsblHost(parameter: string, value: string, allow: readonly string[]): HostOrIp {
  const host = parseHostOrIp(parameter, value);
  if (host.kind === 'ip' && host.family === 6) {
    throw new InputError(
      parameter,
      `${parameter}: ${host.ip} is an IPv6 address; block lists are checked for IPv4 addresses, so give an IPv4 address or a domain`,
    );
  }
  if (host.kind === 'ip') refuseSpecialPurpose(host.ip, host.ip, allow);
  return host;
}

function refuseSpecialPurpose(ip: string, target: string, allow: readonly string[]): void {
  const range = refusedRange(ip, allow);
  if (range !== null) throw new TargetRefusedError(target, ip, range);
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
  refuseSpecialPurpose(ipv4.address, hostname, ctx.config.targets.allow);
  return checkAddress(ctx, hostname, ipv4.address, hostname);
}

async function checkAddress(
  ctx: CheckContext,
  host: string,
  ip: string,
  resolvedFrom: string | null,
): Promise<DnsblCheckResult> {
  const checked = await Promise.all(ctx.config.dnsbl.zones.map((list) => checkList(ctx, ip, list)));
  const results = checked.map((c) => c.result);
  if (results.length > 0 && results.every((r) => r.status === 'error')) throw noListAnswered(checked);
  return { host, ip, resolvedFrom, results, listedCount: countListed(results), ipv6Only: false };
}

/**
 * Not one list could be asked, or every one answered with its own error code: the check could not be
 * done, which is a 502 (a 504 when every question ran out of time), as dns-lookup answers when every
 * question failed (docs/errors.md "Envelope and status codes"), rather than a 200 that reads like a result.
 */
function noListAnswered(checked: readonly CheckedList[]): ProbeError {
  const timedOut = checked.every((c) => c.failure?.kind === 'TIMEOUT');
  const first = checked[0]!;
  const reasons = checked.slice(0, 3).map((c) => `${c.result.zone}: ${c.result.reason ?? 'error'}`);
  const more = checked.length > 3 ? `; and ${checked.length - 3} more` : '';
  return new ProbeError(
    timedOut ? 'TIMEOUT' : (first.failure?.kind ?? 'MALFORMED'),
    first.failure?.upstream ?? first.result.zone,
    `no block list could be checked (${reasons.join('; ')}${more})`,
  );
}

interface CheckedList {
  result: DnsblListResult;
  /** the question failed (time-out, SERVFAIL, unreachable): no answer from the list at all */
  failure?: ProbeError;
}

/** One list: its A answer decides; a listing also gets the list's TXT explanation (RFC 5782 §2.1). */
async function checkList(ctx: CheckContext, ip: string, list: DnsblZone): Promise<CheckedList> {
  const query = dnsblQueryName(ip, list.zone);
  let outcome: DnsblOutcome;
  try {
    const response = await ctx.resolve(query, 'A');
    outcome = {
      kind: 'answer',
      rcode: response.rcode,
      addresses: recordsOfType(response, query, 'A').map((r) => r.data as string),
    };
  } catch (e) {
    // The request ending is not a finding about this list: let it end the check.
    if (isProbeError(e) && e.kind !== 'ABORTED')
      return { result: classifyDnsblOutcome(list, query, { kind: 'error', error: e }), failure: e };
    throw e;
  }
  const result = classifyDnsblOutcome(list, query, outcome);
  if (result.status !== 'listed') return { result };
  return { result: classifyDnsblOutcome(list, query, { ...outcome, txt: await listingExplanation(ctx, query) }) };
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
