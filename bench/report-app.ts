/**
 * An in-process app against the report lab for the benchmarks (test/lab/report-lab.ts), served on a real
 * loopback socket: the lab's upstreams, and every other upstream at a closed loopback port (as the tests'
 * apps have them), so that nothing leaves loopback.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp } from '../src/app.js';
import { buildConfig } from '../src/config.js';
import { DEFAULT_PUBLIC_RESOLVERS } from '../src/config/public-resolvers.js';
import { createServices } from '../src/create-services.js';
import { silentLogger } from '../src/log.js';
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import {
  reportLabConfig,
  reportLabOverrides,
  type LabLatency,
  type ReportLabAddresses,
} from '../test/lab/report-lab.js';
import { serveOnLoopback } from '../test/browser/chromium.js';

export const BENCH_KEY = 'bench-report-key-0123456789';
const NOWHERE = '127.0.0.1:9';

/** The report lab in a child process (bench/report-lab-child.ts): its addresses, and how to stop it. */
export async function reportLabProcess(latency: LabLatency): Promise<{ lab: ReportLabAddresses; stop(): void }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'bench/report-lab-child.ts', JSON.stringify(latency)], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const [line] = await new Promise<string[]>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout });
    lines.once('line', (l) => resolve([l]));
    child.once('exit', (code) => reject(new Error(`the report lab exited (${code})`)));
  });
  return { lab: JSON.parse(line!) as ReportLabAddresses, stop: () => child.stdin.end() };
}

/** An app against the lab, on a loopback socket. */
export async function serveReportLab(lab: ReportLabAddresses) {
  const dataDir = mkdtempSync(join(tmpdir(), 'netdiag-bench-report-'));
  const config = buildConfig({
    ...reportLabConfig(lab),
    server: { dataDir },
    auth: { keys: [BENCH_KEY] },
    quota: { credits: 1_000_000 },
    dns: {
      ...reportLabConfig(lab).dns,
      publicResolvers: DEFAULT_PUBLIC_RESOLVERS.map((r) => ({ ...r, address: NOWHERE })),
    },
    dnssec: { rootServers: [NOWHERE] },
    ipInfo: { baseUrl: 'http://127.0.0.1:9' },
    rdap: { enabled: false },
    admission: { maxEventLoopDelayMs: 0 },
  });
  const services = await createServices(config, silentLogger, reportLabOverrides(lab, dataDir));
  const served = await serveOnLoopback(createApp(services));
  return {
    origin: served.origin,
    async close() {
      await served.close();
      await services.close();
    },
  };
}

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}
