/** spf-checker, dkim-checker and dmarc-checker: object types (the checks themselves are in ../definitions/). */
import type { SpfCheckerResult, SpfLookupNode } from './auth-run.js';
import type { DkimCheckResult } from '../dkim-checker/dkim.js';
import type { DmarcCheckResult } from '../dmarc-checker/dmarc.js';
import type { TlsRptCheckResult } from '../../mail-transport/tls-rpt/tls-rpt.js';
import type { SpfTerm } from '../spf-checker/syntax.js';
import { builder } from '../../../graphql/builder.js';

/* --------------------------------------------------------------------- SPF */

export const SpfEvaluation = builder.enumType('SpfEvaluation', {
  description:
    'What a receiver would make of the record, judged without a sender: none (no SPF record), ok, permerror (`errors` is not empty: syntax, more than one record, over 10 DNS-querying terms or 2 void lookups, RFC 7208 §4.6.4), temperror (no permerror, but a DNS question inside the tree failed).',
  values: ['none', 'ok', 'permerror', 'temperror'] as const,
});

export const SpfTermKind = builder.enumType('SpfTermKind', {
  description: 'mechanism (RFC 7208 §5), modifier (§6), or invalid (neither: a permerror).',
  values: ['mechanism', 'modifier', 'invalid'] as const,
});

export const SpfTermRef = builder.objectRef<SpfTerm>('SpfTerm').implement({
  description: 'One term of the SPF record, in record order.',
  fields: (t) => ({
    kind: t.field({ type: SpfTermKind, resolve: (term) => term.kind }),
    text: t.exposeString('text', { description: 'The term as written.' }),
    name: t.string({
      nullable: true,
      description:
        'Mechanism (all, include, a, mx, ptr, ip4, ip6, exists) or modifier name, lower case; null for an invalid term.',
      resolve: (term) => (term.kind === 'invalid' ? null : term.name),
    }),
    qualifier: t.string({
      nullable: true,
      description:
        'A mechanism\'s qualifier: "+" (pass, also when none is written), "-" (fail), "~" (softfail), "?" (neutral).',
      resolve: (term) => (term.kind === 'mechanism' ? term.qualifier : null),
    }),
    domainSpec: t.string({ nullable: true, resolve: (term) => (term.kind === 'mechanism' ? term.domainSpec : null) }),
    network: t.string({
      nullable: true,
      description: 'ip4/ip6 network address.',
      resolve: (term) => (term.kind === 'mechanism' ? term.network : null),
    }),
    ip4Prefix: t.int({ nullable: true, resolve: (term) => (term.kind === 'mechanism' ? term.ip4Prefix : null) }),
    ip6Prefix: t.int({ nullable: true, resolve: (term) => (term.kind === 'mechanism' ? term.ip6Prefix : null) }),
    value: t.string({
      nullable: true,
      description: "A modifier's value.",
      resolve: (term) => (term.kind === 'modifier' ? term.value : null),
    }),
    error: t.string({
      nullable: true,
      description: 'Why an invalid term is invalid.',
      resolve: (term) => (term.kind === 'invalid' ? term.error : null),
    }),
  }),
});

export const SpfLookupNodeRef = builder.objectRef<SpfLookupNode>('SpfLookupNode').implement({
  description: 'One record of the evaluated include/redirect tree.',
  fields: (t) => ({
    parent: t.exposeInt('parent', {
      nullable: true,
      description:
        'Position in `lookupTree` of the record that included or redirected to this one; null for the domain itself.',
    }),
    depth: t.exposeInt('depth', {
      description: '0 for the domain itself, 1 for what its record includes or redirects to, and so on.',
    }),
    domain: t.exposeString('domain'),
    via: t.exposeString('via', { description: 'root, include or redirect.' }),
    status: t.exposeString('status', {
      description:
        'ok; no-record (the target has no SPF record: permerror); multiple-records (permerror); invalid (syntax errors); temperror (its TXT question failed); loop (an include/redirect cycle: permerror); not-evaluated.',
    }),
    record: t.exposeString('record', { nullable: true }),
    lookups: t.exposeInt('lookups', {
      description: 'DNS-querying terms of this record itself (include, a, mx, ptr, exists, redirect).',
    }),
    voidLookups: t.exposeInt('voidLookups', {
      description: "Lookups of this record's terms that found nothing (NXDOMAIN or no records).",
    }),
    notes: t.exposeStringList('notes'),
  }),
});

export const SpfCheck = builder.objectRef<SpfCheckerResult>('SpfCheck').implement({
  fields: (t) => ({
    domain: t.exposeString('domain'),
    found: t.exposeBoolean('found', {
      description: 'The domain publishes a TXT record starting with "v=spf1" (RFC 7208 §4.5).',
    }),
    record: t.exposeString('record', { description: 'The first SPF record; "" when none.' }),
    mechanisms: t.exposeStringList('mechanisms', {
      description: 'The terms of that record as written, in order, without "v=spf1".',
    }),
    multiple: t.exposeBoolean('multiple', {
      description: 'More than one SPF record: receivers return permerror (RFC 7208 §4.5).',
    }),
    recordCount: t.exposeInt('recordCount'),
    terms: t.field({ type: [SpfTermRef], resolve: (r) => r.terms }),
    lookupTree: t.field({
      type: [SpfLookupNodeRef],
      description:
        'The evaluated include/redirect tree, the domain first and each record followed by the records it includes (pre-order); `parent` and `depth` rebuild the tree. Empty when there is no SPF record.',
      resolve: (r) => r.lookupTree,
    }),
    lookupCount: t.exposeInt('lookupCount', {
      description:
        'DNS-querying terms in the whole tree; more than `lookupLimit` (10) is a permerror (RFC 7208 §4.6.4).',
    }),
    lookupLimit: t.exposeInt('lookupLimit'),
    voidLookupCount: t.exposeInt('voidLookupCount', {
      description: 'Lookups that found nothing; more than `voidLookupLimit` (2) is a permerror (RFC 7208 §4.6.4).',
    }),
    voidLookupLimit: t.exposeInt('voidLookupLimit'),
    evaluation: t.field({ type: SpfEvaluation, resolve: (r) => r.evaluation }),
    errors: t.exposeStringList('errors', { description: 'permerror reasons.' }),
    warnings: t.exposeStringList('warnings'),
    temporaryErrors: t.exposeStringList('temporaryErrors', {
      description: 'DNS failures inside the tree (temperror for receivers).',
    }),
    notEvaluated: t.exposeStringList('notEvaluated', {
      description:
        'Terms that could not be followed: sender-dependent macros, ptr, query budget or nesting depth spent.',
    }),
    truncated: t.exposeBoolean('truncated', {
      description: 'The walk stopped early (query budget 30, nesting 10): the counts are lower bounds.',
    }),
  }),
});
/* -------------------------------------------------------------------- DKIM */

export const DkimCheck = builder.objectRef<DkimCheckResult>('DkimCheck').implement({
  fields: (t) => ({
    domain: t.exposeString('domain'),
    selector: t.exposeString('selector'),
    found: t.exposeBoolean('found', {
      description:
        'A DKIM key record is at `name`: a tag list with p= and, if it has v=, v=DKIM1 first (RFC 6376 §3.6.1). Other TXT records there do not count.',
    }),
    record: t.exposeString('record', { nullable: true }),
    keyType: t.exposeString('keyType', { nullable: true, description: 'k=, "rsa" when absent.' }),
    hasPublicKey: t.exposeBoolean('hasPublicKey', {
      description: 'p= is not empty. An empty p= means the key was revoked (`revoked`).',
    }),
    name: t.exposeString('name', { description: 'The name asked: <selector>._domainkey.<domain>.' }),
    revoked: t.exposeBoolean('revoked'),
    keyBits: t.exposeInt('keyBits', {
      nullable: true,
      description: 'RSA modulus length; null for other key types or a key that does not decode.',
    }),
    testing: t.exposeBoolean('testing', { description: 't=y: the domain is testing DKIM.' }),
    tags: t.field({ type: 'JSON', description: 'Tag name → value, as published.', resolve: (r) => r.tags }),
    errors: t.exposeStringList('errors'),
    warnings: t.exposeStringList('warnings'),
  }),
});
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
/* ----------------------------------------------------------------- TLS-RPT */

export const TlsRptCheck = builder.objectRef<TlsRptCheckResult>('TlsRptCheck').implement({
  description: 'SMTP TLS Reporting (RFC 8460): where sending MTAs report TLS failures with the MX hosts.',
  fields: (t) => ({
    domain: t.exposeString('domain'),
    found: t.exposeBoolean('found', {
      description: 'A TXT record beginning with v=TLSRPTv1 exists at _smtp._tls.<domain>.',
    }),
    record: t.exposeString('record', { description: 'The record that applies; "" when none (no record, or several).' }),
    multiple: t.exposeBoolean('multiple', {
      description: 'Several TLS-RPT records: none applies (RFC 8460 §3).',
    }),
    rua: t.exposeStringList('rua', { description: 'The rua= URIs (mailto: or https:) as written.' }),
    valid: t.exposeBoolean('valid', { description: 'Exactly one record, with a rua= and nothing invalid.' }),
    errors: t.exposeStringList('errors'),
  }),
});
