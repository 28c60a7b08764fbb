/**
 * The per-request registration loader of whois and abuse-contact-lookup (decisions §9), declared with
 * them (`registrations`, asked for with `checks.use(registrations)`): within one request each registrable
 * domain is looked up once, so whois and abuse-contact-lookup selected together (or
 * `www.example.com` beside `example.com`) share one RDAP/WHOIS chain; across requests the
 * answer is kept in the registry cache (registry-cache.ts: 1 h, partial answers 5 min).
 *
 * WHOIS servers pass the target rules (src/probes/registry/guarded-whois.ts): a refused root or registry
 * is a 502; a refused registrar leaves the registry's answer with a message. `targets.allow` exempts
 * ranges (an operator's internal WHOIS mirror, the test labs).
 *
 * RDAP servers come from the bootstrap file (configuration) and are not guarded (src/probes/registry/rdap.ts).
 */
import { createRequestLoader } from '../../../loaders/request-loader.js';
import type { RdapClient } from '../../../probes/registry/rdap.js';
import type { WhoisClient } from '../../../probes/registry/whois.js';
import { createGuardedWhoisClient, type WhoisServerGuard } from '../../../probes/registry/guarded-whois.js';
import { rdapBaseFor, type Bootstrap } from '../../../probes/registry/bootstrap.js';
import type { CachedRegistration, RegistryCache } from '../../../loaders/registry-cache.js';
import { lookupRegistration, type LookupDeps } from '../../../probes/registry/lookup.js';
import { parseWhois } from '../../../probes/registry/whois-parse.js';
import { canonicalName } from '../../../net/dns-name.js';
import { declareLoader, type LoaderScope } from '../../../loaders/declared-loader.js';

export interface RegistrationLoaderDeps extends WhoisServerGuard {
  /** config `whois`: the root server, the port of every server, the bound of each question (RDAP too) */
  readonly whois: { readonly server: string; readonly port: number; readonly timeoutMs: number };
  /** null when `rdap.enabled` is false */
  readonly rdap: RdapClient | null;
  readonly bootstrap: Bootstrap | null;
  readonly cache: RegistryCache;
  readonly now: () => number;
  /** the request's signal */
  readonly signal: AbortSignal;
  /** counts each WHOIS and RDAP question (Metrics.upstream) */
  readonly observe: LoaderScope['observe'];
  /** counts a registry cache lookup (Metrics.cacheLookup) */
  readonly cacheLookup: (hit: boolean) => void;
}

export interface RegistrationLoader {
  /**
   * The registration of a registrable domain (A-labels, as tldts getDomain gives it): asked once
   * per request, served from the cache when fresh. Rejects with ProbeError (502/504) naming the
   * server that failed.
   */
  registration(matchedDomain: string): Promise<CachedRegistration>;
}

/**
 * Wraps the look-up's clients and parser to notice what makes an answer partial: a WHOIS or
 * RDAP question that failed, a WHOIS answer cut short, a rate-limit answer. (A failure that
 * ends the look-up is thrown and never cached anyway.)
 */
function watchCompleteness(deps: LookupDeps): { deps: LookupDeps; complete: () => boolean } {
  let complete = true;
  const noteFailure = (err: unknown): never => {
    complete = false;
    throw err;
  };
  const whois: WhoisClient = {
    async query(...args) {
      const answer = await deps.whois.query(...args).catch(noteFailure);
      if (answer.truncated) complete = false;
      return answer;
    },
  };
  const rdap: RdapClient | null = deps.rdap && {
    getDomain: (...args) => deps.rdap!.getDomain(...args).catch(noteFailure),
  };
  return {
    deps: {
      ...deps,
      whois,
      rdap,
      parseWhois(text, queried) {
        const facts = deps.parseWhois(text, queried);
        if (facts.rateLimited) complete = false;
        return facts;
      },
    },
    complete: () => complete,
  };
}

export function createRegistrationLoader(deps: RegistrationLoaderDeps): RegistrationLoader {
  const guarded = createGuardedWhoisClient(deps);
  const whois: WhoisClient = { query: (...args) => deps.observe('whois', () => guarded.query(...args)) };
  const rdap: RdapClient | null = deps.rdap && {
    getDomain: (...args) =>
      deps.observe(
        'rdap',
        () => deps.rdap!.getDomain(...args),
        (a) => (a.json === null ? 'not_found' : 'ok'),
      ),
  };
  const lookup = async (matchedDomain: string): Promise<CachedRegistration> => {
    const hit = await deps.cache.get(matchedDomain);
    deps.cacheLookup(hit !== undefined);
    if (hit) return hit;
    const watched = watchCompleteness({
      whois,
      rdap,
      bootstrap: deps.bootstrap,
      whoisServer: deps.whois.server,
      whoisPort: deps.whois.port,
      timeoutMs: deps.whois.timeoutMs,
      signal: deps.signal,
      parseWhois,
    });
    const result = await lookupRegistration(matchedDomain, watched.deps);
    // RDAP was due but the data came from WHOIS: RDAP failed, or answered something that is not a domain.
    const rdapFellBack =
      rdap !== null &&
      deps.bootstrap !== null &&
      result.source === 'WHOIS' &&
      rdapBaseFor(deps.bootstrap, matchedDomain) !== null;
    const entry: CachedRegistration = { result, fetchedAt: deps.now(), complete: watched.complete() && !rdapFellBack };
    deps.cache.set(matchedDomain, entry);
    return entry;
  };
  const loader = createRequestLoader(lookup, (name) => name);
  return { registration: (matchedDomain) => loader.load(canonicalName(matchedDomain)) };
}

/** The registration look-ups of a request: WHOIS servers pass the target rules too (a referral must not reach into a private network). */
export const registrations = declareLoader('registrations', ({ services, signal, observe, addresses, assertAllowed }) =>
  createRegistrationLoader({
    whois: services.config.whois,
    rdap: services.rdapClient,
    bootstrap: services.rdapBootstrap,
    cache: services.registryCache,
    now: services.now,
    addresses,
    assertAllowed,
    signal,
    observe,
    cacheLookup: (hit) => services.metrics.cacheLookup('registry', hit),
  }),
);
