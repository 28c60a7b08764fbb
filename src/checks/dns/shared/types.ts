/** dns-lookup and mx-lookup: object types (the checks themselves are in ../definitions/). */
import type { DnsLookupResult, MxHost, MxLookupResult, ResolverChoice, TypeFailure } from './lookup-run.js';
import type { LookupRecords, MxEntry, SoaEntry } from './records.js';
import { MX_MAX_ADDRESSES_PER_EXCHANGE, MX_MAX_EXCHANGES } from '../../../loaders/fan-out-limits.js';
import { builder } from '../../../graphql/builder.js';

export const DnsRcode = builder.enumType('DnsRcode', {
  description: 'The DNS response code of a result: NXDOMAIN (the name does not exist) is a finding, not an error.',
  values: ['NOERROR', 'NXDOMAIN'] as const,
});

export const MxRecord = builder.objectRef<MxEntry>('MxRecord').implement({
  fields: (t) => ({
    exchange: t.exposeString('exchange'),
    priority: t.exposeInt('priority'),
    type: t.exposeString('type', { description: 'Always "MX".' }),
  }),
});

export const SoaRecord = builder.objectRef<SoaEntry>('SoaRecord').implement({
  fields: (t) => ({
    nsname: t.exposeString('nsname', { description: 'MNAME: the primary name server.' }),
    hostmaster: t.exposeString('hostmaster', { description: 'RNAME as a DNS name (the first label is the mailbox).' }),
    serial: t.exposeFloat('serial', {
      description: 'A 32-bit unsigned serial (a Float: GraphQL Int is signed 32-bit).',
    }),
    refresh: t.exposeInt('refresh'),
    retry: t.exposeInt('retry'),
    expire: t.exposeInt('expire'),
    minttl: t.exposeInt('minttl', { description: 'MINIMUM: the negative-caching TTL (RFC 2308).' }),
  }),
});

export const DnsRecords = builder.objectRef<LookupRecords>('DnsRecords').implement({
  description: 'Records by type; an empty list when the name has none of that type.',
  fields: (t) => ({
    A: t.exposeStringList('A'),
    AAAA: t.exposeStringList('AAAA'),
    MX: t.field({ type: [MxRecord], resolve: (r) => r.MX }),
    TXT: t.exposeStringList('TXT', { description: "Each record's character-strings joined (RFC 7208 §3.3)." }),
    CNAME: t.exposeStringList('CNAME'),
    NS: t.exposeStringList('NS'),
    SOA: t.field({ type: [SoaRecord], resolve: (r) => r.SOA }),
  }),
});

export const ResolverUsed = builder.objectRef<ResolverChoice>('ResolverUsed').implement({
  fields: (t) => ({
    name: t.exposeString('name', { description: 'The public resolver\'s name, or "system".' }),
    ip: t.exposeString('ip'),
    requested: t.exposeString('requested', { nullable: true, description: 'The resolver parameter as given.' }),
    note: t.exposeString('note', {
      nullable: true,
      description: 'Why the system resolver was used instead of the requested one.',
    }),
  }),
});

export const DnsTypeFailure = builder.objectRef<TypeFailure>('DnsTypeFailure').implement({
  description:
    'A record type whose question failed; its list is empty because of the failure, not because the name has none.',
  fields: (t) => ({
    type: t.exposeString('type'),
    code: t.exposeString('code', { description: 'UPSTREAM_TIMEOUT or UPSTREAM_FAILED.' }),
    message: t.exposeString('message'),
  }),
});

export const DnsLookup = builder.objectRef<DnsLookupResult>('DnsLookup').implement({
  fields: (t) => ({
    domain: t.exposeString('domain'),
    rcode: t.field({ type: DnsRcode, resolve: (r) => r.rcode }),
    records: t.field({ type: DnsRecords, resolve: (r) => r.records }),
    resolver: t.field({ type: ResolverUsed, resolve: (r) => r.resolver }),
    errors: t.field({ type: [DnsTypeFailure], resolve: (r) => r.errors }),
  }),
});

/**
 * The fields of an MX host, declared once for the two object types that carry it: MxHost (mx-lookup)
 * and MailMxHost (mailhealth-check; a type of its own name in the published schema).
 */
export const mxHostFields = (t: PothosSchemaTypes.ObjectFieldBuilder<typeof builder.$inferSchemaTypes, MxHost>) => ({
  priority: t.exposeInt('priority'),
  exchange: t.exposeString('exchange'),
  ip: t.exposeString('ip', {
    description: 'First IPv4 address of the exchange (else its first IPv6); "" when it has none.',
  }),
  addresses: t.exposeStringList('addresses', {
    description: `The exchange's addresses that were followed: its first ${MX_MAX_ADDRESSES_PER_EXCHANGE}, IPv4 first, in the resolver's order; [] when it has none.`,
  }),
  omittedAddresses: t.exposeInt('omittedAddresses', {
    description: `Addresses of the exchange beyond the first ${MX_MAX_ADDRESSES_PER_EXCHANGE}: not reported, and not looked up on block lists (a bound on what one request asks).`,
  }),
  provider: t.exposeString('provider', {
    nullable: true,
    description: 'Mail provider recognised from the exchange name.',
  }),
});

export const MxHostRef = builder.objectRef<MxHost>('MxHost').implement({ fields: mxHostFields });

export const MxLookup = builder.objectRef<MxLookupResult>('MxLookup').implement({
  fields: (t) => ({
    domain: t.exposeString('domain'),
    hosts: t.field({
      type: [MxHostRef],
      description: `The ${MX_MAX_EXCHANGES} best MX hosts at most, sorted by priority, lowest first (ties by name).`,
      resolve: (r) => r.hosts,
    }),
    omittedExchanges: t.exposeInt('omittedExchanges', {
      description: `MX hosts beyond the ${MX_MAX_EXCHANGES} best by priority: neither resolved nor reported (senders try MX hosts in priority order and stop after a few, RFC 5321 §5.1).`,
    }),
    truncated: t.exposeBoolean('truncated', {
      description: 'Something was left out: omittedExchanges is not 0, or some host has omittedAddresses.',
    }),
    nullMx: t.exposeBoolean('nullMx', { description: 'RFC 7505 null MX ("MX 0 ."): the domain accepts no mail.' }),
    rcode: t.field({ type: DnsRcode, resolve: (r) => r.rcode }),
  }),
});
