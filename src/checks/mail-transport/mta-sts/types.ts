/** mta-sts: its object types (mail-transport.md); the check is ./check.ts. */
import type { MtaStsFetch, MtaStsPolicy, MtaStsResult, MxMatch } from './mta-sts.js';
import { MX_MAX_EXCHANGES } from '../../../loaders/fan-out-limits.js';
import { builder } from '../../../graphql/builder.js';

export const MtaStsPolicyRef = builder.objectRef<MtaStsPolicy>('MtaStsPolicy').implement({
  description: 'The policy file (RFC 8461 §3.2), when it is complete and valid.',
  fields: (t) => ({
    version: t.exposeString('version', { description: '"STSv1".' }),
    mode: t.exposeString('mode', { description: '"enforce", "testing" or "none".' }),
    mx: t.exposeStringList('mx', { description: 'The mx patterns as written ("mx.example.com", "*.example.net").' }),
    maxAge: t.exposeInt('maxAge', { description: 'max_age, seconds.' }),
  }),
});

export const MtaStsFetchRef = builder.objectRef<MtaStsFetch>('MtaStsFetch').implement({
  fields: (t) => ({
    status: t.exposeInt('status', {
      nullable: true,
      description: 'HTTP status of the policy response; null when none came.',
    }),
    error: t.exposeString('error', {
      nullable: true,
      description:
        'Why the policy could not be used as fetched (no answer, a redirect, a certificate not valid for mta-sts.<domain>, not text/plain, over 64 KiB); null when it could.',
    }),
  }),
});

export const MxMatchRef = builder.objectRef<MxMatch>('MtaStsMxMatch').implement({
  fields: (t) => ({
    exchange: t.exposeString('exchange', { description: 'An MX host of the domain.' }),
    matches: t.exposeBoolean('matches', {
      description: 'A policy mx pattern matches it (RFC 8461 §4.1: "*." matches exactly one left-most label).',
    }),
  }),
});

export const MtaSts = builder.objectRef<MtaStsResult>('MtaSts').implement({
  description:
    'SMTP MTA Strict Transport Security (RFC 8461): the TXT record, the policy, and whether it covers the MX hosts.',
  fields: (t) => ({
    domain: t.exposeString('domain'),
    found: t.exposeBoolean('found', {
      description: 'A TXT record beginning with v=STSv1 exists at _mta-sts.<domain>.',
    }),
    record: t.exposeString('record', { description: 'The record that applies; "" when none (no record, or several).' }),
    id: t.exposeString('id', {
      description: 'The record\'s id= (senders refetch the policy when it changes); "" when none.',
    }),
    policyUrl: t.exposeString('policyUrl', { description: 'https://mta-sts.<domain>/.well-known/mta-sts.txt' }),
    policy: t.field({
      type: MtaStsPolicyRef,
      nullable: true,
      description: 'Null when not fetched, or not a complete valid policy (errors say why).',
      resolve: (r) => r.policy,
    }),
    fetch: t.field({ type: MtaStsFetchRef, resolve: (r) => r.fetch }),
    mxMatches: t.field({
      type: [MxMatchRef],
      description: `The MX hosts of the domain (the ${MX_MAX_EXCHANGES} best by priority) against the policy's patterns; [] without a valid policy.`,
      resolve: (r) => r.mxMatches,
    }),
    omittedExchanges: t.exposeInt('omittedExchanges', {
      description: `MX hosts beyond the ${MX_MAX_EXCHANGES} best by priority, not matched against the policy.`,
    }),
    status: t.exposeString('status', {
      description:
        '"enforce", "testing" or "none" (the valid policy\'s mode); "not-configured" (no v=STSv1 record); "invalid" (a record, but no usable policy: several records, a bad record, the fetch failed, a certificate not valid for mta-sts.<domain>, a syntax error, or an MX host not matched under enforce).',
    }),
    errors: t.exposeStringList('errors'),
    warnings: t.exposeStringList('warnings', {
      description:
        'Remarks that do not make the policy unusable: max_age under a week, an MX host not matched in testing mode.',
    }),
  }),
});
