/**
 * dnssec-test: its object types; the check is ./check.ts.
 */
import type { DnssecTestResult } from './run.js';
import { builder } from '../../../graphql/builder.js';
import { DnsRcode } from '../shared/types.js';
/* ------------------------------------------------------------------- DNSSEC */

export const DnssecStatus = builder.enumType('DnssecStatus', {
  description:
    'As the system resolver (a validating resolver) sees the name, first matching rule wins: bogus (SERVFAIL, but an answer with checking disabled: the signatures do not validate), enabled (the answer is authenticated, AD: the chain of trust validates), bogus (the parent has a DS record but the zone publishes no DNSKEY), insecure (the zone has DNSKEYs but no secure delegation: no DS at the parent, or an algorithm the resolver does not support), disabled (no DNSKEY and no DS: unsigned). SERVFAIL with checking disabled too is an error (502), not a verdict.',
  values: ['enabled', 'insecure', 'disabled', 'bogus'] as const,
});

export const DnssecTest = builder.objectRef<DnssecTestResult>('DnssecTest').implement({
  fields: (t) => ({
    domain: t.exposeString('domain'),
    keyCount: t.exposeInt('keyCount', {
      description: 'DNSKEY records at the name (asked with checking disabled, so a broken chain still shows its keys).',
    }),
    validated: t.exposeBoolean('validated', {
      description: 'The chain of trust validates: true exactly when status is enabled.',
    }),
    status: t.field({ type: DnssecStatus, resolve: (r) => r.status }),
    reason: t.exposeString('reason', { description: 'The rule that decided the status.' }),
    dsPresent: t.exposeBoolean('dsPresent', {
      description: 'The parent zone has a DS record for the name (a secure delegation).',
    }),
    authenticated: t.exposeBoolean('authenticated', { description: 'The resolver set AD on the DNSKEY answer.' }),
    rcode: t.field({ type: DnsRcode, resolve: (r) => r.rcode }),
  }),
});
