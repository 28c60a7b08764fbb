/** dns-blacklist-checker: its object types; the check is ./check.ts. */
import type { DnsblCheckResult } from './run.js';
import type { DnsblListResult } from './dnsbl.js';
import { builder } from '../../../graphql/builder.js';
/* --------------------------------------------------------------- blocklists */

export const DnsblStatus = builder.enumType('DnsblStatus', {
  description:
    'clean: NXDOMAIN, or no A record (RFC 5782 §2.1). listed: A records in 127.0.0.2–127.0.0.255 (the list codes, in `codes`). error: the question failed (time-out, SERVFAIL, refused, garbage), or the list answered one of its error codes (127.255.255.0/24, e.g. Spamhaus 127.255.255.252–255 when it refuses queries from public resolvers), 127.0.0.0/127.0.0.1, or an address outside 127.0.0.0/8 — none of which says anything about the address.',
  values: ['clean', 'listed', 'error'] as const,
});

export const DnsblListResultRef = builder.objectRef<DnsblListResult>('DnsblListResult').implement({
  fields: (t) => ({
    zone: t.exposeString('zone', { description: "The list's DNS zone." }),
    name: t.exposeString('name', { description: "The list's display name." }),
    query: t.exposeString('query', { description: "The name asked: the address's octets reversed, then the zone." }),
    status: t.field({ type: DnsblStatus, resolve: (r) => r.status }),
    codes: t.exposeStringList('codes', { description: 'Every A record of the answer.' }),
    reason: t.exposeString('reason', {
      nullable: true,
      description:
        "The list's TXT explanation or the meaning of a known code for a listing; the error for an error; null when clean.",
    }),
  }),
});

export const DnsblCheck = builder.objectRef<DnsblCheckResult>('DnsblCheck').implement({
  fields: (t) => ({
    host: t.exposeString('host', { description: 'The host as given (normalised).' }),
    ip: t.exposeString('ip', {
      description: "The IPv4 address checked; with `ipv6Only`, the domain's first IPv6 address (not checked).",
    }),
    resolvedFrom: t.exposeString('resolvedFrom', {
      nullable: true,
      description: 'The domain the address was resolved from; null when `host` was an address.',
    }),
    results: t.field({
      type: [DnsblListResultRef],
      description: 'One entry per configured list (dnsbl.zones), in that order.',
      resolve: (r) => r.results,
    }),
    listedCount: t.exposeInt('listedCount', { description: 'Lists whose status is listed.' }),
    ipv6Only: t.exposeBoolean('ipv6Only', {
      description: 'The domain has AAAA records but no A record: no list was asked and `results` is empty.',
    }),
  }),
});
