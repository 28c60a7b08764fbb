/**
 * The per-request registration loader (decisions §9): within one request each registrable
 * domain is looked up once, so whois and abuse-contact-lookup selected together (or
 * `www.example.com` beside `example.com`) share one RDAP/WHOIS chain; across requests the
 * answer is kept in the registry cache (cache.ts: 1 h, partial answers 5 min).
 *
 * WHOIS servers are named by configuration (the root) and by upstream text (referrals), so a
 * referral could point the service at an internal host. Every server therefore goes through
 * the target rules (decisions §7) like a caller's target: a name is resolved through the
 * service's DNS and EVERY address is checked, an IP literal is checked as is, the connection
 * goes to the checked address, and the socket's remote address is re-checked before the query
 * line is written. A refused server is an upstream failure (ProbeError REFUSED): the root or the
 * registry refused → 502; a registrar refused → the registry's answer with a message.
 * `targets.allow` exempts ranges (an operator's internal WHOIS mirror, the test labs).
 *
 * RDAP servers come from the bootstrap file (configuration) and are not guarded (src/probes/rdap.ts).
 */
import { createRequestLoader } from '../request-loader.js';
import net, { type Socket } from 'node:net';
import { withArticle } from '../../errors.js';
import { classifyAddress } from '../../net/address-class.js';
import { ProbeError, isProbeError } from '../../probes/errors.js';
import type { ResolvedAddress } from '../../probes/guard.js';
import type { RdapClient } from '../../probes/rdap.js';
import { createWhoisClient, type WhoisClient } from '../../probes/whois.js';
import type { ObserveUpstream } from '../../server/metrics.js';
import { rdapBaseFor, type Bootstrap } from './bootstrap.js';
import type { CachedRegistration, RegistryCache } from './cache.js';
import { lookupRegistration, type LookupDeps } from './lookup.js';
import { parseWhois } from './whois-parse.js';

export interface WhoisServerGuard {
  /** A and AAAA of a name through the service's resolver (CheckContext.addresses) */
  addresses(name: string): Promise<ResolvedAddress[]>;
  /** the target guard's check of one address; throws TargetRefusedError */
  assertAllowed(address: string, targetForMessage: string): void;
}

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
  readonly observe: ObserveUpstream;
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

function refusalReason(address: string): string {
  try {
    const verdict = classifyAddress(address);
    return verdict.special ? `${withArticle(verdict.range)} address` : 'an address the target rules refuse';
  } catch {
    return 'not an IP address';
  }
}

/** Throws ProbeError REFUSED naming the server when the target rules refuse `address`. */
function admit(guard: WhoisServerGuard, server: string, upstream: string, address: string): void {
  try {
    guard.assertAllowed(address, server);
  } catch (err) {
    if (isProbeError(err)) throw err;
    const where =
      address === server ? `is ${refusalReason(address)}` : `resolves to ${address}, ${refusalReason(address)}`;
    throw new ProbeError(
      'REFUSED',
      upstream,
      `WHOIS server ${upstream} ${where}; it was not contacted (private and internal addresses are refused)`,
      { cause: err },
    );
  }
}

/** The address to connect to for a WHOIS server name: every address it resolves to must pass. */
async function checkedAddress(guard: WhoisServerGuard, host: string, upstream: string): Promise<string> {
  let found: ResolvedAddress[];
  try {
    found = await guard.addresses(host);
  } catch (err) {
    if (isProbeError(err) && err.kind === 'ABORTED') throw err;
    const why = err instanceof Error ? err.message : String(err);
    const kind = isProbeError(err) ? err.kind : 'UNREACHABLE';
    throw new ProbeError(kind, upstream, `WHOIS server name ${host} could not be resolved (${why})`, { cause: err });
  }
  if (found.length === 0) {
    throw new ProbeError('UNREACHABLE', upstream, `WHOIS server name ${host} has no address (no A or AAAA record)`);
  }
  // One refused address refuses the server, as for a caller's target: which address a
  // resolver hands out next is the name owner's choice.
  for (const { address } of found) admit(guard, host, upstream, address);
  return (found.find((a) => a.family === 4) ?? found[0]!).address;
}

/**
 * A WHOIS client whose every server passes the target rules first (see the module comment).
 * `connect` is the socket factory (default net.connect), a test seam.
 */
export function createGuardedWhoisClient(
  guard: WhoisServerGuard,
  connect: (host: string, port: number) => Socket = (host, port) => net.connect({ host, port }),
): WhoisClient {
  const guardedConnect = (address: string, port: number): Socket => {
    const socket = connect(address, port);
    // Registered before the client's own 'connect' listener, so a refusal destroys the
    // socket before the query line is written.
    socket.once('connect', () => {
      const remote = socket.remoteAddress;
      try {
        if (remote === undefined) throw new Error('the socket has no remote address');
        guard.assertAllowed(remote, address);
      } catch (err) {
        const why = err instanceof Error ? err.message : String(err);
        socket.destroy(new Error(`connected to ${remote ?? 'an unknown address'}, which is refused: ${why}`));
      }
    });
    return socket;
  };
  return {
    async query(server, port, query, opts) {
      const upstream = `${server}:${port}`;
      // The client connects to an IP literal without resolving it: check it here.
      if (net.isIP(server) !== 0) admit(guard, server, upstream, server);
      const client = createWhoisClient({
        resolveHost: (host) => checkedAddress(guard, host, upstream),
        connect: guardedConnect,
      });
      return client.query(server, port, query, opts);
    },
  };
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
  return { registration: (matchedDomain) => loader.load(matchedDomain.toLowerCase().replace(/\.$/, '')) };
}
