/** dns-blacklist-checker, dnssec-test and dns-propagation: object types (the checks themselves are in ../definitions/). */
import type { DnsblCheckResult } from '../dns-blacklist-checker/run.js';
import type { DnsblListResult } from '../dns-blacklist-checker/dnsbl.js';
import type { DnssecTestResult } from '../dnssec-test/run.js';
import type { PropagationEntry, PropagationResult } from './propagation.js';
import { builder } from '../../../graphql/builder.js';
import { DnsRcode } from '../shared/types.js';

/* --------------------------------------------------------------- blocklists */

export const DnsblStatus = builder.enumType('DnsblStatus', {
  description:
    'clean: NXDOMAIN, or no A record (RFC 5782 §2.1). listed: A records in 127.0.0.2–127.0.0.255 (the list codes, in `codes`). error: the question failed (time-out, SERVFAIL, refused, garbage), or the list answered one of its error codes (127.255.255.0/24, e.g. Spamhaus 127.255.255.252–255 when it refuses queries from public resolvers), 127.0.0.0/127.0.0.1, or an address outside 127.0.0.0/8 — none of which says anything about the address.',
  values: ['clean', 'listed', 'error'] as const,
});

export const DnsblListResultRef = builder.objectRef<DnsblListResult>('DnsblListResult').implement({
  fields: (t) => ({
    zone: t.exposeString('zone', { description: "The list's DNS zone." }),
    name: t.exposeString('name', { description: "The list's display name." }),
    query: t.exposeString('query', { description: "The name asked: the address's octets reversed, then the zone." }),
    status: t.field({ type: DnsblStatus, resolve: (r) => r.status }),
    codes: t.exposeStringList('codes', { description: 'Every A record of the answer.' }),
    reason: t.exposeString('reason', {
      nullable: true,
      description:
        "The list's TXT explanation or the meaning of a known code for a listing; the error for an error; null when clean.",
    }),
  }),
});

export const DnsblCheck = builder.objectRef<DnsblCheckResult>('DnsblCheck').implement({
  fields: (t) => ({
    host: t.exposeString('host', { description: 'The host as given (normalised).' }),
    ip: t.exposeString('ip', {
      description: "The IPv4 address checked; with `ipv6Only`, the domain's first IPv6 address (not checked).",
    }),
    resolvedFrom: t.exposeString('resolvedFrom', {
      nullable: true,
      description: 'The domain the address was resolved from; null when `host` was an address.',
    }),
    results: t.field({
      type: [DnsblListResultRef],
      description: 'One entry per configured list (dnsbl.zones), in that order.',
      resolve: (r) => r.results,
    }),
    listedCount: t.exposeInt('listedCount', { description: 'Lists whose status is listed.' }),
    ipv6Only: t.exposeBoolean('ipv6Only', {
      description: 'The domain has AAAA records but no A record: no list was asked and `results` is empty.',
    }),
  }),
});
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
