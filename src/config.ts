/**
 * The one reader of process.env and of the NETDIAG_CONFIG file (configuration.md).
 * The whole file is validated at start-up: an unknown key or a wrong type refuses
 * to start, naming the key path. The result is deeply frozen.
 */
import { availableParallelism } from 'node:os';
import { readFileSync } from 'node:fs';
import ipaddr from 'ipaddr.js';
import { z } from 'zod';
import { ConfigError } from './config/config-error.js';
import { DEFAULT_DNSBL_ZONES } from './config/dnsbl-zones.js';
import { DEFAULT_DNSSEC_TRUST_ANCHORS, DEFAULT_ROOT_SERVERS } from './config/dns-root.js';
import { applyEnvironment, type EnvironmentSource, variableOf } from './config/environment.js';
import { DEFAULT_PUBLIC_RESOLVERS } from './config/public-resolvers.js';
import { withoutRemovedKeys } from './config/removed-keys.js';

export { ConfigError };

const cidr = z.string().refine(
  (s) => {
    try {
      if (s.includes('/')) ipaddr.parseCIDR(s);
      else ipaddr.parse(s);
      return true;
    } catch {
      return false;
    }
  },
  { message: 'expected a CIDR such as "10.0.0.0/8" or an IP address' },
);

/** "host", "host:port", "[v6]:port" or a bare IPv6 address. */
const hostPort = z
  .string()
  .min(1)
  .refine((s) => parseHostPort(s, 53) !== null, {
    message: 'expected "host", "host:port" or "[IPv6]:port"',
  });

const port = z.number().int().min(1).max(65535);

/** The metrics listener's default port. */
export const DEFAULT_METRICS_PORT = 9464;
const positiveMs = z.number().int().min(1).max(600_000);

/** A DS record in presentation format with its owner: "<owner> [TTL] [IN] DS <tag> <algorithm> <digest type> <hex>". */
const dsRecordText = z
  .string()
  .regex(
    /^\S+\s+(?:\d+\s+)?(?:IN\s+)?DS\s+\d{1,5}\s+\d{1,3}\s+\d{1,3}\s+[0-9A-Fa-f\s]+$/,
    'expected a DS record, e.g. ". IN DS 20326 8 2 E06D…"',
  );

const resolverEntry = z
  .object({
    name: z.string().min(1),
    ip: z.string().refine((s) => ipaddr.isValid(s), { message: 'expected an IP address' }),
    countryCode: z.string().regex(/^[A-Z]{2}$/, 'expected two upper-case letters'),
    address: hostPort.optional(),
  })
  .strict();

const schema = z
  .object({
    server: z
      .object({
        host: z.string().min(1).default('0.0.0.0').meta({ description: 'listen address', env: 'HOST' }),
        port: z
          .number()
          .int()
          .min(0)
          .max(65535)
          .default(8080)
          .meta({ description: 'listen port (`0` = any free port)', env: 'PORT' }),
        trustedProxies: z
          .array(cidr)
          .default([])
          .describe(
            'CIDRs of our own front-end proxies; only a peer in this list may set `X-Forwarded-For` (my-ip reads the address the proxy appended, skipping further trusted hops from the right)',
          ),
        dataDir: z.string().min(1).default('.netdiag').meta({
          description:
            "where the generated secret lives (`secret`, mode 0600), and the bundled IP data file built from the packages at the first start (`ip-data-<hash>.bin`, about 19 MB; rebuilt when the packages change; under the system's temporary directory when `dataDir` cannot be written)",
          env: 'NETDIAG_DATA_DIR',
        }),
        requestTimeoutMs: positiveMs
          .default(20_000)
          .describe(
            'bound of one REST request (decisions §8), past which it is a 504; also the bound of one DNS question shared by the requests asking it',
          ),
        compositeTimeoutMs: positiveMs
          .default(30_000)
          .describe("bound of a composite check's REST request and of every GraphQL operation"),
        workers: z
          .number()
          .int()
          .min(0)
          .max(64)
          .default(0)
          .describe(
            'worker processes serving HTTP behind the primary process (which owns the port and answers liveness, whatever the count); `0` = one per core (see [Every core](operations.md#every-core))',
          ),
        role: z.enum(['both', 'api', 'jobs']).default('both').meta({
          description:
            'what this instance runs: `both` the API and the job items and monitor runs (in a job worker process of their own), `api` the API only, `jobs` the job items and monitor runs only (no API port); `api` and `jobs` need `store.redisUrl`, where every instance shares one queue ([Where items run](jobs.md#where-items-run), [Where monitors run](monitors.md#where-monitors-run))',
          env: 'NETDIAG_ROLE',
        }),
      })
      .strict()
      .prefault({})
      .describe('The HTTP listener, the bounds of a request, and the processes behind the port.'),
    auth: z
      .object({
        keys: z.array(z.string().min(8, 'a static key needs at least 8 characters')).default([]).meta({
          description:
            "static keys, always valid (at least 8 characters); `NETDIAG_API_KEYS` is comma-separated and adds to the file's keys",
          env: 'NETDIAG_API_KEYS',
        }),
        secret: z.string().min(16, 'the secret needs at least 16 characters').nullable().default(null).meta({
          description:
            "signs issued keys and the developer page's form tokens (at least 16 characters); all instances of one deployment share it; `null` = generated once into `server.dataDir`",
          env: 'NETDIAG_SECRET',
        }),
        revoked: z.array(z.string().min(1)).default([]).describe('keys that are no longer valid'),
        issuePerIpPerDay: z
          .number()
          .int()
          .min(0)
          .default(3)
          .describe(
            'developer page: keys one client address (IPv6: one /48) may obtain per rolling 24 h; `0` turns the form off',
          ),
        issuePerHour: z
          .number()
          .int()
          .min(1)
          .default(100)
          .describe(
            'keys the developer page issues per rolling hour to all clients together. A person needs one key, so even a busy public instance issues far fewer; the per-address limit alone lets whoever holds addresses in many networks (a botnet) collect keys without end, and this caps them at `issuePerHour` × `quota.credits` credits an hour',
          ),
      })
      .strict()
      .prefault({})
      .describe(
        "API keys: static ones, the developer page's issued ones, and revoked ones ([Keys and credits](keys-and-limits.md#keys-and-credits)).",
      ),
    quota: z
      .object({
        credits: z.number().int().min(0).default(300).describe('credits per key per window'),
        windowSeconds: z
          .number()
          .int()
          .min(1)
          .default(86_400)
          .describe('the rolling window, in seconds; each charge expires exactly one window after it was made'),
        costs: z
          .record(z.string().regex(/^[a-z][a-z-]*$/, 'expected a tool name'), z.number().int().min(0))
          .default({})
          // each check's own default price is in its declaration (src/graphql/check-declaration.ts `price`)
          .transform((c) => ({ default: 3, ...c }))
          .describe(
            "cost per REST tool name, over each tool's default price (the tools table of the README); `default` prices every tool that has none",
          ),
      })
      .strict()
      .prefault({})
      .describe('Credits (decisions §1): every key has `credits` per rolling window; each check costs its price.'),
    store: z
      .object({
        redisUrl: z.string().url().nullable().default(null).meta({
          description:
            'Redis (`redis://` or `rediss://`) holding the credit ledger, the key-issuance limits and spent form tokens, the budget of requests without a key, and the WHOIS/RDAP cache, shared by several instances; `null` = in the primary process, for its workers',
          env: 'REDIS_URL',
        }),
      })
      .strict()
      .prefault({})
      .describe('State shared by the workers and the instances of one deployment.'),
    targets: z
      .object({
        allow: z
          .array(cidr)
          .default([])
          .describe('CIDRs exempt from the private/internal-address refusal (intranets, test labs)'),
      })
      .strict()
      .prefault({})
      .describe('The target guard (decisions §7): what the checks may connect to.'),
    dns: z
      .object({
        system: z
          .array(hostPort)
          .default([])
          .describe(
            '`host`, `host:port` or `[v6]:port` resolvers for the "system" resolver; empty = the OS resolver configuration',
          ),
        timeoutMs: positiveMs.default(2000).describe('bound of one DNS question, a retry included'),
        publicResolvers: z
          .array(resolverEntry)
          .min(1)
          .default(() => DEFAULT_PUBLIC_RESOLVERS.map((r) => ({ ...r })))
          .describe(
            '`{ name, ip, countryCode, address? }`: the `resolver` choices of dns-lookup and the resolvers dns-propagation asks (default: the eight of api-v1.md); `ip` is what the API accepts and reports, `address` (default `<ip>:53`) is where queries really go',
          ),
      })
      .strict()
      .prefault({})
      .describe('The DNS client.'),
    dnssec: z
      .object({
        trustAnchors: z
          .array(dsRecordText)
          .min(1)
          // dnssec-chain starts from one zone: every anchor names the same owner
          .refine(
            (anchors) =>
              new Set(anchors.map((a) => a.trim().split(/\s+/)[0]!.toLowerCase().replace(/\.?$/, '.'))).size === 1,
            {
              message: 'every trust anchor must be for the same zone',
            },
          )
          .default(() => [...DEFAULT_DNSSEC_TRUST_ANCHORS])
          .describe(
            'DS records in presentation format with their owner (`<owner> [TTL] [IN] DS <tag> <algorithm> <digest type> <hex>`) that dnssec-chain validates from, all for one zone; default: the IANA root zone KSKs (KSK-2017 and KSK-2024)',
          ),
        source: z
          .enum(['resolver', 'authoritative'])
          .default('resolver')
          .describe(
            "`resolver`: the system resolver, asked with DO and CD; `authoritative`: the zones' own servers, walked from the root",
          ),
        rootServers: z
          .array(hostPort)
          .min(1)
          .default(() => [...DEFAULT_ROOT_SERVERS])
          .describe(
            "where the authoritative walk starts (`host` or `host:port`): a root served next to the resolver (RFC 8806) or a network's own mirror of it; default: the root servers' IPv4 addresses (a to m)",
          ),
      })
      .strict()
      .prefault({})
      .describe("dnssec-chain's trust anchors and where it asks ([dnssec-chain.md](contract/dnssec-chain.md))."),
    dnsbl: z
      .object({
        zones: z
          .array(z.object({ zone: z.string().min(1), name: z.string().min(1) }).strict())
          .default(() => DEFAULT_DNSBL_ZONES.map((z) => ({ ...z })))
          .describe(
            '`{ zone, name }` DNS block lists asked by dns-blacklist-checker and mailhealth-check; default: six lists alive in 2026 (SORBS closed in 2024 and is not shipped)',
          ),
      })
      .strict()
      .prefault({})
      .describe('DNS block lists.'),
    dkim: z
      .object({
        selectors: z
          .array(z.string().regex(/^[A-Za-z0-9_-]{1,63}(\.[A-Za-z0-9_-]{1,63})*$/, 'expected a DNS label'))
          .default(['default', 'google', 'selector1', 'selector2', 'k1', 's1', 'mail', 'dkim'])
          .describe(
            'selectors mailhealth-check probes, besides those of the providers it recognises from the MX hosts and SPF includes',
          ),
      })
      .strict()
      .prefault({})
      .describe('DKIM selectors.'),
    whois: z
      .object({
        server: z.string().min(1).default('whois.iana.org').describe('root of the referral chain'),
        port: port.default(43).describe('port of every WHOIS server, root and referred'),
        timeoutMs: positiveMs.default(8000).describe('bound of each WHOIS hop'),
      })
      .strict()
      .prefault({})
      .describe('WHOIS (registration data where RDAP has no service).'),
    rdap: z
      .object({
        enabled: z
          .boolean()
          .default(true)
          .describe('RDAP first where the IANA bootstrap names a service for the registry; `false` = WHOIS only'),
        bootstrapFile: z
          .string()
          .min(1)
          .nullable()
          .default(null)
          .describe('an IANA-format `dns.json`; `null` = the bundled copy (`data/rdap-dns.json`)'),
      })
      .strict()
      .prefault({})
      .describe('RDAP (registration data).'),
    ipInfo: z
      .object({
        source: z
          .enum(['embedded', 'ipinfo'])
          .default('embedded')
          .describe(
            '`embedded` (the bundled database) or `ipinfo` (the IPinfo Lite API; a failure falls back to the database)',
          ),
        database: z
          .string()
          .min(1)
          .nullable()
          .default(null)
          .describe('an operator-supplied IPinfo Lite MMDB replacing the bundled data'),
        token: z.string().min(1).nullable().default(null).meta({ description: 'IPinfo token', env: 'IPINFO_TOKEN' }),
        baseUrl: z.string().url().default('https://api.ipinfo.io').describe('IPinfo API base'),
      })
      .strict()
      .prefault({})
      .describe('IP data: AS, AS name, country (ip-info, asn-lookup, what-is-my-ip, website-health-check).'),
    tcp: z
      .object({
        connectTimeoutMs: positiveMs
          .default(5000)
          .describe("bound of one TCP connect (port-checker's wait before `filtered`, the TLS checks)"),
      })
      .strict()
      .prefault({})
      .describe('TCP connects.'),
    tls: z
      .object({
        handshakeTimeoutMs: positiveMs.default(5000).describe('bound of one TLS handshake once connected'),
        ratingHandshakes: z
          .number()
          .int()
          .min(1)
          .max(1000)
          .default(200)
          .describe(
            "handshakes one tls-rating may make ([grades.md](contract/grades.md) bounds); never more than the request's budget of 10 connections to targets per credit leaves",
          ),
        ratingConcurrency: z
          .number()
          .int()
          .min(1)
          .max(64)
          .default(8)
          .describe('handshakes one tls-rating makes at once'),
      })
      .strict()
      .prefault({})
      .describe('TLS handshakes.'),
    smtp: z
      .object({
        enabled: z
          .boolean()
          .default(true)
          .describe(
            '`false` opens no SMTP session — for hosts whose outbound port 25 is blocked (most clouds by default), where every session would wait the connect bound: smtp-starttls answers 503, dane reports the records without matching them, mailhealth-check\'s starttls part is `info` "not tested"',
          ),
        heloName: z
          .string()
          .regex(
            /^(?=.{1,253}$)[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/,
            'expected a host name',
          )
          .nullable()
          .default(null)
          .describe(
            "the name sent in `EHLO` by smtp-starttls, dane and mailhealth-check (RFC 5321 §4.1.1.1: the client's own host name); `null` sends this machine's host name. Receivers check it against the reverse DNS of the address you send from, so set it to that name",
          ),
        replyTimeoutMs: positiveMs.default(10_000).describe('bound of each SMTP reply'),
        sessionTimeoutMs: positiveMs
          .default(20_000)
          .describe('bound of the whole SMTP session (greeting to handshake)'),
      })
      .strict()
      .prefault({})
      .describe('The SMTP probe of smtp-starttls, dane and mailhealth-check.'),
    ping: z
      .object({
        count: z.number().int().min(1).max(20).default(4).describe('echo requests per ping'),
        timeoutMs: positiveMs.default(5000).describe('ping deadline'),
      })
      .strict()
      .prefault({})
      .describe('ping (iputils).'),
    graphql: z
      .object({
        maxTokens: z.number().int().min(100).default(4000).describe('tokens of a GraphQL document'),
        maxAliases: z.number().int().min(0).default(15).describe('aliases in one operation, fragments included'),
        maxDepth: z
          .number()
          .int()
          .min(2)
          .default(16)
          .describe(
            "field depth of one operation (fragments flattened, introspection counted; GraphiQL's schema query fits)",
          ),
      })
      .strict()
      .prefault({})
      .describe(
        'Bounds on a GraphQL operation, checked before it runs ([Abuse limits](keys-and-limits.md#abuse-limits)); a refusal is a 400 `INVALID_OPERATION`.',
      ),
    unkeyed: z
      .object({
        requests: z
          .number()
          .int()
          .min(0)
          .default(60)
          .describe(
            'requests one client address (IPv4, or IPv6 /64) may make per window to the surfaces that need no key; `0` = off',
          ),
        windowSeconds: z.number().int().min(1).default(60).describe('that rolling window, in seconds'),
      })
      .strict()
      .prefault({})
      .describe(
        'What one client address may ask of the surfaces that need no key (GraphQL without a key, GraphiQL, the developer page, `POST /keys`, the OpenAPI document, `/docs`) per rolling window ([Abuse limits](keys-and-limits.md#abuse-limits)).',
      ),
    admission: z
      .object({
        maxInFlight: z
          .number()
          .int()
          .min(1)
          .default(32)
          .describe('check requests (REST tools and GraphQL operations) running at once per process'),
        maxQueued: z
          .number()
          .int()
          .min(0)
          .default(256)
          .describe(
            'check requests waiting for a slot, first come first served; a request that would wait longer than 2 s (the rate slots free up, measured) is shed at once instead',
          ),
        perKeyInFlight: z
          .number()
          .int()
          .min(1)
          .default(8)
          .describe(
            'requests one key may have running or waiting; past it 429 (a concurrency limit, not the allowance)',
          ),
      })
      .strict()
      .prefault({})
      .describe(
        'Check requests running at once and waiting, per process; past them a request is shed with 503 and `Retry-After` ([Under load](operations.md#under-load)).',
      ),
    jobs: z
      .object({
        concurrency: z
          .number()
          .int()
          .min(1)
          .max(1024)
          .default(8)
          .describe(
            "job items running at once per process, a budget of their own that never takes interactive requests' slots ([Jobs](jobs.md))",
          ),
        maxTargets: z.number().int().min(1).max(100_000).default(10_000).describe('targets one job may have'),
        maxActivePerKey: z
          .number()
          .int()
          .min(1)
          .default(3)
          .describe('queued or running jobs one key may have; one more is a 429'),
        retentionHours: z
          .number()
          .min(1)
          .max(24 * 365)
          .default(72)
          .describe('how long a job and its results are kept after it ends (then deleted from the store)'),
        staleAfterMs: positiveMs
          .default(30_000)
          .describe(
            "with `store.redisUrl`: an item (or a monitor's run) whose instance has not renewed its lock for this long (the instance died) is taken again by another, once",
          ),
        callbackBackoffMs: positiveMs
          .default(2_000)
          .describe("wait before a job callback's second try; the third waits four times as long (3 tries in all)"),
        maxStreamsPerKey: z
          .number()
          .int()
          .min(1)
          .default(10)
          .describe(
            'event streams (GET /api/v1/jobs/{id}/events) one key may hold open per process; one more is a 429',
          ),
      })
      .strict()
      .prefault({})
      .describe(
        'Jobs: one check over many targets, run in the background and kept in `server.dataDir`, or in Redis with `store.redisUrl` ([Jobs](jobs.md), [contract](contract/jobs.md)).',
      ),
    monitors: z
      .object({
        minInterval: z
          .string()
          .regex(/^[1-9][0-9]{0,5}[smhd]$/, 'a duration such as 30s, 15m, 6h or 1d')
          .default('15m')
          .describe(
            "the shortest `every` a monitor may have, as a duration (`30s`, `15m`, `6h`, `1d`); each run is charged as a job of the same items, so this bounds a key's spending rate",
          ),
        maxTargets: z.number().int().min(1).max(100_000).default(1000).describe('targets one monitor may have'),
        keepRuns: z
          .number()
          .int()
          .min(1)
          .max(10_000)
          .default(100)
          .describe(
            'runs kept per target × check of a monitor (its history); older ones are deleted as new ones arrive',
          ),
        keepEventsDays: z
          .number()
          .min(1)
          .max(3650)
          .default(90)
          .describe("days a monitor's events are kept (GET …/events, SSE resume)"),
        maxPerKey: z.number().int().min(1).default(20).describe('monitors one key may have; one more is a 429'),
        maxPairsPerKey: z
          .number()
          .int()
          .min(1)
          .default(5000)
          .describe("target × check pairs over all of one key's monitors; a monitor that would pass it is a 429"),
      })
      .strict()
      .prefault({})
      .describe(
        'Monitors: checks run over targets on a schedule, their history and the events their changes make ([Monitors](monitors.md), [contract](contract/monitors.md)).',
      ),
    http: z
      .object({
        timeoutMs: positiveMs.default(10_000).describe('bound of one HTTP fetch (all hops)'),
        maxRedirects: z.number().int().min(0).max(50).default(10).describe('redirect hops followed'),
        maxBodyBytes: z
          .number()
          .int()
          .min(1024)
          .max(64 * 1024 * 1024)
          .default(1_048_576)
          .describe('bytes of a body read at most'),
        hstsPreloadList: z
          .string()
          .min(1)
          .nullable()
          .default(null)
          .describe(
            "http-rating: path of Chromium's HSTS preload list (`transport_security_state_static.json`), read on first use; `null`: no host counts as preloaded ([grades.md](contract/grades.md))",
          ),
      })
      .strict()
      .prefault({})
      .describe(
        'The HTTP fetcher (http-headers, open-graph-checker, website-health-check, MTA-STS policies, BIMI logos).',
      ),
    metrics: z
      .object({
        host: z
          .string()
          .min(1)
          .default('127.0.0.1')
          .describe('address of the metrics listener; keep it on loopback or a private network'),
        port: z.number().int().min(0).max(65535).nullable().default(DEFAULT_METRICS_PORT).meta({
          description:
            'port of the metrics listener; `0` = any free port (logged as `metrics_listening`), `null` = no metrics listener. When the default port is taken (another instance on this host), the listener takes a free port instead and says so; any other port that is taken stops the start',
          env: 'METRICS_PORT',
        }),
        token: z
          .string()
          .min(16, 'the metrics token needs at least 16 characters')
          .nullable()
          .default(null)
          .describe(
            'a bearer token (at least 16 characters) for `/metrics`: when set, both the metrics listener and the API port answer `/metrics` to `Authorization: Bearer <token>` only; `null` = no token, and no `/metrics` on the API port (404)',
          ),
      })
      .strict()
      .prefault({})
      .describe(
        '`/metrics`: served by the primary process on a listener of its own, never on the API port unless `token` is set ([Metrics](operations.md#metrics)).',
      ),
    web: z
      .object({
        publicReports: z
          .boolean()
          .default(false)
          .describe(
            "the report page's operation runs without an API key, charged its credits' worth against the caller's address in the budget of `unkeyed`; `false`: a report needs a key ([Report](report.md))",
          ),
      })
      .strict()
      .prefault({})
      .describe('The pages people read ([Report](report.md)).'),
  })
  .strict();

type Parsed = z.output<typeof schema>;

/**
 * The configuration's schema: every key's type, default and description (`.describe()`/`.meta()`, with
 * `env` naming the environment variable that sets it). docs/configuration.md is generated from it
 * (`npm run docs`).
 */
export const configSchema = schema;

export interface PublicResolver {
  readonly name: string;
  readonly ip: string;
  readonly countryCode: string;
  /** where queries are really sent */
  readonly address: HostPort;
}

export interface HostPort {
  readonly host: string;
  readonly port: number;
}

export type Config = DeepReadonly<
  Omit<Parsed, 'dns'> & {
    dns: Omit<Parsed['dns'], 'system' | 'publicResolvers'> & {
      /** empty = the operating system's resolver configuration */
      system: HostPort[];
      publicResolvers: PublicResolver[];
    };
  }
>;

type DeepReadonly<T> = T extends (infer U)[]
  ? readonly DeepReadonly<U>[]
  : T extends object
    ? { readonly [K in keyof T]: DeepReadonly<T[K]> }
    : T;

/** Parses "host", "host:port", "[v6]:port" or a bare IPv6 address; null when malformed. */
export function parseHostPort(s: string, defaultPort: number): HostPort | null {
  const bracketed = /^\[([^\]]+)\](?::(\d{1,5}))?$/.exec(s);
  if (bracketed) {
    const p = bracketed[2] === undefined ? defaultPort : Number(bracketed[2]);
    return ipaddr.IPv6.isValid(bracketed[1]!) && p >= 1 && p <= 65535 ? { host: bracketed[1]!, port: p } : null;
  }
  if (ipaddr.IPv6.isValid(s)) return { host: s, port: defaultPort };
  const m = /^([A-Za-z0-9.-]+)(?::(\d{1,5}))?$/.exec(s);
  if (!m) return null;
  const p = m[2] === undefined ? defaultPort : Number(m[2]);
  return p >= 1 && p <= 65535 ? { host: m[1]!, port: p } : null;
}

/** The issues of a refused configuration, one a line, each naming the file's key or the variable that set it. */
function formatIssues(
  error: z.ZodError,
  source: string,
  fromEnvironment: ReadonlyMap<string, EnvironmentSource>,
): string {
  return error.issues
    .map((i) => {
      const path = i.path.join('.');
      if (i.code === 'unrecognized_keys') {
        return i.keys.map((k) => `${source}: unknown key "${[...i.path, k].join('.')}"`).join('\n');
      }
      const variable = variableOf(i.path, fromEnvironment);
      if (variable !== null) return `environment: ${variable} (sets "${path}"): ${i.message}`;
      return `${source}: "${path || '(root)'}": ${i.message}`;
    })
    .join('\n');
}

function deepFreeze<T>(o: T): T {
  if (o && typeof o === 'object') {
    for (const v of Object.values(o)) deepFreeze(v);
    Object.freeze(o);
  }
  return o;
}

/** Builds a Config from a plain object (tests) or the parsed file. Throws ConfigError naming every bad key path. */
export function buildConfig(
  raw: unknown,
  env: NodeJS.ProcessEnv = {},
  source = 'config',
  warn: (message: string) => void = () => {},
): Config {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw))
    throw new ConfigError(`${source}: expected a JSON object`);
  const copy = structuredClone(raw) as Record<string, any>;
  for (const warning of withoutRemovedKeys(copy, source)) warn(warning);
  const fromEnvironment = applyEnvironment(copy, env);
  const result = schema.safeParse(copy);
  if (!result.success) throw new ConfigError(formatIssues(result.error, source, fromEnvironment));
  const p = result.data;
  // One instance without Redis runs its own jobs: a role of one kind needs the queue other instances share.
  if (p.server.role !== 'both' && p.store.redisUrl === null) {
    const from = fromEnvironment.get('server.role');
    throw new ConfigError(
      `${from ? `environment: ${from.variable}` : `${source}: "server.role"`}: "${p.server.role}" needs store.redisUrl (instances share the job queue there); without Redis an instance runs both`,
    );
  }
  const config = {
    ...p,
    dns: {
      ...p.dns,
      system: p.dns.system.map((s) => parseHostPort(s, 53)!),
      publicResolvers: p.dns.publicResolvers.map((r) => ({
        name: r.name,
        ip: r.ip,
        countryCode: r.countryCode,
        address: parseHostPort(r.address ?? r.ip, 53)!,
      })),
    },
  };
  return deepFreeze(config) as Config;
}

/** Reads NETDIAG_CONFIG (if set) and the environment. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, warn?: (message: string) => void): Config {
  const file = env.NETDIAG_CONFIG;
  let raw: unknown = {};
  if (file) {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (e) {
      throw new ConfigError(`${file}: cannot read the config file named by NETDIAG_CONFIG (${(e as Error).message})`);
    }
    try {
      raw = JSON.parse(text);
    } catch (e) {
      throw new ConfigError(`${file}: not valid JSON (${(e as Error).message})`);
    }
  }
  return buildConfig(raw, env, file ?? 'config', warn);
}

/** `server.workers`, with 0 meaning one per core. */
export function workerCount(config: Config): number {
  return config.server.workers === 0 ? availableParallelism() : config.server.workers;
}
