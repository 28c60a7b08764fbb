/**
 * dns-propagation: its object types; the check is ./check.ts.
 */
import type { PropagationEntry, PropagationResult } from './propagation.js';
import { builder } from '../../../graphql/builder.js';
/* -------------------------------------------------------------- propagation */

export const PropagationExpectedSource = builder.enumType('PropagationExpectedSource', {
  description:
    "authoritative: `expected` is the answer of the domain's own name servers, asked directly. majority: none of them answered (or none may be asked), so `expected` is the most common answer among the resolvers (a tie goes to the resolver listed first).",
  values: ['authoritative', 'majority'] as const,
});

export const PropagationResolver = builder.objectRef<PropagationEntry>('PropagationResolver').implement({
  fields: (t) => ({
    name: t.exposeString('name'),
    ip: t.exposeString('ip'),
    countryCode: t.exposeString('countryCode'),
    records: t.exposeStringList('records', {
      description:
        'The records of the asked type as text: addresses, names, "10 mx.example.com" for MX, the seven fields for SOA, the joined string for TXT.',
    }),
    error: t.exposeString('error', {
      nullable: true,
      description: 'Why this resolver gave no answer (time-out, SERVFAIL, refused, …); null when it answered.',
    }),
    responseTime: t.exposeFloat('responseTime', { description: 'Milliseconds until the answer or the failure.' }),
    matches: t.exposeBoolean('matches', {
      description:
        'The resolver answered and its record set equals `expected`, ignoring order, duplicates, case and trailing dots.',
    }),
  }),
});

export const DnsPropagation = builder.objectRef<PropagationResult>('DnsPropagation').implement({
  fields: (t) => ({
    domain: t.exposeString('domain'),
    type: t.exposeString('type', { description: 'The record type asked.' }),
    status: t.exposeString('status', {
      description:
        'propagated: every resolver that answered matches `expected`; partial: some do; not-propagated: none does. Resolvers that failed are left out of the rule (they are in `unreachable`); when every resolver fails the check is an error (502).',
    }),
    unreachable: t.exposeStringList('unreachable', {
      description: 'Names of the resolvers that gave no answer; each has its `error`.',
    }),
    resolvers: t.field({
      type: [PropagationResolver],
      description: 'One entry per public resolver, in configuration order.',
      resolve: (r) => r.resolvers,
    }),
    expected: t.exposeStringList('expected', { description: 'The record set the resolvers are compared with.' }),
    expectedSource: t.field({ type: PropagationExpectedSource, resolve: (r) => r.expectedSource }),
  }),
});
