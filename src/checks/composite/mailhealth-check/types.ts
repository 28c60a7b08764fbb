/**
 * mailhealth-check: its object types, its own checks' details typed per check id through a union, which
 * the parts that are single checks join (./parts.ts), on the shared HealthCheck / HealthVerdict types of
 * ../shared/health-types.ts; the check is ./check.ts.
 */
import type {
  BlacklistDetails,
  BlacklistResult,
  BlacklistSkip,
  DkimDetails,
  DkimSelectorFailure,
  DmarcDetails,
  MailCheckId,
  MxDetails,
  PartNotTested,
  SpfDetails,
} from './details.js';
import { isPartNotTested, MAIL_CHECK_IDS } from './details.js';
import type { MailHealthCheck, MailHealthResult } from './run.js';
import { BLACKLIST_LISTINGS_CRITICAL, SPF_LOOKUPS_NEAR_LIMIT } from './rules.js';
import type { MxHost } from '../../dns/mx-lookup/run.js';
import {
  MAIL_TRANSPORT_MAX_HOSTS,
  MX_MAX_ADDRESSES_PER_EXCHANGE,
  MX_MAX_EXCHANGES,
} from '../../../loaders/fan-out-limits.js';
import { builder } from '../../../graphql/builder.js';
import { checkDetailsUnion, tagDetails } from '../shared/check-details.js';
import { whenAllDeclared } from '../../../graphql/check-declaration.js';
import { listInProse } from '../shared/verdict.js';
import { mailParts } from './parts.js';
import { DnsRcode } from '../../dns/shared/types.js';
import { mxHostFields } from '../../dns/mx-lookup/types.js';
import { HealthCheckRef, HealthVerdictRef } from '../shared/health-types.js';

export const MailMxHost = builder.objectRef<MxHost>('MailMxHost').implement({
  description: 'An MX host as mx-lookup reports it.',
  fields: mxHostFields,
});

export const MailMxDetails = builder.objectRef<MxDetails>('MailMxDetails').implement({
  description:
    'mx, first rule that matches — critical: the domain does not exist (NXDOMAIN), or no MX host has an address; info: a null MX ("MX 0 .", RFC 7505: the domain takes no mail); ' +
    "warning: no MX record (senders fall back to the domain's address, RFC 5321 §5.1), some MX host without an address, or an MX address that is special-purpose (private, loopback…, RFC 6890); " +
    `info: more than ${MX_MAX_EXCHANGES} MX hosts (every part checks only the ${MX_MAX_EXCHANGES} best by priority: senders almost never use the others); ok otherwise.`,
  fields: (t) => ({
    hosts: t.field({
      type: [MailMxHost],
      nullable: true,
      description: `The ${MX_MAX_EXCHANGES} best MX hosts at most, sorted by priority, lowest first (ties by name).`,
      resolve: (d) => d.hosts,
    }),
    total: t.exposeInt('total', {
      nullable: true,
      description: 'Number of MX hosts, those beyond the best included; 0 for a null MX.',
    }),
    omittedExchanges: t.exposeInt('omittedExchanges', {
      nullable: true,
      description: `MX hosts beyond the ${MX_MAX_EXCHANGES} best by priority: not followed by any part of the check (not resolved, not looked up on block lists, not tested).`,
    }),
    nullMx: t.exposeBoolean('nullMx', { nullable: true, description: 'RFC 7505 null MX: the domain accepts no mail.' }),
    rcode: t.field({ type: DnsRcode, nullable: true, resolve: (d) => d.rcode }),
  }),
});

export const MailSpfDetails = builder.objectRef<SpfDetails>('MailSpfDetails').implement({
  description:
    'spf, first rule that matches — critical: no SPF record (a null-MX domain: warning, publish "v=spf1 -all"), a permerror (several records, syntax, over 10 DNS-querying terms or 2 void lookups, an include without a record; RFC 7208), or "+all"; ' +
    `warning: a temperror (a DNS failure inside the include tree), "?all" or no "all" and no redirect=, ${SPF_LOOKUPS_NEAR_LIMIT} or more DNS-querying terms, or the ptr mechanism; info: any other remark of spf-checker; ok otherwise.`,
  fields: (t) => ({
    record: t.exposeString('record', { nullable: true, description: 'The first SPF record; "" when there is none.' }),
    recordCount: t.exposeInt('recordCount', {
      nullable: true,
      description: 'SPF records published; more than one is a permerror.',
    }),
    mechanismCount: t.exposeInt('mechanismCount', {
      nullable: true,
      description: 'Terms of the first record after "v=spf1" (as spf-checker\'s `mechanisms`).',
    }),
    evaluation: t.exposeString('evaluation', {
      nullable: true,
      description: "spf-checker's evaluation: none, ok, permerror or temperror.",
    }),
    lookupCount: t.exposeInt('lookupCount', {
      nullable: true,
      description: 'DNS-querying terms in the whole include tree.',
    }),
    lookupLimit: t.exposeInt('lookupLimit', { nullable: true, description: 'RFC 7208 §4.6.4: 10.' }),
  }),
});

export const MailDmarcDetails = builder.objectRef<DmarcDetails>('MailDmarcDetails').implement({
  description:
    'dmarc, first rule that matches — critical: several DMARC records (none applies) or an invalid one; warning: no record at _dmarc.<domain> nor at the organisational domain, ' +
    'or a null-MX domain whose policy is not reject; info: p=none (monitoring only), or pct under 100; ok: quarantine or reject.',
  fields: (t) => ({
    record: t.exposeString('record', { nullable: true, description: 'The record that applies; "" when none.' }),
    policy: t.exposeString('policy', {
      nullable: true,
      description:
        "The policy for mail from this domain (none, quarantine or reject: sp= when inherited from the organisational domain); null when no valid record applies, as dmarc-checker's effectivePolicy.",
    }),
    found: t.exposeBoolean('found', { nullable: true }),
    inherited: t.exposeBoolean('inherited', {
      nullable: true,
      description: "The organisational domain's record applies (RFC 7489 §6.6.3).",
    }),
    queriedName: t.exposeString('queriedName', {
      nullable: true,
      description: 'The name whose record applies, or was asked last.',
    }),
  }),
});

export const MailDkimFailure = builder.objectRef<DkimSelectorFailure>('MailDkimSelectorFailure').implement({
  fields: (t) => ({
    selector: t.exposeString('selector'),
    reason: t.exposeString('reason', {
      description: 'Why its question failed (time-out, SERVFAIL…): whether it has a key is unknown.',
    }),
  }),
});

export const MailDkimDetails = builder.objectRef<DkimDetails>('MailDkimDetails').implement({
  description:
    "dkim — selectors cannot be listed, so only the selectors checked can be found: dkim.selectors, then the defaults of the mail providers recognised in the MX hosts and in the domain's own SPF record. " +
    "ok: a usable key; info: a usable key with a remark (short RSA key, testing mode), or no key on a null-MX domain; warning: no key among the selectors checked (never critical), keys that cannot verify (revoked, errors), or a key with errors beside a usable one; error: every selector's question failed.",
  fields: (t) => ({
    selectorsFound: t.exposeStringList('selectorsFound', {
      nullable: true,
      description: 'Selectors with a DKIM key record, in the order checked.',
    }),
    selectorsChecked: t.exposeStringList('selectorsChecked', {
      nullable: true,
      description: "Every selector asked: the configured ones first, then the providers'.",
    }),
    providers: t.exposeStringList('providers', {
      nullable: true,
      description: "Mail providers recognised from the MX hosts and the SPF record's include/redirect targets.",
    }),
    failedSelectors: t.field({ type: [MailDkimFailure], nullable: true, resolve: (d) => d.failedSelectors }),
  }),
});

export const MailBlacklistResult = builder.objectRef<BlacklistResult>('MailBlacklistResult').implement({
  fields: (t) => ({
    ip: t.exposeString('ip'),
    listed: t.exposeBoolean('listed', { description: 'Listed on at least one list.' }),
    listedOn: t.exposeStringList('listedOn', { description: 'Names of the lists that list it.' }),
    hosts: t.exposeStringList('hosts', {
      description: 'The MX hosts with this address (with no MX record: the domain).',
    }),
    failedLists: t.exposeStringList('failedLists', {
      description:
        '"<list>: <reason>" for each list that gave no usable answer (time-out, SERVFAIL, a list error code).',
    }),
  }),
});

export const MailBlacklistSkip = builder.objectRef<BlacklistSkip>('MailBlacklistSkip').implement({
  fields: (t) => ({
    target: t.exposeString('target', {
      description: 'An address, or an MX host whose addresses could not be resolved.',
    }),
    reason: t.exposeString('reason'),
  }),
});

export const MailBlacklistDetails = builder.objectRef<BlacklistDetails>('MailBlacklistDetails').implement({
  description:
    `blacklist — the IPv4 addresses of the MX hosts (the ${MX_MAX_EXCHANGES} best by priority, of each its first ${MX_MAX_ADDRESSES_PER_EXCHANGE} addresses; with no MX record, of the domain itself), each asked once on every list of dnsbl.zones; IPv6 and special-purpose addresses are not asked about. ` +
    `critical: an address listed on ${BLACKLIST_LISTINGS_CRITICAL} list or more; info: a null MX, no IPv4 address to check, or nothing listed while some list gave no usable answer or some MX hosts or addresses were left out (omittedExchanges, omittedAddresses); ` +
    'error: no list answered, or no MX host could be resolved; ok: nothing listed.',
  fields: (t) => ({
    checkedIps: t.exposeInt('checkedIps', { nullable: true, description: 'Distinct IPv4 addresses asked about.' }),
    listedIps: t.exposeInt('listedIps', { nullable: true }),
    cleanIps: t.exposeInt('cleanIps', {
      nullable: true,
      description: 'Addresses on no list that answered (checkedIps − listedIps).',
    }),
    results: t.field({
      type: [MailBlacklistResult],
      nullable: true,
      description: 'By MX priority.',
      resolve: (d) => d.results,
    }),
    listCount: t.exposeInt('listCount', { nullable: true, description: 'Lists asked for each address.' }),
    skipped: t.field({ type: [MailBlacklistSkip], nullable: true, resolve: (d) => d.skipped }),
    omittedExchanges: t.exposeInt('omittedExchanges', {
      nullable: true,
      description: `MX hosts beyond the ${MX_MAX_EXCHANGES} best by priority, whose addresses were not asked about.`,
    }),
    omittedAddresses: t.exposeInt('omittedAddresses', {
      nullable: true,
      description: `Addresses beyond the first ${MX_MAX_ADDRESSES_PER_EXCHANGE} of an MX host, not asked about.`,
    }),
  }),
});

export const MailPartNotTested = builder.objectRef<PartNotTested>('MailPartNotTested');

export const DETAILS_TYPE_OF = {
  mx: MailMxDetails,
  spf: MailSpfDetails,
  dmarc: MailDmarcDetails,
  dkim: MailDkimDetails,
  blacklist: MailBlacklistDetails,
} as const satisfies Record<MailCheckId, unknown>;

export const MailCheckRef = builder.objectRef<MailHealthCheck>('MailCheck');

// The union and the descriptions name every part: they are made once every check has joined.
whenAllDeclared(() => {
  const parts = mailParts.joined;
  const joinedIds = parts.map((p) => p.spec.id);
  const perHost = parts.filter((p) => p.spec.perHost).map((p) => p.spec.id);
  MailPartNotTested.implement({
    description: `The details of a transport part (${joinedIds.join(', ')}) that has no single check's data: which MX hosts went untested, and why.`,
    fields: (t) => ({
      tested: t.exposeBoolean('tested', { description: 'Always false: the part did not test anything here.' }),
      reason: t.exposeString('reason', {
        description:
          'null-mx: the domain takes no mail (RFC 7505); no-mx-hosts: the domain has no MX host; beyond-host-limit: ' +
          `an MX host beyond the first ${MAIL_TRANSPORT_MAX_HOSTS} by priority; smtp-probes-off: this instance opens no SMTP session ` +
          "(smtp.enabled); host-not-testable: the host was refused by the target rules or has no address (the check's error); " +
          "could-not-run: the part could not run (the check's error).",
      }),
      untestedHosts: t.exposeStringList('untestedHosts', {
        description:
          "The MX hosts not tested: [] when the domain has none and for the parts about the domain; else the check's host.",
      }),
    }),
  });
  const example = parts.find((p) => p.spec.id === 'tls-rpt') ?? parts[0];
  const details = checkDetailsUnion(
    'MailCheckDetails',
    `A mail check's details: the type follows the check's id (MailMxDetails for mx, …; the transport parts hold their single check's data under its name${example ? `, e.g. ${example.details.name}.${example.field}` : ''}, which REST answers as the details themselves). A check that could not run has every field null; a transport part without data of its own (no MX host, a host not tested, the part could not run) has MailPartNotTested details.`,
    DETAILS_TYPE_OF,
    mailParts,
    [{ type: MailPartNotTested, is: isPartNotTested }],
  );
  const hostNote = perHost.length === 0 ? '' : ` (${listInProse(perHost)}: one check per MX host, by priority)`;
  MailCheckRef.implement({
    description: `One check of mailhealth-check. id, in this order: ${MAIL_CHECK_IDS.join(', ')}, then the mail transport parts ${joinedIds.join(', ')}${hostNote}; each details type states its rule.`,
    interfaces: [HealthCheckRef],
    fields: (t) => ({
      host: t.exposeString('host', {
        nullable: true,
        description: `The MX host this check is about (${listInProse(perHost)}, whose label names it too); null for the checks of the domain.`,
      }),
      details: t.field({ type: details, resolve: (c) => tagDetails(c.id, c.details) as never }),
    }),
  });
});

export const MailHealthCheckRef = builder.objectRef<MailHealthResult>('MailHealthCheck').implement({
  fields: (t) => ({
    domain: t.exposeString('domain', { description: 'The domain checked (lower-case A-label).' }),
    verdict: t.field({ type: HealthVerdictRef, resolve: (r) => r.verdict }),
    checks: t.field({ type: [MailCheckRef], resolve: (r) => r.checks }),
  }),
});
