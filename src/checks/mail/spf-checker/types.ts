/** spf-checker: its object types; the check is ./check.ts. */
import type { SpfCheckerResult, SpfLookupNode } from './run.js';
import type { SpfTerm } from './syntax.js';
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
