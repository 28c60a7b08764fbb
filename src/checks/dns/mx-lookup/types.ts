/** mx-lookup: its object types (MxHost also in mailhealth-check's mx part); the check is ./check.ts. */
import { DnsRcode } from '../shared/types.js';
import type { MxHost, MxLookupResult } from './run.js';
import { MX_MAX_ADDRESSES_PER_EXCHANGE, MX_MAX_EXCHANGES } from '../../../loaders/fan-out-limits.js';
import { builder } from '../../../graphql/builder.js';
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
