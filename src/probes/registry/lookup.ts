/**
 * Who registered a domain: RDAP where the registry runs it (decisions §5, source
 * "RDAP"), WHOIS with referrals otherwise (source "WHOIS"). The clients and the
 * WHOIS text parser are injected; this module only decides whom to ask, in what
 * order, and how the answers combine. The result is a plain object, cacheable
 * as is (decisions §9).
 *
 * Referral chain (RFC 3912 has none; this is the convention of the registries):
 *   whois.server (IANA)  --"refer:"-->  registry  --"Registrar WHOIS Server:"-->  registrar
 * The most specific answer wins per field, the registry's fills the gaps. The
 * registry's wording decides notFound. A failure of the first server that knows
 * the domain is an error (502/504 naming it); a failure further down the chain
 * leaves a partial result whose `message` names the server that failed.
 */
import net from 'node:net';
import { domainToASCII } from 'node:url';
import { getDomain } from 'tldts';
import { InputError } from '../../errors.js';
import { ProbeError, isProbeError } from '../errors.js';
import type { RdapAnswer, RdapClient } from './rdap.js';
import { rdapDomainUrl } from './rdap.js';
import { isLdhDomainName, type WhoisAnswer, type WhoisClient } from './whois.js';
import { rdapBaseFor, type Bootstrap } from './bootstrap.js';
import { parseRdapDomain, RdapFormatError, type RegistryFacts } from './rdap-parse.js';
import type { WhoisFacts } from './whois-parse.js';
import { canonicalName } from '../../net/dns-name.js';

export interface RegistryResult {
  /** the name asked about */
  domain: string;
  /** the registrable domain actually queried (tldts getDomain); null when it has none */
  matchedDomain: string | null;
  source: 'RDAP' | 'WHOIS';
  notFound: boolean;
  registrar: string | null;
  creationDate: string | null;
  expiryDate: string | null;
  updatedDate: string | null;
  nameServers: string[];
  abuseEmail: string | null;
  abusePhone: string | null;
  /** redaction, rate limiting, a partial chain, a fallback from RDAP: null when there is nothing to say */
  message: string | null;
  /** the most specific answer: WHOIS text, or the RDAP JSON pretty-printed */
  raw: string;
  /** every server asked, in order (WHOIS host names, RDAP URLs) */
  servers: string[];
}

export type ParseWhois = (text: string, queriedDomain: string) => WhoisFacts;

export interface LookupDeps {
  whois: WhoisClient;
  /** null when rdap.enabled is false */
  rdap: RdapClient | null;
  bootstrap: Bootstrap | null;
  /** root of the referral chain (whois.server) */
  whoisServer: string;
  /** used for every WHOIS server, root and referred (configuration.md) */
  whoisPort: number;
  /** bound of each single question, WHOIS or RDAP */
  timeoutMs: number;
  signal?: AbortSignal;
  parseWhois: ParseWhois;
}

/** Root, registry, registrar: a longer chain is not a registration lookup any more. */
export const MAX_WHOIS_SERVERS = 3;

const REDACTED_NOTE = 'Registrant contact data is redacted for privacy.';

type Facts = Pick<
  RegistryFacts,
  'registrar' | 'creationDate' | 'updatedDate' | 'expiryDate' | 'nameServers' | 'abuseEmail' | 'abusePhone'
>;

const EMPTY_FACTS: Facts = {
  registrar: null,
  creationDate: null,
  updatedDate: null,
  expiryDate: null,
  nameServers: [],
  abuseEmail: null,
  abusePhone: null,
};

/**
 * A name as an A-label (RFC 5890 §2.3.2.1) in lower case without the root dot; null when
 * it is not a valid domain name. Answers state the domain as they like: an RDAP
 * `unicodeName`, or a WHOIS "Domain Name:" in U-labels (münchen.de), while the queried
 * name is always in A-labels (xn--mnchen-3ya.de).
 */
function asALabels(name: string): string | null {
  const ascii = domainToASCII(name.trim().replace(/\.$/, ''));
  return ascii === '' ? null : ascii;
}

/** The same domain, whichever form (U-labels, A-labels, case, root dot) each side is written in. */
function sameName(a: string | null | undefined, b: string): boolean {
  if (typeof a !== 'string') return false;
  const left = asALabels(a);
  return left !== null && left === asALabels(b);
}

/**
 * Facts of several answers, the registry's first and the registrar's after it. The registry holds the
 * registration itself, so its creation and expiry dates win (a registrar may print its own account's
 * creation, or an expiry of its own billing cycle); for the rest the more specific answer, the last,
 * wins (a registrar's update of the contacts is an update of the registration too).
 */
function mergeFacts(answers: readonly Facts[]): Facts {
  const pick = <K extends keyof Facts>(
    key: K,
    present: (v: Facts[K]) => boolean,
    from: 'registry' | 'registrar',
  ): Facts[K] => {
    const ordered = from === 'registry' ? answers : [...answers].reverse();
    for (const answer of ordered) if (present(answer[key])) return answer[key];
    return EMPTY_FACTS[key];
  };
  const set = (v: string | null): boolean => v !== null && v !== '';
  return {
    registrar: pick('registrar', set, 'registrar'),
    creationDate: pick('creationDate', set, 'registry'),
    updatedDate: pick('updatedDate', set, 'registrar'),
    expiryDate: pick('expiryDate', set, 'registry'),
    nameServers: [...pick('nameServers', (v) => v.length > 0, 'registrar')],
    abuseEmail: pick('abuseEmail', set, 'registrar'),
    abusePhone: pick('abusePhone', set, 'registrar'),
  };
}

function messageOf(notes: readonly string[]): string | null {
  return notes.length > 0 ? notes.join(' ') : null;
}

function hostOf(url: string): string {
  return URL.parse(url)?.host ?? url;
}

function describe(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/** Errors that must end the lookup at once: the caller went away, or a bug. */
function mustPropagate(err: unknown): boolean {
  return !isProbeError(err) || err.kind === 'ABORTED';
}

interface Context {
  domain: string;
  matchedDomain: string | null;
  queried: string;
  deps: LookupDeps;
  servers: string[];
  notes: string[];
}

async function askRdap(ctx: Context, baseUrl: string): Promise<RdapAnswer & { facts: RegistryFacts | null }> {
  const { deps, queried } = ctx;
  const requested = rdapDomainUrl(baseUrl, queried).href;
  ctx.servers.push(requested);
  const answer = await deps.rdap!.getDomain(baseUrl, queried, {
    timeoutMs: deps.timeoutMs,
    ...(deps.signal ? { signal: deps.signal } : {}),
  });
  if (answer.url !== requested) ctx.servers.push(answer.url);
  if (answer.json === null) return { ...answer, facts: null };
  try {
    return { ...answer, facts: parseRdapDomain(answer.json) };
  } catch (err) {
    if (!(err instanceof RdapFormatError)) throw err;
    const host = hostOf(answer.url);
    throw new ProbeError(
      'MALFORMED',
      host,
      `RDAP server ${host} answered with something other than a domain: ${err.message}`,
    );
  }
}

async function lookupRdap(ctx: Context, baseUrl: string): Promise<RegistryResult> {
  const registry = await askRdap(ctx, baseUrl);
  const base = { domain: ctx.domain, matchedDomain: ctx.matchedDomain, source: 'RDAP' as const, servers: ctx.servers };
  if (registry.facts === null) {
    return { ...base, notFound: true, ...EMPTY_FACTS, message: messageOf(ctx.notes), raw: '' };
  }

  const answers: RegistryFacts[] = [registry.facts];
  let raw = JSON.stringify(registry.json, null, 2);
  // A thin registry (Verisign for .com) links the registrar's own record, which
  // is the more specific answer: one more question, like WHOIS's registrar hop.
  const related = registry.facts.registrarRdapUrl;
  if (related !== null && related !== registry.url) {
    const relatedBase = related.replace(/domain\/[^/]+$/i, '');
    const host = hostOf(related);
    try {
      const registrar = await askRdap(ctx, relatedBase);
      if (registrar.facts === null) {
        ctx.notes.push(
          `The registrar's RDAP server ${host} has no record of the domain; the registry's data is shown.`,
        );
      } else if (registrar.facts.domainName !== null && !sameName(registrar.facts.domainName, ctx.queried)) {
        ctx.notes.push(
          `The registrar's RDAP server ${host} answered about another domain; the registry's data is shown.`,
        );
      } else {
        answers.push(registrar.facts);
        raw = JSON.stringify(registrar.json, null, 2);
      }
    } catch (err) {
      if (mustPropagate(err)) throw err;
      ctx.notes.push(`${describe(err)}; the registry's data is shown.`);
    }
  }
  if (answers.some((a) => a.redacted)) ctx.notes.push(REDACTED_NOTE);
  return { ...base, notFound: false, ...mergeFacts(answers), message: messageOf(ctx.notes), raw };
}

interface WhoisStep {
  server: string;
  answer: WhoisAnswer;
  facts: WhoisFacts;
}

/** A referral's host name, normalised; null when it is not a usable host. */
function referralHost(facts: WhoisFacts): string | null {
  const referred = facts.referral?.server?.trim();
  const server = referred === undefined ? undefined : canonicalName(referred);
  if (!server) return null;
  return isLdhDomainName(server) || net.isIP(server) !== 0 ? server : null;
}

async function lookupWhois(ctx: Context): Promise<RegistryResult> {
  const { deps, queried, notes } = ctx;
  const root = deps.whoisServer.toLowerCase();
  // Answers about the domain itself (the root's pointer to the registry is not one).
  const useful: WhoisStep[] = [];
  const asked = new Set<string>();
  let rootAnswer: WhoisStep | null = null;
  let server = root;

  for (let hop = 0; hop < MAX_WHOIS_SERVERS; hop++) {
    asked.add(server);
    ctx.servers.push(server);
    let answer: WhoisAnswer;
    try {
      answer = await deps.whois.query(server, deps.whoisPort, queried, {
        timeoutMs: deps.timeoutMs,
        ...(deps.signal ? { signal: deps.signal } : {}),
      });
    } catch (err) {
      // Nothing learned about the domain yet: the lookup failed (502/504 naming the server).
      if (mustPropagate(err) || useful.length === 0) throw err;
      notes.push(`${describe(err)}; the answer of ${useful.at(-1)!.server} is shown.`);
      break;
    }
    const facts = deps.parseWhois(answer.text, queried);
    const step: WhoisStep = { server, answer, facts };
    const next = referralHost(facts);
    // The root (IANA) answers about the TLD: its dates and name servers are not the
    // domain's. It counts only when it speaks of the domain itself (a root that is
    // the registry, or .int/.arpa names IANA registers).
    const aboutDomain =
      hop > 0 || sameName(facts.domainName, queried) || (next === null && facts.notFound && !facts.rateLimited);
    if (hop === 0) rootAnswer = step;

    if (facts.rateLimited) {
      if (useful.length === 0) {
        throw new ProbeError(
          'REFUSED',
          `${server}:${deps.whoisPort}`,
          `WHOIS server ${server}:${deps.whoisPort} refused the query: rate limit reached`,
        );
      }
      notes.push(`WHOIS server ${server} rate-limited the query; the answer of ${useful.at(-1)!.server} is shown.`);
      break;
    }
    if (aboutDomain) {
      if (useful.length > 0 && facts.notFound) {
        // The registry's word decides whether the domain exists.
        notes.push(
          `WHOIS server ${server} has no record of the domain; the answer of ${useful.at(-1)!.server} is shown.`,
        );
        break;
      }
      useful.push(step);
      if (facts.notFound) break;
    }

    if (next === null || next === server) break;
    if (asked.has(next)) {
      notes.push(`WHOIS referral loop: ${server} refers back to ${next}.`);
      break;
    }
    if (hop + 1 >= MAX_WHOIS_SERVERS) {
      notes.push(`Stopped after ${MAX_WHOIS_SERVERS} WHOIS servers; ${server} refers on to ${next}.`);
      break;
    }
    server = next;
  }

  const base = { domain: ctx.domain, matchedDomain: ctx.matchedDomain, source: 'WHOIS' as const, servers: ctx.servers };
  if (useful.length === 0) {
    const tld = queried.split('.').at(-1)!;
    notes.push(`WHOIS server ${root} names no WHOIS service for .${tld}.`);
    return { ...base, notFound: false, ...EMPTY_FACTS, message: messageOf(notes), raw: rootAnswer?.answer.text ?? '' };
  }
  const registry = useful[0]!;
  const specific = useful.at(-1)!;
  for (const step of useful) {
    if (step.answer.truncated) notes.push(`The answer of ${step.server} was cut short (at most 256 KiB are read).`);
  }
  if (useful.some((s) => s.facts.redacted)) notes.push(REDACTED_NOTE);
  if (registry.facts.notFound) {
    return { ...base, notFound: true, ...EMPTY_FACTS, message: messageOf(notes), raw: registry.answer.text };
  }
  return {
    ...base,
    notFound: false,
    ...mergeFacts(useful.map((s) => s.facts)),
    message: messageOf(notes),
    raw: specific.answer.text,
  };
}

/** Lower case, no trailing dot, host name syntax; anything else is a caller bug or an attack. */
function checkedName(domain: string): string {
  const name = canonicalName(domain);
  if (!isLdhDomainName(name)) {
    throw new InputError('domain', 'domain must be a host name in A-label form (letters, digits, hyphens and dots)');
  }
  return name;
}

export async function lookupRegistration(domain: string, deps: LookupDeps): Promise<RegistryResult> {
  const name = checkedName(domain);
  const matchedDomain = getDomain(name) ?? null;
  const ctx: Context = { domain, matchedDomain, queried: matchedDomain ?? name, deps, servers: [], notes: [] };

  let rdapFailure: ProbeError | null = null;
  const rdapBase = deps.rdap && deps.bootstrap ? rdapBaseFor(deps.bootstrap, ctx.queried) : null;
  if (rdapBase !== null) {
    try {
      return await lookupRdap(ctx, rdapBase);
    } catch (err) {
      if (mustPropagate(err)) throw err;
      rdapFailure = err as ProbeError;
      ctx.notes.push(`RDAP failed (${rdapFailure.message}); the data comes from WHOIS instead.`);
    }
  }

  try {
    return await lookupWhois(ctx);
  } catch (err) {
    if (rdapFailure === null || !isProbeError(err) || err.kind === 'ABORTED') throw err;
    throw new ProbeError(err.kind, err.upstream, `${err.message} (RDAP had failed too: ${rdapFailure.message})`, {
      cause: err,
    });
  }
}
