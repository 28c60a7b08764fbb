/**
 * The DNS records' object types, shared by dns-lookup, mx-lookup and mailhealth-check.
 */
import type { LookupRecords, MxEntry, SoaEntry } from './records.js';
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
