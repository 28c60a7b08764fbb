/**
 * whois: the awaiting part: the request's registration look-up (../shared/registration-query.ts says what both
 * registry checks read, and why an absent fact is "" or null) shaped as api-v1.md's `data`.
 */
import type { CheckContext } from '../../../loaders/context.js';
import type { CachedRegistration } from '../../../loaders/registry-cache.js';
import type { RegistryResult } from '../../../probes/registry/lookup.js';
import { registrations } from '../shared/registration-loader.js';
import type { RegistrationQuery } from '../shared/registration-query.js';

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

const DAY_MS = 86_400_000;
