/**
 * Does a shared Redis cache pay? (issue 7, "measure before choosing"). Compares, on loopback:
 * - an in-process LRU hit (what every instance already has),
 * - a Redis GET + JSON.parse of values shaped like each cache's entries (IP facts, a DNS answer,
 *   a WHOIS/RDAP result with its raw text), one at a time and 50 at once,
 * - the upstream work a hit saves: a DNS question to a loopback lab, a bundled IP-data lookup.
 * Real-world upstream times (a DNS answer, a WHOIS hop over the internet) cannot be measured offline;
 * they are quoted in the report beside these figures. Run: `npx tsx bench/redis-cache-cost.ts` (needs redis-server).
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { LRUCache } from 'lru-cache';
import { silentLogger } from '../src/log.js';
import { createDnsClient } from '../src/probes/dns/client.js';
import { connectRedis } from '../src/platform/redis.js';
import { createSharedCache, SHARED_CACHE_KEY_PREFIX } from '../src/platform/shared-cache.js';
import { createIpDataSource } from '../src/probes/ipdata/source.js';
import { rr, startDnsLab } from '../test/lab/dns-server.js';
import { startRedisLab } from '../test/lab/redis.js';

const ROUNDS = 2000;

function percentile(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(s.length * p))]!;
}

function report(name: string, samplesMs: number[]): void {
  const us = (ms: number) => `${(ms * 1000).toFixed(1)} µs`;
  console.log(
    `${name.padEnd(48)} p50 ${us(percentile(samplesMs, 0.5)).padStart(10)}  p99 ${us(percentile(samplesMs, 0.99)).padStart(10)}`,
  );
}

async function timeEach(rounds: number, step: (i: number) => Promise<unknown> | unknown): Promise<number[]> {
  const samples: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const t0 = performance.now();
    await step(i);
    samples.push(performance.now() - t0);
  }
  return samples;
}

const ipFacts = {
  ip: '93.184.216.34',
  version: 'IPv4',
  asn: 'AS15133',
  asName: 'EDGECAST',
  asDomain: null,
  countryCode: 'US',
  country: 'United States',
  continentCode: 'NA',
  continent: 'North America',
  source: 'bundled',
  liveError: null,
};
const dnsAnswer = {
  rcode: 'NOERROR',
  authoritative: false,
  authenticData: false,
  recursionAvailable: true,
  truncated: false,
  answers: Array.from({ length: 4 }, (_, i) => ({
    name: 'example.com',
    type: 'MX',
    class: 'IN',
    ttl: 300,
    data: { preference: 10 * i, exchange: `mx${i}.example.com` },
  })),
  authority: [],
  server: '127.0.0.1:53',
  elapsedMs: 12.3,
  transport: 'udp',
};
const whoisText =
  'Registrar WHOIS Server: whois.example-registrar.test\r\nRemarks: the quick brown fox jumps over the lazy dog\r\n';
const registryResult = (rawBytes: number) => ({
  domain: 'example.com',
  matchedDomain: 'example.com',
  source: 'WHOIS',
  notFound: false,
  registrar: 'Example Registrar, Inc.',
  creationDate: '1995-08-14T04:00:00Z',
  expiryDate: '2027-08-13T04:00:00Z',
  updatedDate: '2026-08-14T07:01:34Z',
  nameServers: ['a.iana-servers.net', 'b.iana-servers.net'],
  abuseEmail: 'abuse@example.test',
  abusePhone: '+1.5555551234',
  message: null,
  raw: whoisText.repeat(Math.ceil(rawBytes / whoisText.length)).slice(0, rawBytes),
  servers: ['whois.iana.org', 'whois.verisign-grs.com'],
});

async function main(): Promise<void> {
  const lab = await startRedisLab();
  const redis = new Redis(lab.url, { enableOfflineQueue: true, maxRetriesPerRequest: 1 });
  const values: Array<[string, object]> = [
    ['IP facts', ipFacts],
    ['DNS answer (4 MX)', dnsAnswer],
    ['WHOIS/RDAP result, raw 4 KiB', registryResult(4096)],
    ['WHOIS/RDAP result, raw 32 KiB', registryResult(32_768)],
  ];
  console.log(
    `# Redis ${(await redis.info('server')).match(/redis_version:(\S+)/)?.[1]} on 127.0.0.1, ioredis, Node ${process.version}, ${ROUNDS} rounds`,
  );
  console.log('\n## hit cost (value → caller object)');
  for (const [name, value] of values) {
    const json = JSON.stringify(value);
    const lru = new LRUCache<string, object>({ max: 1000 });
    lru.set('k', value);
    report(`in-process LRU get: ${name}`, await timeEach(ROUNDS, () => lru.get('k')));
    await redis.set(`bench:${name}`, json);
    for (let i = 0; i < 200; i++) JSON.parse((await redis.get(`bench:${name}`))!); // warm up
    report(
      `Redis GET + parse: ${name} (${json.length} B)`,
      await timeEach(ROUNDS, async () => JSON.parse((await redis.get(`bench:${name}`))!)),
    );
    report(`Redis SET PX: ${name}`, await timeEach(ROUNDS, () => redis.set(`bench:${name}`, json, 'PX', 60_000)));
  }

  console.log(
    '\n## the shared cache (src/platform/shared-cache.ts) on a local miss: GET + PTTL in one round trip + parse',
  );
  const connection = await connectRedis(lab.url, { logger: silentLogger });
  const cache = createSharedCache<object>(connection, {
    namespace: 'bench:v1',
    maxEntries: ROUNDS * 2,
    maxBytes: 512 * 1024 * 1024,
  });
  const whois = JSON.stringify(registryResult(4096));
  for (let i = 0; i < ROUNDS; i++)
    await redis.set(`${SHARED_CACHE_KEY_PREFIX}bench:v1:d${i}.test`, whois, 'PX', 600_000);
  report('shared cache, Redis tier: WHOIS/RDAP result 4 KiB', await timeEach(ROUNDS, (i) => cache.get(`d${i}.test`)));
  report('shared cache, local tier (same keys again)', await timeEach(ROUNDS, (i) => cache.get(`d${i}.test`)));
  await connection.close();

  console.log('\n## Redis GET + parse, 50 concurrent (per-GET latency as each caller sees it)');
  for (const [name] of values) {
    const samples: number[] = [];
    for (let r = 0; r < ROUNDS / 50; r++) {
      await Promise.all(
        Array.from({ length: 50 }, async () => {
          const t0 = performance.now();
          JSON.parse((await redis.get(`bench:${name}`))!);
          samples.push(performance.now() - t0);
        }),
      );
    }
    report(`${name}`, samples);
  }

  console.log('\n## what a hit saves, measured on loopback');
  const dnsLab = await startDnsLab({
    authoritative: false,
    records: [rr.mx('example.test', 10, 'mx.example.test'), rr.a('example.test', '192.0.2.1')],
  });
  const dns = createDnsClient({ timeoutMs: 2000 });
  for (let i = 0; i < 100; i++) await dns.query({ name: 'example.test', type: 'MX', server: dnsLab.address });
  report(
    'DNS question to a loopback lab (UDP)',
    await timeEach(ROUNDS, () => dns.query({ name: 'example.test', type: 'MX', server: dnsLab.address })),
  );
  await dnsLab.close();
  const ipData = createIpDataSource({
    source: 'embedded',
    database: null,
    dataDir: join(tmpdir(), 'netdiag-bench-ip-data'),
    token: null,
    baseUrl: 'http://127.0.0.1:9',
    timeoutMs: 1000,
  });
  await ipData.warm();
  const ips = Array.from(
    { length: ROUNDS },
    (_, i) => `${1 + (i % 200)}.${(i * 7) % 256}.${(i * 13) % 256}.${1 + (i % 250)}`,
  );
  report('bundled IP data lookup (ASN + country)', await timeEach(ROUNDS, (i) => ipData.lookup(ips[i]!)));

  redis.disconnect();
  await lab.close();
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
