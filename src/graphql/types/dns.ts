/** dns-lookup and mx-lookup: object types and their query fields. */
import {
  runDnsLookup,
  runMxLookup,
  type DnsLookupResult,
  type MxHost,
  type MxLookupResult,
  type ResolverChoice,
  type TypeFailure,
} from '../../checks/dns/lookup-run.js';
import type { LookupRecords, MxEntry, SoaEntry } from '../../checks/dns/records.js';
import { parseHostname } from '../../validation.js';
import { builder } from '../builder.js';
import { defineCheck } from '../checks.js';

export const DnsRcode = builder.enumType('DnsRcode', {
  description: 'The DNS response code of a result: NXDOMAIN (the name does not exist) is a finding, not an error.',
  values: ['NOERROR', 'NXDOMAIN'] as const,
});

const MxRecord = builder.objectRef<MxEntry>('MxRecord').implement({
  fields: (t) => ({
    exchange: t.exposeString('exchange'),
    priority: t.exposeInt('priority'),
    type: t.exposeString('type', { description: 'Always "MX".' }),
  }),
});

const SoaRecord = builder.objectRef<SoaEntry>('SoaRecord').implement({
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

const DnsRecords = builder.objectRef<LookupRecords>('DnsRecords').implement({
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

const ResolverUsed = builder.objectRef<ResolverChoice>('ResolverUsed').implement({
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

const DnsLookup = builder.objectRef<DnsLookupResult>('DnsLookup').implement({
  fields: (t) => ({
    domain: t.exposeString('domain'),
    rcode: t.field({ type: DnsRcode, resolve: (r) => r.rcode }),
    records: t.field({ type: DnsRecords, resolve: (r) => r.records }),
    resolver: t.field({ type: ResolverUsed, resolve: (r) => r.resolver }),
    errors: t.field({ type: [DnsTypeFailure], resolve: (r) => r.errors }),
  }),
});

const MxHostRef = builder.objectRef<MxHost>('MxHost').implement({
  fields: (t) => ({
    priority: t.exposeInt('priority'),
    exchange: t.exposeString('exchange'),
    ip: t.exposeString('ip', {
      description: 'First IPv4 address of the exchange (else its first IPv6); "" when it has none.',
    }),
    provider: t.exposeString('provider', {
      nullable: true,
      description: 'Mail provider recognised from the exchange name.',
    }),
  }),
});

export const MxLookup = builder.objectRef<MxLookupResult>('MxLookup').implement({
  fields: (t) => ({
    domain: t.exposeString('domain'),
    hosts: t.field({ type: [MxHostRef], description: 'Sorted by priority, lowest first.', resolve: (r) => r.hosts }),
    nullMx: t.exposeBoolean('nullMx', { description: 'RFC 7505 null MX ("MX 0 ."): the domain accepts no mail.' }),
    rcode: t.field({ type: DnsRcode, resolve: (r) => r.rcode }),
  }),
});

builder.queryField('dnsLookup', (t) =>
  t.field({
    nullable: true,
    type: DnsLookup,
    description:
      'A, AAAA, MX, TXT, CNAME, NS and SOA of a name, asked in parallel (REST: dns-lookup). `resolver` is one of the public resolvers\' IPs or "system" (default); an unknown value falls back to system and `resolver.note` says so.',
    args: { domain: t.arg.string({ required: true }), resolver: t.arg.string() },
    resolve: defineCheck({
      field: 'dnsLookup',
      tool: 'dns-lookup',
      parse: (args: { domain: string; resolver?: string | null }) => ({
        domain: parseHostname('domain', args.domain),
        resolver: args.resolver?.trim() || null,
      }),
      run: ({ domain, resolver }, checks) => runDnsLookup(checks, domain, resolver),
    }),
  }),
);

builder.queryField('mxLookup', (t) =>
  t.field({
    nullable: true,
    type: MxLookup,
    description: 'MX hosts of a domain with their addresses and recognised providers (REST: mx-lookup).',
    args: { domain: t.arg.string({ required: true }) },
    resolve: defineCheck({
      field: 'mxLookup',
      tool: 'mx-lookup',
      parse: (args: { domain: string }) => parseHostname('domain', args.domain),
      run: (domain, checks) => runMxLookup(checks, domain),
    }),
  }),
);
