/**
 * dmarc-checker: its object types; the check is ./check.ts.
 */
import type { DmarcCheckResult } from './dmarc.js';
import { builder } from '../../../graphql/builder.js';
/* ------------------------------------------------------------------- DMARC */

export const DmarcPolicy = builder.enumType('DmarcPolicy', {
  description: 'A DMARC policy (RFC 7489 §6.3): none (monitor only), quarantine, reject.',
  values: ['none', 'quarantine', 'reject'] as const,
});

export const DmarcCheck = builder.objectRef<DmarcCheckResult>('DmarcCheck').implement({
  fields: (t) => ({
    domain: t.exposeString('domain'),
    found: t.exposeBoolean('found', {
      description: 'Exactly one DMARC record (starting with v=DMARC1) applies to the domain.',
    }),
    record: t.exposeString('record', { description: 'The record that applies; "" when none.' }),
    tags: t.field({
      type: 'JSON',
      description: 'Tag name (lower case) → value, as published (RFC 7489 §6.3).',
      resolve: (r) => r.tags,
    }),
    queriedName: t.exposeString('queriedName', { description: 'The name whose record applies (or was asked last).' }),
    orgDomain: t.exposeString('orgDomain', {
      nullable: true,
      description: 'The organisational domain (RFC 7489 §3.2: public suffix plus one label).',
    }),
    inherited: t.exposeBoolean('inherited', {
      description:
        "The domain has no record of its own and the organisational domain's record applies (RFC 7489 §6.6.3).",
    }),
    multiple: t.exposeBoolean('multiple', {
      description: 'Several DMARC records at one name: none applies (RFC 7489 §6.6.3).',
    }),
    policy: t.field({
      type: DmarcPolicy,
      nullable: true,
      description: 'p=, null when missing or invalid.',
      resolve: (r) => r.policy,
    }),
    effectivePolicy: t.field({
      type: DmarcPolicy,
      nullable: true,
      description:
        'The policy for mail from this domain: sp= (else p=) when inherited, p= otherwise; none for a record valid only through its rua= (RFC 7489 §6.6.3).',
      resolve: (r) => r.effectivePolicy,
    }),
    valid: t.exposeBoolean('valid'),
    errors: t.exposeStringList('errors'),
    warnings: t.exposeStringList('warnings'),
  }),
});
