/**
 * Warm before ready (docs/operations.md "Warm before ready"): a worker does its first-request work before
 * the primary counts it ready, so that the first answer it gives is as fast as its tenth. The first
 * request through a path pays for what runs once per process — V8 compiling the code it runs, the lazy
 * parts of the schema and the loaders, the DNS client's sockets, OpenSSL's contexts and trust store, the
 * HTTP client's pool — and, with one worker per core, every fresh worker made one client in a few pay it.
 *
 * The warm-up runs real requests through an app of its own, built on this worker's services with every
 * upstream replaced by fakes in this process on loopback (./fake-upstreams.ts), so that nothing leaves
 * the machine, nothing real is charged, cached, counted or logged, and no job is touched (its own empty
 * data directory, no Redis). What it warms is shared with the real app: the code, the compiled REST
 * documents (src/app.ts), the DNS client, the TLS contexts. The real app builds its documents (the
 * OpenAPI document, the API index) ahead of its first visitor, and the worker's ledgers are asked once,
 * for nothing (ledgerRoundTrips).
 *
 * It is bounded (WARM_UP_BOUND_MS) and never stops a start: what fails is said in the log, and the
 * worker serves colder.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp, type App } from '../app.js';
import type { Config } from '../config.js';
import { createHttpServer } from '../http-server.js';
import { silentLogger } from '../log.js';
import { createDnsCache } from '../loaders/dns-cache.js';
import { createIpFactsCache } from '../loaders/ip-facts-cache.js';
import { createRegistryCache } from '../loaders/registry-cache.js';
import { createAdmission, NO_LOOP_DELAY_SENSOR } from '../platform/admission.js';
import { createKeyring } from '../platform/keys.js';
import { ledgerPolicies } from '../platform/ledger-policies.js';
import { createMetrics } from '../platform/metrics.js';
import { createMemoryQuotaStore } from '../platform/quota.js';
import { OWN_RESOLVER_LABEL } from '../probes/dns/client.js';
import { createOutbound } from '../probes/outbound.js';
import type { Services } from '../services.js';
import { type FakeUpstreams, startFakeUpstreams, WARM_UP_NAME } from './fake-upstreams.js';

/** Past this the worker is counted ready anyway: a warm-up that hangs must not hold a start. */
export const WARM_UP_BOUND_MS = 10_000;

/** The warm-up app's one key (its keyring holds nothing else). */
const WARM_UP_KEY = 'netdiag-warm-up-key';
const LOOPBACK = '127.0.0.1';

export interface WarmUpReport {
  readonly ms: number;
  /** the requests that did not answer as expected, with what they answered; empty when all did */
  readonly failed: readonly string[];
  /** true when the bound passed before the requests were answered */
  readonly cutShort: boolean;
}

/**
 * The requests that take a fresh worker's first-request paths (the REST shim, GraphQL, DNS, TLS, HTTP),
 * each with the status it gets: my-ip refuses the loopback client the warm-up is, after the same work.
 */
function warmUpRequests(upstreams: FakeUpstreams): { request: Request; status: number }[] {
  const origin = 'http://warm-up.invalid';
  const headers = { 'x-api-key': WARM_UP_KEY };
  const get = (path: string, status = 200) => ({ request: new Request(`${origin}${path}`, { headers }), status });
  return [
    get('/api/v1/my-ip', 400),
    get(`/api/v1/dns-lookup?domain=${WARM_UP_NAME}`),
    get(`/api/v1/mx-lookup?domain=${WARM_UP_NAME}`),
    get(`/api/v1/tls-configuration?domain=${WARM_UP_NAME}&port=${upstreams.tlsPort}`),
    get(`/api/v1/http-headers?url=${encodeURIComponent(`http://${WARM_UP_NAME}:${upstreams.httpPort}/`)}`),
    // a client's own document: the general executor, parsing and validation
    {
      request: new Request(`${origin}/graphql`, {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json' },
        body: JSON.stringify({ query: `{ dnsLookup(domain: "${WARM_UP_NAME}") { rcode records { A } } }` }),
      }),
      status: 200,
    },
  ];
}

/**
 * The configuration of the warm-up app: every upstream on loopback at the fakes (public resolvers, root
 * servers, WHOIS), loopback allowed as a target, no RDAP, no IPinfo API, no Redis, an empty data directory.
 */
function warmUpConfig(config: Config, upstreams: FakeUpstreams, dataDir: string): Config {
  const fakeDns = { host: LOOPBACK, port: upstreams.dnsPort };
  return {
    ...config,
    server: { ...config.server, dataDir },
    auth: { ...config.auth, keys: [WARM_UP_KEY], revoked: [] },
    store: { ...config.store, redisUrl: null },
    targets: { ...config.targets, allow: [`${LOOPBACK}/32`] },
    dns: {
      ...config.dns,
      system: [fakeDns],
      publicResolvers: config.dns.publicResolvers.map((resolver) => ({ ...resolver, address: fakeDns })),
    },
    dnssec: { ...config.dnssec, rootServers: [`${LOOPBACK}:${upstreams.dnsPort}`] },
    whois: { ...config.whois, server: LOOPBACK, port: upstreams.dnsPort },
    rdap: { ...config.rdap, enabled: false },
    ipInfo: { ...config.ipInfo, source: 'embedded', token: null },
    metrics: { ...config.metrics, token: null },
  };
}

/** This worker's services with the fakes as upstreams and state of their own (ledgers, caches, counts). */
function warmUpServices(services: Services, config: Config, upstreams: FakeUpstreams): Services {
  const policies = ledgerPolicies(config);
  return {
    ...services,
    config,
    keyring: createKeyring({ staticKeys: [WARM_UP_KEY], secret: services.secret, revoked: [] }),
    admission: createAdmission(config.admission, NO_LOOP_DELAY_SENSOR),
    outbound: createOutbound(),
    quota: createMemoryQuotaStore(policies.quota),
    issueLedger: createMemoryQuotaStore(policies.issue),
    unkeyedLedger: createMemoryQuotaStore(policies.unkeyed),
    logger: silentLogger,
    metrics: createMetrics({ tools: [] }),
    dnsCache: createDnsCache(),
    systemResolvers: [{ host: LOOPBACK, port: upstreams.dnsPort, label: OWN_RESOLVER_LABEL }],
    ipFactsCache: createIpFactsCache(),
    rdapBootstrap: null,
    rdapClient: null,
    registryCache: createRegistryCache(),
    ready: async () => ({ ok: true }),
    async close() {},
  };
}

/**
 * The worker's own ledgers asked once each, for nothing: a refund of no credits of a charge that does not
 * exist changes nothing in any store (the primary's, Redis), but takes the path a first charge takes — the
 * request to the primary and its answer, or Redis' script.
 */
function ledgerRoundTrips(services: Services): Promise<void>[] {
  return [services.quota, services.issueLedger, services.unkeyedLedger].map((ledger) =>
    ledger.refund(WARM_UP_KEY, 'no-such-charge', 0),
  );
}

function listeningOnLoopback(server: Server): Promise<Server> {
  return new Promise((ready, fail) => {
    server.once('error', fail);
    server.listen(0, LOOPBACK, () => ready(server));
  });
}

/** One request to the warm-up's server on loopback, on a connection of its own; the status it got. */
async function send(server: Server, request: Request): Promise<number> {
  const { port } = server.address() as AddressInfo;
  const body = request.body ? Buffer.from(await request.arrayBuffer()) : undefined;
  const url = new URL(request.url);
  return new Promise((answered, fail) => {
    const outgoing = httpRequest(
      {
        host: LOOPBACK,
        port,
        method: request.method,
        path: `${url.pathname}${url.search}`,
        headers: Object.fromEntries(request.headers),
        agent: false,
      },
      (response) => {
        response.resume();
        response.on('end', () => answered(response.statusCode ?? 0));
        response.on('error', fail);
      },
    );
    outgoing.on('error', fail);
    outgoing.end(body);
  });
}

/** Runs the warm-up requests, and has `app` build its documents; says how long it took and what failed. */
export async function warmUp(services: Services, app: App): Promise<WarmUpReport> {
  const started = performance.now();
  const failed: string[] = [];
  let bound: NodeJS.Timeout | undefined;
  const cutShort = new Promise<true>((resolve) => {
    bound = setTimeout(() => resolve(true), WARM_UP_BOUND_MS);
    bound.unref();
  });
  const work = (async (): Promise<false> => {
    const dataDir = mkdtempSync(join(tmpdir(), 'netdiag-warm-up-'));
    const upstreams = await startFakeUpstreams();
    const warm = createApp(warmUpServices(services, warmUpConfig(services.config, upstreams, dataDir), upstreams));
    // served as the worker serves: node:http and the fetch adapter, over a loopback connection
    const server = await listeningOnLoopback(createHttpServer(warm));
    try {
      await Promise.all([
        app.prepare(),
        ...ledgerRoundTrips(services),
        ...warmUpRequests(upstreams).map(async ({ request, status }) => {
          const answered = await send(server, request);
          const path = new URL(request.url).pathname;
          if (answered !== status) failed.push(`${request.method} ${path}: ${answered}`);
        }),
      ]);
    } finally {
      server.closeAllConnections();
      await new Promise((done) => server.close(done));
      warm.stopBackground();
      await upstreams.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
    return false;
  })().catch((e: unknown) => {
    failed.push(`the warm-up itself: ${(e as Error).message}`);
    return false as const;
  });
  try {
    const late = await Promise.race([work, cutShort]);
    return { ms: Math.round(performance.now() - started), failed, cutShort: late };
  } finally {
    clearTimeout(bound);
  }
}
