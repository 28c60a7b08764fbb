/**
 * dns-lookup: its object types (the records' types are ../shared/types.ts); the check is ./check.ts.
 */
import { DnsRcode, DnsRecords } from '../shared/types.js';

import type { DnsLookupResult, ResolverChoice, TypeFailure } from './run.js';
import { builder } from '../../../graphql/builder.js';
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
