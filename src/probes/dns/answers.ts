/**
 * Pure readings of a DnsResponse that every check needs: the records that answer the question
 * (through CNAMEs) and how long the answer may be cached.
 */
import { canonicalName } from '../../net/dns-name.js';
import type { DnsRecord, DnsResponse, RecordType, SoaData } from './types.js';

/** More CNAME hops than any resolver follows (BIND stops at 16 too): a loop or a broken chain. */
const MAX_CNAME_HOPS = 16;

/**
 * The records of `type` in the answer section that belong to the question `name`: those owned by
 * `name` itself, else those at the end of the CNAME chain that starts at `name` inside the answer
 * (RFC 1034 §3.6.2, §4.3.2). Asking for CNAME gives the CNAME records at `name` itself.
 */
export function recordsOfType(resp: DnsResponse, name: string, type: RecordType): DnsRecord[] {
  let owner = canonicalName(name);
  const visited = new Set<string>();
  for (let hop = 0; hop <= MAX_CNAME_HOPS && !visited.has(owner); hop++) {
    visited.add(owner);
    const atOwner = resp.answers.filter((r) => canonicalName(r.name) === owner);
    const matching = atOwner.filter((r) => r.type === type);
    if (matching.length > 0 || type === 'CNAME') return matching;
    const alias = atOwner.find((r) => r.type === 'CNAME');
    if (alias === undefined) return [];
    owner = canonicalName(alias.data as string);
  }
  return [];
}

/**
 * Seconds this answer may be cached (the caller caps it, decisions §9). A positive answer: the
 * smallest TTL in the answer section (RFC 2181 §5.2 keeps an RRset's TTLs equal; the smallest is
 * safe across sets). NXDOMAIN or NODATA: the SOA in the authority section, min(its TTL, its
 * MINIMUM) (RFC 2308 §5); no SOA there means the answer must not be cached (0). A CNAME chain that
 * ends in NODATA carries both, and the smaller bound wins.
 */
export function responseTtl(resp: DnsResponse): number {
  const negative = negativeTtl(resp.authority);
  if (resp.rcode === 'NXDOMAIN' || resp.answers.length === 0) return negative ?? 0;
  const positive = Math.min(...resp.answers.map((r) => r.ttl));
  return negative === undefined ? positive : Math.min(positive, negative);
}

function negativeTtl(authority: readonly DnsRecord[]): number | undefined {
  const soa = authority.find((r) => r.type === 'SOA');
  if (soa === undefined) return undefined;
  return Math.min(soa.ttl, (soa.data as SoaData).minimum);
}
