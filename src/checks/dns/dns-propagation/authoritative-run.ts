/**
 * The answer of a domain's own authoritative name servers, asked directly: dns-propagation's
 * expected answer (decisions §5).
 *
 * 1. The zone: an SOA question for the name through the system resolver. The SOA of the answer (the
 *    name is a zone apex) or of the authority section of a negative answer (RFC 2308 §3) is owned by
 *    the apex of the zone holding the name. When the name is an alias, that SOA belongs to the
 *    target's zone, so the name's parent is asked instead (nothing exists below an alias,
 *    RFC 1034 §3.6.2). The root zone is never asked: a name whose zone would be the root does not
 *    exist under any top-level domain, and the majority answer says as much.
 * 2. The zone's servers: its NS names through the system resolver (sorted, at most MAX_SERVERS), each
 *    at its first address, IPv4 first (many hosts have no IPv6 route). NS records are the caller's
 *    data, so every address passes the target guard (decisions §7) and a refused one is skipped:
 *    a domain cannot make us send packets into a private network. A server name that does not
 *    resolve is skipped too; with no server left the caller falls back to the majority answer.
 * 3. The question, with RD clear (RFC 1035 §4.1.1), to those servers in parallel on
 *    `ctx.ports.dnsAuthoritative` (53; tests use their lab's port), never from the shared cache. The
 *    first answer with AA set counts (the zone's servers serve one zone; waiting for the slowest
 *    would cost a whole time-out whenever one of them is down). A referral or a lame server (AA
 *    clear) does not count.
 * 4. An answer that ends in a CNAME leaving the zone (no SOA in its authority section, so not a
 *    NODATA) is followed into the target's zone, as a resolver would, through at most MAX_ZONES zones.
 */
import type { HostPort } from '../../../config.js';
import { recordsOfType, type DnsRecord, type DnsResponse } from '../../../probes/dns/client.js';
import type { CheckContext } from '../../../loaders/context.js';
import { nameServerAddresses } from './name-server-addresses.js';
import { recordText, type LookupType } from '../shared/records.js';

/** The part of the check context this module uses. */
export type AuthoritativeContext = Pick<CheckContext, 'resolve' | 'addresses' | 'dnsLive' | 'guard' | 'ports'>;

/** NS hosts asked for one zone: more add load, not certainty. */
export const MAX_SERVERS = 4;
/** Zones an alias chain may lead through (RFC 1034 §3.6.2 chains are usually one or two hops). */
export const MAX_ZONES = 4;

/**
 * The text forms of the authoritative answer's records of `type` at `name` ([] for NXDOMAIN or
 * NODATA), or null when no authoritative server answered. Failed questions to the system resolver
 * are thrown (ProbeError): the caller decides what they mean.
 */
export async function authoritativeRecords(
  ctx: AuthoritativeContext,
  name: string,
  type: LookupType,
): Promise<string[] | null> {
  let owner = canonical(name);
  for (let zone = 0; zone < MAX_ZONES; zone++) {
    const response = await askZoneServers(ctx, owner, type);
    if (response === null) return null;
    const records = recordsOfType(response, owner, type);
    if (records.length > 0 || type === 'CNAME' || response.rcode === 'NXDOMAIN') return records.map(recordText);
    const target = aliasTarget(response.answers, owner);
    if (target === null || response.authority.some((r) => r.type === 'SOA')) return [];
    owner = target;
  }
  return null;
}

async function askZoneServers(ctx: AuthoritativeContext, name: string, type: LookupType): Promise<DnsResponse | null> {
  const servers = await zoneServers(ctx, name);
  if (servers.length === 0) return null;
  try {
    return await Promise.any(
      servers.map(async (server) => {
        const response = await ctx.dnsLive({ name, type, server, recursionDesired: false });
        if (!response.authoritative) throw new Error(`${server.host} is not authoritative for ${name}`);
        return response;
      }),
    );
  } catch (e) {
    if (e instanceof AggregateError) return null; // every server failed or was lame
    throw e;
  }
}

async function zoneServers(ctx: AuthoritativeContext, name: string): Promise<HostPort[]> {
  const apex = await zoneApex(ctx, name);
  if (apex === null) return [];
  const nsAnswer = await ctx.resolve(apex, 'NS');
  const hosts = [
    ...new Set(
      nsAnswer.answers
        .filter((r) => r.type === 'NS' && canonical(r.name) === apex)
        .map((r) => canonical(r.data as string)),
    ),
  ]
    .sort()
    .slice(0, MAX_SERVERS);
  return nameServerAddresses(ctx, hosts);
}

async function zoneApex(ctx: AuthoritativeContext, name: string): Promise<string | null> {
  let candidate: string | null = name;
  // The name itself, then (when it is an alias) its parent: a parent cannot be an alias as well.
  for (let step = 0; step < 2 && candidate !== null; step++) {
    const response = await ctx.resolve(candidate, 'SOA');
    if (aliasTarget(response.answers, candidate) === null) {
      const soa = [...response.answers, ...response.authority].find((r) => r.type === 'SOA');
      const apex = soa === undefined ? null : canonical(soa.name);
      return apex === '' ? null : apex;
    }
    candidate = parentName(candidate);
  }
  return null;
}

/** Where the CNAME chain starting at `name` inside `answers` ends; null when `name` is not an alias. */
function aliasTarget(answers: readonly DnsRecord[], name: string): string | null {
  let owner = name;
  let target: string | null = null;
  for (let hop = 0; hop < 16; hop++) {
    const alias = answers.find((r) => r.type === 'CNAME' && canonical(r.name) === owner);
    if (alias === undefined) break;
    owner = canonical(alias.data as string);
    target = owner;
  }
  return target;
}

function parentName(name: string): string | null {
  const dot = name.indexOf('.');
  return dot < 0 ? null : name.slice(dot + 1);
}

function canonical(name: string): string {
  const lower = name.toLowerCase();
  return lower.endsWith('.') ? lower.slice(0, -1) : lower;
}
