/**
 * dns-propagation fan-out benchmark (issue 3), loopback only: eight lab resolvers, one of which never
 * answers, plus a lab authoritative server. Every resolver is asked in parallel and each question is
 * bounded by its own `dns.timeoutMs`, so the check should take about one time-out, not more (and
 * certainly not one per resolver).
 */
import { createCheckContext } from '../src/loaders/context.js';
import { runDnsPropagation } from '../src/checks/dns/dns-propagation/run.js';
import { buildConfig } from '../src/config.js';
import { createServices } from '../src/create-services.js';
import { silentLogger } from '../src/log.js';
import { rr, startDnsLab, type DnsLab } from '../test/lab/dns-server.js';

const TIMEOUT_MS = 1000;
const RUNS = 5;
const RESOLVERS = 8;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

export async function benchPropagation(): Promise<void> {
  const answer = [rr.a('bench.test', '192.0.2.1'), rr.a('bench.test', '192.0.2.2')];
  const system = await startDnsLab({
    authoritative: false,
    records: [rr.soa('bench.test'), rr.ns('bench.test', 'ns1.bench.test'), rr.a('ns1.bench.test', '127.0.0.1')],
  });
  const authoritative = await startDnsLab({ records: [rr.soa('bench.test'), ...answer] });
  const resolvers: DnsLab[] = [];
  for (let i = 0; i < RESOLVERS; i++) resolvers.push(await startDnsLab({ authoritative: false, records: answer }));
  resolvers[RESOLVERS - 1]!.setBehaviour('*', { drop: true });

  const services = await createServices(
    buildConfig({
      server: { dataDir: '/tmp/netdiag-bench' },
      targets: { allow: ['127.0.0.0/8'] },
      dns: {
        system: [`127.0.0.1:${system.port}`],
        timeoutMs: TIMEOUT_MS,
        publicResolvers: resolvers.map((lab, i) => ({
          name: `Lab ${i + 1}`,
          ip: `192.0.2.${i + 100}`,
          countryCode: 'US',
          address: `127.0.0.1:${lab.port}`,
        })),
      },
    }),
    silentLogger,
    { dnsAuthoritativePort: authoritative.port },
  );
  const times: number[] = [];
  let summary = '';
  try {
    for (let i = 0; i < RUNS; i++) {
      const ctx = createCheckContext(services, AbortSignal.timeout(10 * TIMEOUT_MS));
      const t0 = performance.now();
      const result = await runDnsPropagation(ctx, 'bench.test', 'A');
      times.push(performance.now() - t0);
      summary = `${result.status}, unreachable: ${result.unreachable.join(', ')}, expected from ${result.expectedSource}`;
    }
  } finally {
    await services.close();
    await Promise.all([system, authoritative, ...resolvers].map((lab) => lab.close()));
  }
  const wall = median(times);
  console.log(`\n## dns-propagation, ${RESOLVERS} resolvers in parallel, one never answers (${summary})`);
  console.log(
    `median ${wall.toFixed(1)} ms with dns.timeoutMs ${TIMEOUT_MS} ms: ${(wall / TIMEOUT_MS).toFixed(2)}× one time-out (sequential would be ≥ ${RESOLVERS}×)`,
  );
}
