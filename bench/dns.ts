/**
 * DNS fan-out benchmarks (issue 3), against loopback DNS labs:
 * - dns-lookup asks seven types in parallel: with a server adding 20 ms to every answer the check
 *   should take one answer's delay plus overhead, not seven of them;
 * - dns-propagation asks every resolver in parallel, each bounded by its own time-out: with one
 *   resolver that never answers it should take about one time-out, not more.
 */
import { buildConfig } from '../src/config.js';
import { createCheckContext } from '../src/loaders/context.js';
import { runDnsLookup } from '../src/checks/dns/dns-lookup/run.js';
import { createServices } from '../src/create-services.js';
import { silentLogger } from '../src/log.js';
import { rr, startDnsLab } from '../test/lab/dns-server.js';

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

export async function benchDnsLookup(): Promise<void> {
  const lab = await startDnsLab({
    delayMs: 20,
    authoritative: false,
    records: [rr.a('bench.test', '192.0.2.1'), rr.mx('bench.test', 10, 'mx.bench.test')],
  });
  const services = await createServices(
    buildConfig({ server: { dataDir: '/tmp/netdiag-bench' }, dns: { system: [`127.0.0.1:${lab.port}`] } }),
    silentLogger,
  );
  const times: number[] = [];
  for (let i = 0; i < 15; i++) {
    services.dnsCache.clear();
    const ctx = createCheckContext(services, AbortSignal.timeout(5000));
    const t0 = performance.now();
    await runDnsLookup(ctx, 'bench.test', null);
    times.push(performance.now() - t0);
  }
  console.log('\n## dns-lookup, 7 types, server adds 20 ms per answer');
  console.log(
    `median ${median(times).toFixed(1)} ms (sequential would be ≥ 140 ms); ratio to one answer: ${(median(times) / 20).toFixed(2)}×`,
  );
  await services.close();
  await lab.close();
}
