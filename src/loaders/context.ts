/**
 * What a check's `run` function may use: configuration, the request's AbortSignal, and the probes
 * behind per-request DataLoaders (decisions §9: each distinct upstream question is asked once per
 * request, and composite checks reuse the answers of their parts; a request's distinct DNS questions
 * are bounded: fan-out-limits.ts, question-budget.ts). Built lazily once per request from the
 * long-lived services; tests build one directly with `createCheckContext`.
 */
import { createRequestLoader } from './request-loader.js';
import type { Config, HostPort } from '../config.js';
import { InputError } from '../errors.js';
import { Deadline } from '../deadline.js';
import { recordsOfType, type DnsQuery, type DnsResponse, type RecordType } from '../probes/dns/client.js';
import { createTargetGuard, type ResolvedAddress, type TargetGuard } from '../probes/guard.js';
import type { Limiter } from '../probes/outbound.js';
import type { ObserveUpstream, UpstreamFamily } from '../platform/metrics.js';
import type { IpFacts } from '../probes/ipdata/facts.js';
import { createConnectionLoaders, type ConnectionLoaders } from './connections.js';
import { createHttpLoaders, type HttpLoaders } from './http.js';
import { createPingLoaders, type PingLoaders } from './ping.js';
import type { DeclaredLoader, LoaderScope } from './declared-loader.js';
import type { LoaderDependencies, WellKnownPorts } from './dependencies.js';
import { createSmtpLoaders, type SmtpLoaders } from './smtp.js';
import { canonicalName } from '../net/dns-name.js';
import { dnsQuestionBudget } from './fan-out-limits.js';
import { createQuestionBudget, type QuestionBudget } from './question-budget.js';
import { connectionBudgetFor, createConnectionBudget, type ConnectionBudget } from './connection-budget.js';

export interface CheckContext extends ConnectionLoaders, SmtpLoaders {
  readonly config: Config;
  /** the request's connections to targets (connection-budget.ts): what a check plans its probes within */
  readonly connectionBudget: Pick<ConnectionBudget, 'limit' | 'used' | 'remaining'>;
  readonly signal: AbortSignal;
  readonly now: () => number;
  /** the first `dns.system` server (or the operating system's resolver) */
  readonly systemResolver: HostPort;
  /** one DNS question: asked once per request, served from the cross-request TTL cache when fresh */
  dns(q: DnsQuery): Promise<DnsResponse>;
  /** one DNS question, asked once per request but never served from the cross-request cache */
  dnsLive(q: DnsQuery): Promise<DnsResponse>;
  /** a question to the system resolver (recursion desired) */
  resolve(name: string, type: RecordType): Promise<DnsResponse>;
  /** A and AAAA of a name through the system resolver; NXDOMAIN or no address gives [] */
  addresses(name: string): Promise<ResolvedAddress[]>;
  /** the target guard (decisions §7), resolving through `addresses` */
  readonly guard: TargetGuard;
  /** the ports of the protocols the checks speak with targets (53, 80, 443, 25) */
  readonly ports: WellKnownPorts;
  /** ASN / country facts of a public IP (once per request, cached 24 h across requests) */
  ipFacts(ip: string): Promise<IpFacts>;
  /** one guarded HTTP fetch (redirects followed, every hop checked) per (URL, body mode) per request (src/loaders/http.ts) */
  fetch: HttpLoaders['fetch'];
  /** one guarded document fetch (no redirects, any type, capped) per (URL, cap) per request: MTA-STS policies, BIMI logos */
  fetchDocument: HttpLoaders['fetchDocument'];
  /** one guarded CORS preflight (OPTIONS with Origin) per (URL, origin) per request: http-rating */
  preflight: HttpLoaders['preflight'];
  /** one ping run per checked address per request (src/loaders/ping.ts) */
  ping: PingLoaders['ping'];
  /**
   * The request's instance of a loader a check declared (./declared-loader.ts): made on first use, then
   * shared by every check of the request that uses the same declaration.
   */
  use<T>(loader: DeclaredLoader<T>): T;
}

const dnsKey = (q: DnsQuery) =>
  `${q.server.host}|${q.server.port}|${canonicalName(q.name)}|${q.type}|${q.dnssecOk ? 1 : 0}${q.checkingDisabled ? 1 : 0}${q.recursionDesired === false ? 0 : 1}`;

/**
 * Per-question loaders: no batching (each question is its own packet), only de-duplication. A question
 * new to the request is charged to its budget first (question-budget.ts): a repeat never reaches here.
 */
function questionLoader(budget: QuestionBudget, ask: (q: DnsQuery) => Promise<DnsResponse>) {
  return createRequestLoader(async (q: DnsQuery) => {
    budget.charge(dnsKey(q), `the DNS question ${q.name} ${q.type}`);
    return ask(q);
  }, dnsKey);
}

/**
 * A loader family made when a question is first asked of it: a check uses one or two of the families,
 * and building all of them for every request was a tenth of what the service allocates under load.
 */
function onFirstUse<T>(make: () => T): () => T {
  let made: T | undefined;
  return () => (made ??= make());
}

export interface CheckContextOptions {
  /** distinct DNS questions the request may ask; default dnsQuestionBudget(config) (fan-out-limits.ts) */
  readonly dnsQuestionBudget?: number;
  /**
   * connections to targets the request may open (connection-budget.ts): a request's is
   * connectionBudgetFor(its price) (src/graphql/context.ts); default that of the dearest price configured in
   * `quota.costs` (a context outside a priced request: a job's callback, tests)
   */
  readonly connectionBudget?: number;
}

export function createCheckContext(
  services: LoaderDependencies,
  signal: AbortSignal,
  options: CheckContextOptions = {},
): CheckContext {
  const { config, dnsClient, dnsCache, metrics } = services;
  const systemResolver = services.systemResolvers[0];
  // shared by both question loaders: a question asked live and cached is still one question
  const budget = onFirstUse(() => createQuestionBudget(options.dnsQuestionBudget ?? dnsQuestionBudget(config)));
  const connectionBudget = createConnectionBudget(
    options.connectionBudget ?? connectionBudgetFor(Math.max(...Object.values(config.quota.costs))),
  );

  // Every upstream question passes here: it waits for its family's process-wide slot (within this
  // request's signal), then is counted per family by outcome or failure kind (metrics.ts).
  const { limits, coalescer } = services.outbound;
  const observe: ObserveUpstream = (family, ask, outcomeOf) => {
    const limiter = (limits as Partial<Record<UpstreamFamily, Limiter>>)[family];
    return limiter
      ? limiter.run(() => metrics.upstream(family, ask, outcomeOf), signal, `a ${family} question`)
      : metrics.upstream(family, ask, outcomeOf);
  };
  // A DNS question in flight is shared by every request asking the same one (coalescing). The shared
  // question does not listen to any one request's signal (the client bounds it with dns.timeoutMs); each
  // request stops waiting when its own signal fires.
  const askDns = (q: DnsQuery) =>
    coalescer.run(
      `dns|${dnsKey(q)}`,
      () => {
        // its own bound, from when it is first asked: not that of whichever request asked first (released
        // when the question settles: an AbortSignal.timeout would live, with its timer, for the full bound)
        const bound = new Deadline(config.server.requestTimeoutMs);
        return limits.dns
          .run(
            () =>
              metrics.upstream(
                'dns',
                () => dnsClient.query(q),
                (r) => r.rcode,
              ),
            bound.signal,
            'a DNS question',
          )
          .finally(() => bound.release());
      },
      signal,
      `the DNS question ${q.name} ${q.type}`,
    );
  const live = onFirstUse(() => questionLoader(budget(), askDns));
  const cached = onFirstUse(() =>
    questionLoader(budget(), async (q) => {
      const key = dnsKey(q);
      const hit = dnsCache.get(key);
      metrics.cacheLookup('dns', hit !== undefined);
      if (hit) return hit;
      const response = await askDns(q);
      dnsCache.set(key, response);
      return response;
    }),
  );

  const requireResolver = (): HostPort => {
    if (!systemResolver)
      throw new InputError('resolver', 'no system resolver is configured (dns.system is empty and the OS lists none)');
    return systemResolver;
  };
  const resolve = (name: string, type: RecordType) => cached().load({ name, type, server: requireResolver() });

  const addressLoader = onFirstUse(() =>
    createRequestLoader(
      async (name: string): Promise<ResolvedAddress[]> => {
        const [a, aaaa] = await Promise.all([resolve(name, 'A'), resolve(name, 'AAAA')]);
        return [
          ...recordsOfType(a, name, 'A').map((r) => ({ address: r.data as string, family: 4 as const })),
          ...recordsOfType(aaaa, name, 'AAAA').map((r) => ({ address: r.data as string, family: 6 as const })),
        ];
      },
      (name) => name,
    ),
  );
  const addresses = (name: string) => addressLoader().load(canonicalName(name));

  const guard = onFirstUse(() =>
    createTargetGuard({ allow: config.targets.allow, resolve: (name) => addresses(name) }),
  );
  const assertAllowed = (address: string, target: string) => guard().assertAllowed(address, target);

  const ipFactsLoader = onFirstUse(() =>
    createRequestLoader(
      async (ip: string): Promise<IpFacts> => {
        const hit = services.ipFactsCache.get(ip);
        metrics.cacheLookup('ip_facts', hit !== undefined);
        if (hit) return hit;
        // outcome: "live" (IPinfo), "database", or "fallback" (the database after a live failure)
        const facts = await metrics.upstream(
          'ipdata',
          () => services.ipData.lookup(ip, { signal }),
          (f) => (f.liveError === null ? f.source : 'fallback'),
        );
        services.ipFactsCache.set(facts);
        return facts;
      },
      (ip) => ip,
    ),
  );

  const connections = onFirstUse(() =>
    createConnectionLoaders(services.connections, assertAllowed, signal, connectionBudget, observe),
  );
  const http = onFirstUse(() =>
    createHttpLoaders({
      http: config.http,
      connections: services.connections,
      guard: guard(),
      budget: connectionBudget,
      signal,
      observe,
    }),
  );
  const smtp = onFirstUse(() =>
    createSmtpLoaders({
      smtp: config.smtp,
      connections: services.connections,
      assertAllowed,
      signal,
      budget: connectionBudget,
      observe,
    }),
  );
  const ping = onFirstUse(() =>
    createPingLoaders({ settings: config.ping, pingPath: services.pingPath, assertAllowed, signal, observe }),
  );
  const declared = new Map<DeclaredLoader<unknown>, unknown>();
  const scope: LoaderScope = {
    services,
    signal,
    observe,
    addresses,
    assertAllowed,
    get guard() {
      return guard();
    },
  };
  const use = <T>(loader: DeclaredLoader<T>): T => {
    if (!declared.has(loader)) declared.set(loader, loader.make(scope));
    return declared.get(loader) as T;
  };

  return {
    config,
    signal,
    connectionBudget,
    ipFacts: (ip) => ipFactsLoader().load(ip),
    now: services.now,
    ports: services.ports,
    get systemResolver() {
      return requireResolver();
    },
    dns: (q) => cached().load(q),
    dnsLive: (q) => live().load(q),
    resolve,
    addresses,
    get guard() {
      return guard();
    },
    // TLS handshakes and TCP port tests, once per request per question (src/loaders/connections.ts)
    // (each loader observes a question for the metrics where it asks it: once per distinct question)
    tlsHandshake: (question) => connections().tlsHandshake(question),
    tcpProbe: (question) => connections().tcpProbe(question),
    tlsHello: (question) => connections().tlsHello(question),
    verifyChain: (chain, now) => connections().verifyChain(chain, now),
    // guarded HTTP fetches (src/loaders/http.ts)
    fetch: (url, options) => http().fetch(url, options),
    fetchDocument: (url, options) => http().fetchDocument(url, options),
    preflight: (url, origin) => http().preflight(url, origin),
    // one SMTP session (with STARTTLS) per address, port and SNI per request (src/loaders/smtp.ts)
    smtpSession: (question) => smtp().smtpSession(question),
    ping: (question) => ping().ping(question),
    use,
  };
}
