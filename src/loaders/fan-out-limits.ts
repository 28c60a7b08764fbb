/**
 * How far one request may fan out: the caps on what a check follows from a domain's records, and the
 * budget of DNS questions the check context enforces whatever the checks do. One place, because the
 * budget is derived from the caps.
 *
 * Without them, a domain publishing 400 MX records of 4 addresses each made one mailhealth-check ask
 * thousands of questions — most of them of the block-list operators, who cut off resolvers that ask
 * too many — for the price of one check.
 */
import type { Config } from '../config.js';

/**
 * MX hosts a check follows: the 10 best by preference (RFC 5321 §5.1: senders try the lowest
 * preference first; ties, which senders order at random, are taken by name so that every request
 * follows the same ones). Senders stop well before the tenth — Postfix tries at most 5 addresses
 * by default (smtp_mx_address_limit) — so hosts past it are almost never used.
 * mx-lookup, every part of mailhealth-check and mta-sts apply it.
 */
export const MX_MAX_EXCHANGES = 10;

/**
 * Addresses of one MX host a check follows: its first 4 (IPv4 first, in the resolver's order). A
 * sender tries a host's addresses in turn up to a limit of its own (RFC 5321 §5.1 allows one and asks
 * for at least two); the block-list questions, one per address per list, are what this bounds.
 */
export const MX_MAX_ADDRESSES_PER_EXCHANGE = 4;

/** MX hosts tested by mailhealth-check's starttls and dane, by priority: the bound on connections one check opens. */
export const MAIL_TRANSPORT_MAX_HOSTS = 5;

/** Questions one SPF walk may ask, the domain's own TXT included (src/checks/mail/spf-checker/walk.ts). */
export const SPF_WALK_MAX_QUESTIONS = 30;

/**
 * DKIM selectors mailhealth-check may add for the mail providers it recognises (the provider table of
 * src/checks/dns/shared/mail-providers.ts, all providers at once; a test keeps the table within it).
 */
export const DKIM_PROVIDER_SELECTORS_MAX = 30;

/**
 * The DNS questions the largest honest check — mailhealth-check of a domain with MX_MAX_EXCHANGES
 * hosts of MX_MAX_ADDRESSES_PER_EXCHANGE IPv4 addresses each, every address listed on every list —
 * asks, part by part. Questions the parts share (the MX answer, the hosts' addresses) are counted once,
 * as the per-request loaders ask them once.
 */
export function worstHonestMailhealthQuestions(config: Pick<Config, 'dnsbl' | 'dkim'>): number {
  // MX, then A and AAAA of each host followed; or, with no MX record, of the domain itself (RFC 5321 §5.1)
  const mx = 1 + 2 * MX_MAX_EXCHANGES + 2;
  // per address and list: the A question, and the TXT explaining a listing (RFC 5782 §2.1)
  const blacklist = MX_MAX_EXCHANGES * MX_MAX_ADDRESSES_PER_EXCHANGE * config.dnsbl.zones.length * 2;
  const spf = SPF_WALK_MAX_QUESTIONS;
  // _dmarc.<domain>, then the organisational domain's (RFC 7489 §6.6.3)
  const dmarc = 2;
  const dkim = config.dkim.selectors.length + DKIM_PROVIDER_SELECTORS_MAX;
  // the _mta-sts TXT, and A and AAAA of the policy host
  const mtaSts = 3;
  const tlsRpt = 1;
  // TLSA of each tested host, asked again with CD when it does not validate
  const dane = 2 * MAIL_TRANSPORT_MAX_HOSTS;
  // the record at the domain and at the organisational domain, and A and AAAA of the logo's host
  const bimi = 4;
  return mx + blacklist + spf + dmarc + dkim + mtaSts + tlsRpt + dane + bimi;
}

/**
 * Distinct DNS questions one request may ask: three times what the largest honest check needs. The
 * caps above keep every check within that need, so only a check that fans out in a way nobody
 * foresaw reaches this; the rest is room for a GraphQL operation that composes several checks (they
 * share the request's loaders, and so this budget) and for parts added later. It follows the
 * configuration: more block lists or selectors, a larger budget.
 */
export function dnsQuestionBudget(config: Pick<Config, 'dnsbl' | 'dkim'>): number {
  return 3 * worstHonestMailhealthQuestions(config);
}
