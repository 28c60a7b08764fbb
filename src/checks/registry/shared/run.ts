/**
 * whois and abuse-contact-lookup: the awaiting part. Both read the one registration look-up of
 * the registrable domain (./registration-loader.ts, asked once per request: RDAP first, WHOIS with referrals otherwise,
 * once per request, cached 1 h) and shape it as api-v1.md's `data`.
 *
 * Absent facts. api-v1.md types `registrar`, `email` and `phone` as strings: "" when the registry
 * publishes none. The dates are "ISO 8601 UTC timestamp" strings there too, but no date is more
 * honest than an invented one, so a date the registry does not give is null, and so is
 * `daysUntilExpiry` without an expiry date.
 */
import { getDomain } from 'tldts';
import { InputError } from '../../../errors.js';
import type { CheckContext } from '../../../loaders/context.js';
import type { CachedRegistration } from '../../../loaders/registry-cache.js';
import type { RegistryResult } from '../../../probes/registry/lookup.js';
import { registrations } from './registration-loader.js';

const DAY_MS = 86_400_000;

export interface RegistrationQuery {
  /** the name asked about (A-labels, lower case, no root dot: parseHostname's output) */
  domain: string;
  /** its registrable domain (tldts getDomain), the name the registries are asked about */
  matchedDomain: string;
}

export interface WhoisResult {
  domain: string;
  /** the registry says the domain is not registered (decisions §3: a finding, not an error) */
  notFound: boolean;
  source: RegistryResult['source'];
  matchedDomain: string;
  /** "" when the answer names no registrar */
  registrar: string;
  /** ISO 8601 UTC ("2024-01-02T03:04:05.000Z"); null when the registry gives none */
  creationDate: string | null;
  expiryDate: string | null;
  updatedDate: string | null;
  /** lower case, no root dot, de-duplicated */
  nameServers: string[];
  /** whole days from now until expiryDate, rounded down (negative once expired); null without expiryDate */
  daysUntilExpiry: number | null;
  message: string | null;
  raw: string;
  /** every server asked, in order: WHOIS host names, RDAP URLs */
  servers: string[];
  /** when the registry answered (ISO 8601 UTC): earlier than now when the answer came from the cache */
  fetchedAt: string;
}

export interface AbuseContactResult {
  domain: string;
  matchedDomain: string;
  /** "" when the answer names no registrar */
  registrar: string;
  /** the registrar's abuse mailbox; "" when none is published */
  email: string;
  /** the registrar's abuse telephone number as published; "" when none is */
  phone: string;
  /** an email or a phone number is published */
  found: boolean;
  source: RegistryResult['source'];
  /** why nothing was found, and what the look-up itself noted (partial chain, redaction); null when nothing */
  message: string | null;
}

/**
 * The registries' question for a host name: its registrable domain (decisions §5). A name that is
 * a public suffix itself ("co.uk") has none: no registry holds a registration for it.
 */
export function registrationQuery(parameter: string, domain: string): RegistrationQuery {
  const matchedDomain = getDomain(domain);
  if (!matchedDomain) {
    throw new InputError(
      parameter,
      `${parameter}: ${domain} is a public suffix (a TLD or a name under which anyone can register), not a registered domain; ask about a name registered under it, such as example.${domain}`,
    );
  }
  return { domain, matchedDomain };
}

/** Whole days until `expiryDate`, rounded down: 0 on its last day, -1 the day after it passed. */
export function daysUntil(expiryDate: string | null, now: number): number | null {
  if (expiryDate === null) return null;
  const at = Date.parse(expiryDate);
  return Number.isNaN(at) ? null : Math.floor((at - now) / DAY_MS);
}

export async function runWhois(ctx: CheckContext, query: RegistrationQuery): Promise<WhoisResult> {
  const { result, fetchedAt }: CachedRegistration = await ctx.use(registrations).registration(query.matchedDomain);
  return {
    domain: query.domain,
    notFound: result.notFound,
    source: result.source,
    matchedDomain: query.matchedDomain,
    registrar: result.registrar ?? '',
    creationDate: result.creationDate,
    expiryDate: result.expiryDate,
    updatedDate: result.updatedDate,
    nameServers: result.nameServers,
    daysUntilExpiry: daysUntil(result.expiryDate, ctx.now()),
    message: result.message,
    raw: result.raw,
    servers: result.servers,
    fetchedAt: new Date(fetchedAt).toISOString(),
  };
}

function missingContactReason(result: RegistryResult, matchedDomain: string): string {
  if (result.notFound) return `${matchedDomain} is not registered, so it has no registrar abuse contact.`;
  if (result.registrar === null)
    return `The registration data of ${matchedDomain} names no registrar and no abuse contact.`;
  return `The registrar of ${matchedDomain} (${result.registrar}) publishes no abuse contact in the registration data.`;
}

export async function runAbuseContactLookup(ctx: CheckContext, query: RegistrationQuery): Promise<AbuseContactResult> {
  const { result } = await ctx.use(registrations).registration(query.matchedDomain);
  const email = result.abuseEmail ?? '';
  const phone = result.abusePhone ?? '';
  const found = !result.notFound && (email !== '' || phone !== '');
  const notes = [found ? null : missingContactReason(result, query.matchedDomain), result.message].filter(
    (n) => n !== null,
  );
  return {
    domain: query.domain,
    matchedDomain: query.matchedDomain,
    registrar: result.registrar ?? '',
    email,
    phone,
    found,
    source: result.source,
    message: notes.length > 0 ? notes.join(' ') : null,
  };
}
