/**
 * Hostile job submissions (issue 31; docs/jobs.md "Endpoints"), in process on a loopback socket against
 * the loopback DNS lab: bodies of about 2 MiB that are refused — 150,000 unknown parameters, a 1.9 MB
 * parameter value, 10,000 targets whose last is invalid (from a key with the default allowance, which
 * cannot pay for them, and from a key whose allowance can) — each answered in well under 100 ms (target),
 * the median of 5; and another key's sequential dns-lookup calls while one client sends such bodies back
 * to back, against the same calls with nothing else running (target: p95 within 1.5×, "other keys
 * unaffected").
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { createApp } from '../src/app.js';
import { buildConfig } from '../src/config.js';
import { createServices } from '../src/create-services.js';
import { createHttpServer } from '../src/http-server.js';
import { silentLogger } from '../src/log.js';
import { seedIpData } from '../test/helpers/ip-data.js';
import { startJobsDnsLab } from './jobs-dns-lab-process.js';
import { KeepAliveClient } from './keep-alive-client.js';

const FREE_KEY = 'bench-free-key-0123456789';
const RICH_KEY = 'bench-rich-key-0123456789';
const INTERACTIVE_KEY = 'bench-interactive-key-0123';
const RUNS = 5;
const INTERACTIVE_CALLS = 40;

function quantile(xs: readonly number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(s.length * q) - 1)]!;
}

/** the hostile bodies, each refused, each about 2 MiB */
function bodies(): { name: string; key: string; body: string; status: number }[] {
  const unknown: Record<string, string> = {};
  for (let i = 0; i < 150_000; i++) unknown[`p${i}`] = 'x';
  const names = Array.from({ length: 10_000 }, (_, i) => `n${i % 1000}.test`);
  // names of about 200 characters: 10,000 of them make a body of about 2 MiB
  const long = (i: number) => `${'a'.repeat(60)}.${'b'.repeat(60)}.${'c'.repeat(60)}.n${i}.test`;
  const longTargets = [...Array.from({ length: 9_999 }, (_, i) => long(i)), 'bad..test'];
  return [
    {
      name: '150,000 unknown parameters',
      key: RICH_KEY,
      status: 400,
      body: JSON.stringify({ tool: 'mx-lookup', targets: names.slice(0, 60), params: unknown }),
    },
    {
      name: 'a 1.9 MB parameter value',
      key: RICH_KEY,
      status: 400,
      body: JSON.stringify({ tool: 'dkim-checker', targets: ['n1.test'], params: { selector: 'x'.repeat(1_900_000) } }),
    },
    {
      name: '10,000 targets, the last invalid, from a key that cannot pay (default allowance)',
      key: FREE_KEY,
      status: 429,
      body: JSON.stringify({ tool: 'mx-lookup', targets: longTargets }),
    },
    {
      name: '10,000 targets, the last invalid, from a key that can pay',
      key: RICH_KEY,
      status: 400,
      body: JSON.stringify({ tool: 'mx-lookup', targets: longTargets }),
    },
  ];
}

export async function benchJobsHostile(): Promise<void> {
  const lab = await startJobsDnsLab(1000);
  const dataDir = mkdtempSync(join(tmpdir(), 'netdiag-bench-hostile-'));
  seedIpData(dataDir);
  const services = await createServices(
    buildConfig({
      server: { dataDir },
      auth: { keys: [FREE_KEY, RICH_KEY, INTERACTIVE_KEY] },
      quota: { credits: 1_000_000_000 },
      dns: { system: [`127.0.0.1:${lab.port}`] },
      admission: { maxEventLoopDelayMs: 0 },
      metrics: { port: null },
    }),
    silentLogger,
    {},
  );
  const app = createApp(services);
  const server = createHttpServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const cases = bodies();
  // the free key is left the default allowance (300 credits); the others have a large one
  await services.quota.charge(services.keyring.verify(FREE_KEY)!.id, 1_000_000_000 - 300);

  const send = async (c: (typeof cases)[number]): Promise<number> => {
    const started = performance.now();
    const response = await fetch(`${origin}/api/v1/jobs`, {
      method: 'POST',
      headers: { 'x-api-key': c.key, 'content-type': 'application/json' },
      body: c.body,
    });
    await response.arrayBuffer();
    if (response.status !== c.status) throw new Error(`${c.name}: answered ${response.status}, expected ${c.status}`);
    return performance.now() - started;
  };

  let probes = 0;
  const interactive = async (): Promise<number[]> => {
    const client = new KeepAliveClient(origin);
    const times: number[] = [];
    for (let i = 0; i < INTERACTIVE_CALLS; i++) {
      const t0 = performance.now();
      const status = await client.get(
        `/api/v1/dns-lookup?domain=probe${probes++ % 40}.test`,
        { 'x-api-key': INTERACTIVE_KEY },
        10_000,
      );
      if (status !== 200) throw new Error(`dns-lookup answered ${status}`);
      times.push(performance.now() - t0);
      await new Promise((r) => setTimeout(r, 20));
    }
    client.close();
    return times;
  };

  console.log('\n## jobs: hostile submissions of about 2 MiB, each refused (median of 5; target < 100 ms)');
  for (const c of cases) {
    await send(c); // the first of each warms its code paths
    const times: number[] = [];
    for (let i = 0; i < RUNS; i++) times.push(await send(c));
    console.log(
      `${c.name} (${(c.body.length / 1048576).toFixed(2)} MiB): ${quantile(times, 0.5).toFixed(1)} ms (runs ${times.map((t) => t.toFixed(0)).join(', ')})`,
    );
  }

  console.log(
    "another key's sequential dns-lookup calls (p95), alone and while one client sends one kind of body back to back:",
  );
  for (const c of cases) {
    const quiet = await interactive();
    let sending = true;
    let sent = 0;
    const hostile = (async () => {
      while (sending) {
        await send(c);
        sent++;
      }
    })();
    const busy = await interactive();
    sending = false;
    await hostile;
    console.log(
      `  ${c.name}: ${quantile(quiet, 0.95).toFixed(1)} ms alone, ${quantile(busy, 0.95).toFixed(1)} ms during ${sent} bodies; ratio ${(quantile(busy, 0.95) / quantile(quiet, 0.95)).toFixed(2)}× (target < 1.5×)`,
    );
  }
  await app.stopBackground();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await services.close();
  lab.close();
}

if (import.meta.url === `file://${process.argv[1]}`) await benchJobsHostile();
