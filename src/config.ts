/**
 * The one reader of process.env and of the NETDIAG_CONFIG file (configuration.md).
 * The whole file is validated at start-up: an unknown key or a wrong type refuses
 * to start, naming the key path. The result is deeply frozen.
 */
import { availableParallelism } from 'node:os';
import { readFileSync } from 'node:fs';
import ipaddr from 'ipaddr.js';
import { z } from 'zod';

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
const positiveMs = z.number().int().min(1).max(600_000);

export const DEFAULT_PUBLIC_RESOLVERS = [
  { name: 'Google', ip: '8.8.8.8', countryCode: 'US' },
  { name: 'Cloudflare', ip: '1.1.1.1', countryCode: 'US' },
  { name: 'Quad9', ip: '9.9.9.9', countryCode: 'CH' },
  { name: 'OpenDNS', ip: '208.67.222.222', countryCode: 'US' },
  { name: 'Verisign', ip: '64.6.64.6', countryCode: 'US' },
  { name: 'AdGuard', ip: '94.140.14.14', countryCode: 'CY' },
  { name: 'AliDNS', ip: '223.5.5.5', countryCode: 'CN' },
  { name: 'Level3', ip: '4.2.2.1', countryCode: 'US' },
] as const;

/** Six DNSBLs alive in 2026 (SORBS closed in 2024 and is not shipped). */
export const DEFAULT_DNSBL_ZONES = [
  { zone: 'zen.spamhaus.org', name: 'Spamhaus ZEN' },
  { zone: 'bl.spamcop.net', name: 'SpamCop' },
  { zone: 'b.barracudacentral.org', name: 'Barracuda' },
  { zone: 'dnsbl-1.uceprotect.net', name: 'UCEPROTECT Level 1' },
  { zone: 'psbl.surriel.com', name: 'PSBL' },
  { zone: 'bl.mailspike.net', name: 'Mailspike' },
] as const;

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
        host: z.string().min(1).default('0.0.0.0'),
        port: z.number().int().min(0).max(65535).default(8080),
        trustedProxies: z.array(cidr).default([]),
        dataDir: z.string().min(1).default('.netdiag'),
        /** added key (decisions §8): bound of one REST request or GraphQL operation without composite checks */
        requestTimeoutMs: positiveMs.default(20_000),
        /** added key (decisions §8): bound of a request that runs a composite check */
        compositeTimeoutMs: positiveMs.default(30_000),
        /** added key (README "Every core"): processes serving HTTP; 0 (the default) is one per core, 1 keeps a single process */
        workers: z.number().int().min(0).max(64).default(0),
        /** added key (README "Under load"): V8 heap growth past the live heap before a full collection, in %; 0 = V8's heuristics */
        heapGrowthPercent: z.number().int().min(0).max(400).default(30),
        /** added key (README "Every core"): the workers collect garbage without V8's helper threads (more throughput, more memory) */
        singleThreadedGc: z.boolean().default(false),
      })
      .strict()
      .prefault({}),
    auth: z
      .object({
        keys: z.array(z.string().min(8, 'a static key needs at least 8 characters')).default([]),
        secret: z.string().min(16, 'the secret needs at least 16 characters').nullable().default(null),
        revoked: z.array(z.string().min(1)).default([]),
        issuePerIpPerDay: z.number().int().min(0).default(3),
        /**
         * added key (README "Developer page and free keys"): keys the developer page issues per rolling hour to
         * all clients together. The per-address limit alone lets whoever holds addresses in many networks (a
         * botnet) collect keys without end. A person needs one key, so 100 an hour leaves a busy public
         * instance ample room while capping such a collector at that, whatever its number of addresses.
         */
        issuePerHour: z.number().int().min(1).default(100),
      })
      .strict()
      .prefault({}),
    quota: z
      .object({
        credits: z.number().int().min(0).default(300),
        windowSeconds: z.number().int().min(1).default(86_400),
        costs: z
          .record(z.string().regex(/^[a-z][a-z-]*$/, 'expected a tool name'), z.number().int().min(0))
          .default({})
          .transform((c) => ({ default: 3, 'my-ip': 1, 'tls-configuration': 4, ...c })),
      })
      .strict()
      .prefault({}),
    store: z
      .object({ redisUrl: z.string().url().nullable().default(null) })
      .strict()
      .prefault({}),
    targets: z
      .object({ allow: z.array(cidr).default([]) })
      .strict()
      .prefault({}),
    dns: z
      .object({
        system: z.array(hostPort).default([]),
        timeoutMs: positiveMs.default(2000),
        publicResolvers: z
          .array(resolverEntry)
          .min(1)
          .default(() => DEFAULT_PUBLIC_RESOLVERS.map((r) => ({ ...r }))),
      })
      .strict()
      .prefault({}),
    dnsbl: z
      .object({
        zones: z
          .array(z.object({ zone: z.string().min(1), name: z.string().min(1) }).strict())
          .default(() => DEFAULT_DNSBL_ZONES.map((z) => ({ ...z }))),
      })
      .strict()
      .prefault({}),
    dkim: z
      .object({
        selectors: z
          .array(z.string().regex(/^[A-Za-z0-9_-]{1,63}(\.[A-Za-z0-9_-]{1,63})*$/, 'expected a DNS label'))
          .default(['default', 'google', 'selector1', 'selector2', 'k1', 's1', 'mail', 'dkim']),
      })
      .strict()
      .prefault({}),
    whois: z
      .object({
        server: z.string().min(1).default('whois.iana.org'),
        port: port.default(43),
        timeoutMs: positiveMs.default(8000),
      })
      .strict()
      .prefault({}),
    rdap: z
      .object({ enabled: z.boolean().default(true), bootstrapFile: z.string().min(1).nullable().default(null) })
      .strict()
      .prefault({}),
    ipInfo: z
      .object({
        source: z.enum(['embedded', 'ipinfo']).default('embedded'),
        database: z.string().min(1).nullable().default(null),
        token: z.string().min(1).nullable().default(null),
        baseUrl: z.string().url().default('https://api.ipinfo.io'),
      })
      .strict()
      .prefault({}),
    tcp: z
      .object({ connectTimeoutMs: positiveMs.default(5000) })
      .strict()
      .prefault({}),
    tls: z
      .object({ handshakeTimeoutMs: positiveMs.default(5000) })
      .strict()
      .prefault({}),
    /**
     * added section: the SMTP probe of smtp-starttls, dane and mailhealth-check. `heloName` is the name
     * sent in EHLO (RFC 5321 §4.1.1.1: the client's own domain); null sends this machine's host name.
     * `enabled` false: no SMTP session is opened (hosts whose outbound port 25 is blocked).
     */
    smtp: z
      .object({
        enabled: z.boolean().default(true),
        heloName: z
          .string()
          .regex(
            /^(?=.{1,253}$)[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?(\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/,
            'expected a host name',
          )
          .nullable()
          .default(null),
        connectTimeoutMs: positiveMs.default(5000),
        replyTimeoutMs: positiveMs.default(10_000),
        sessionTimeoutMs: positiveMs.default(20_000),
      })
      .strict()
      .prefault({}),
    ping: z
      .object({ count: z.number().int().min(1).max(20).default(4), timeoutMs: positiveMs.default(5000) })
      .strict()
      .prefault({}),
    /** added section: bounds on a GraphQL operation, checked before it runs (README "Abuse limits") */
    graphql: z
      .object({
        maxTokens: z.number().int().min(100).default(4000),
        maxAliases: z.number().int().min(0).default(15),
        maxDepth: z.number().int().min(2).default(16),
        maxDirectives: z.number().int().min(0).default(10),
      })
      .strict()
      .prefault({}),
    /**
     * added section: what one client address may ask of the surfaces that need no key (GraphQL without a
     * key, GraphiQL, the developer page, the OpenAPI document, /docs) per rolling window; 0 turns it off
     */
    unkeyed: z
      .object({
        requests: z.number().int().min(0).default(60),
        windowSeconds: z.number().int().min(1).default(60),
      })
      .strict()
      .prefault({}),
    /**
     * added section (README "Under load"): check requests running at once and waiting, per process;
     * past them a request is shed with 503 and Retry-After. `maxEventLoopDelayMs` 0 turns the event-loop
     * test off; `perKeyInFlight` bounds one key's requests in flight or waiting (429 past it).
     */
    admission: z
      .object({
        maxInFlight: z.number().int().min(1).default(32),
        maxQueued: z.number().int().min(0).default(256),
        maxQueueWaitMs: positiveMs.default(5_000),
        maxEventLoopDelayMs: z.number().int().min(0).default(100),
        perKeyInFlight: z.number().int().min(1).default(8),
        retryAfterSeconds: z.number().int().min(1).max(3600).default(2),
      })
      .strict()
      .prefault({}),
    /**
     * added section (README "Under load"): upstream questions in flight at once per process, by family;
     * past a cap a question waits its turn within its request's deadline
     */
    outbound: z
      .object({
        dns: z.number().int().min(1).default(512),
        tcp: z.number().int().min(1).default(256),
        tls: z.number().int().min(1).default(128),
        http: z.number().int().min(1).default(128),
        ping: z.number().int().min(1).default(16),
        whois: z.number().int().min(1).default(32),
        rdap: z.number().int().min(1).default(64),
        smtp: z.number().int().min(1).default(32),
      })
      .strict()
      .prefault({}),
    http: z
      .object({
        timeoutMs: positiveMs.default(10_000),
        maxRedirects: z.number().int().min(0).max(50).default(10),
        maxBodyBytes: z
          .number()
          .int()
          .min(1024)
          .max(64 * 1024 * 1024)
          .default(1_048_576),
      })
      .strict()
      .prefault({}),
    /**
     * added section (README "Operations"): /metrics is served by the primary process on a listener of its
     * own (`host`:`port`, loopback by default; `port` null serves none), never on the API port unless
     * `token` is set, and then only with `Authorization: Bearer <token>` (required on both).
     */
    metrics: z
      .object({
        host: z.string().min(1).default('127.0.0.1'),
        port: z.number().int().min(0).max(65535).nullable().default(9464),
        token: z.string().min(16, 'the metrics token needs at least 16 characters').nullable().default(null),
      })
      .strict()
      .prefault({}),
  })
  .strict();

type Parsed = z.output<typeof schema>;

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

export class ConfigError extends Error {}

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

function formatIssues(error: z.ZodError, source: string): string {
  return error.issues
    .map((i) => {
      const path = i.path.join('.');
      if (i.code === 'unrecognized_keys') {
        return i.keys.map((k) => `${source}: unknown key "${[...i.path, k].join('.')}"`).join('\n');
      }
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

/** Overlays the documented environment variables (configuration.md) onto the file's object. */
function applyEnv(raw: Record<string, any>, env: NodeJS.ProcessEnv): void {
  const section = (name: string): Record<string, unknown> => {
    const s = raw[name];
    if (s === undefined) return (raw[name] = {});
    if (s === null || typeof s !== 'object' || Array.isArray(s))
      throw new ConfigError(`config: "${name}": expected an object`);
    return s as Record<string, unknown>;
  };
  if (env.HOST) section('server').host = env.HOST;
  if (env.PORT) {
    if (!/^\d{1,5}$/.test(env.PORT))
      throw new ConfigError(`environment: PORT: expected a port number, got "${env.PORT}"`);
    section('server').port = Number(env.PORT);
  }
  if (env.NETDIAG_DATA_DIR) section('server').dataDir = env.NETDIAG_DATA_DIR;
  if (env.NETDIAG_API_KEYS) {
    const keys = env.NETDIAG_API_KEYS.split(',')
      .map((k) => k.trim())
      .filter(Boolean);
    const auth = section('auth');
    auth.keys = [...(Array.isArray(auth.keys) ? auth.keys : []), ...keys];
  }
  if (env.NETDIAG_SECRET) section('auth').secret = env.NETDIAG_SECRET;
  if (env.REDIS_URL) section('store').redisUrl = env.REDIS_URL;
  if (env.IPINFO_TOKEN) section('ipInfo').token = env.IPINFO_TOKEN;
}

/** Builds a Config from a plain object (tests) or the parsed file. Throws ConfigError naming every bad key path. */
export function buildConfig(raw: unknown, env: NodeJS.ProcessEnv = {}, source = 'config'): Config {
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw))
    throw new ConfigError(`${source}: expected a JSON object`);
  const copy = structuredClone(raw) as Record<string, any>;
  applyEnv(copy, env);
  const result = schema.safeParse(copy);
  if (!result.success) throw new ConfigError(formatIssues(result.error, source));
  const p = result.data;
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
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
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
  return buildConfig(raw, env, file ?? 'config');
}

/** `server.workers`, with 0 meaning one per core. */
export function workerCount(config: Config): number {
  return config.server.workers === 0 ? availableParallelism() : config.server.workers;
}
