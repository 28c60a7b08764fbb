/**
 * Hostile job submissions (issue 31; docs/jobs.md "Endpoints") to the compiled service (one API worker),
 * against the loopback DNS lab: bodies of about 2 MiB that are refused — 150,000 unknown parameters, a
 * parameter value of 1,900,000 characters, 10,000 targets whose last is invalid (from a key with the default allowance,
 * which cannot pay for them, and from a key whose allowance can) — each answered in under 100 ms
 * (target), the median of 5; and another key's sequential dns-lookup calls while a client in a process of
 * its own (bench/jobs-hostile-sender.ts) sends such bodies back to back, against the same calls with nothing
 * else running (target: p95 within 1.5×, "other keys unaffected").
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startService } from '../test/helpers/process.js';
import { startJobsDnsLab } from './jobs-dns-lab-process.js';
import { KeepAliveClient } from './keep-alive-client.js';

const HOSTILE_KEY = 'bench-hostile-key-0123456789';
const INTERACTIVE_KEY = 'bench-interactive-key-0123';
const RUNS = 5;
const INTERACTIVE_CALLS = 40;

function quantile(xs: readonly number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(s.length * q) - 1)]!;
}

interface HostileCase {
  readonly name: string;
  /** the credits of every key of the service it is sent to */
  readonly credits: number;
  readonly status: number;
  readonly body: string;
}

/** the hostile bodies, each refused, each about 2 MiB */
function hostileCases(): HostileCase[] {
  const unknown: Record<string, string> = {};
  for (let i = 0; i < 150_000; i++) unknown[`p${i}`] = 'x';
  // names of about 200 characters: 10,000 of them make a body of about 2 MiB
  const long = (i: number) => `${'a'.repeat(60)}.${'b'.repeat(60)}.${'c'.repeat(60)}.n${i}.test`;
  const longTargets = [...Array.from({ length: 9_999 }, (_, i) => long(i)), 'bad..test'];
  const rich = 1_000_000_000;
  return [
    {
      name: '150,000 unknown parameters',
      credits: rich,
      status: 400,
      body: JSON.stringify({ tool: 'mx-lookup', targets: ['n1.test'], params: unknown }),
    },
    {
      name: 'a 1.9 MB parameter value',
      credits: rich,
      status: 400,
      body: JSON.stringify({ tool: 'dkim-checker', targets: ['n1.test'], params: { selector: 'x'.repeat(1_900_000) } }),
    },
    {
      name: '10,000 targets, the last invalid, from a key with the default allowance (it cannot pay)',
      credits: 300,
      status: 429,
      body: JSON.stringify({ tool: 'mx-lookup', targets: longTargets }),
    },
    {
      name: '10,000 targets, the last invalid, from a key that can pay',
      credits: rich,
      status: 400,
      body: JSON.stringify({ tool: 'mx-lookup', targets: longTargets }),
    },
  ];
}

export async function benchJobsHostile(): Promise<void> {
  const lab = await startJobsDnsLab(1000);
  const dir = mkdtempSync(join(tmpdir(), 'netdiag-bench-hostile-'));
  console.log(
    '\n## jobs: hostile submissions of about 2 MiB to the compiled service (1 API worker), each refused (median of 5; target < 100 ms)',
  );
  const ratios: string[] = [];
  for (const [n, c] of hostileCases().entries()) {
    const service = startService({
      server: { host: '127.0.0.1', port: 0, workers: 1 },
      auth: { keys: [HOSTILE_KEY, INTERACTIVE_KEY] },
      quota: { credits: c.credits },
      dns: { system: [`127.0.0.1:${lab.port}`] },
    });
    try {
      const origin = `http://${await service.listening}`;
      const send = async (): Promise<number> => {
        const started = performance.now();
        const response = await fetch(`${origin}/api/v1/jobs`, {
          method: 'POST',
          headers: { 'x-api-key': HOSTILE_KEY, 'content-type': 'application/json' },
          body: c.body,
        });
        await response.arrayBuffer();
        if (response.status !== c.status)
          throw new Error(`${c.name}: answered ${response.status}, expected ${c.status}`);
        return performance.now() - started;
      };
      await send(); // the first warms the worker's code paths
      const times: number[] = [];
      for (let i = 0; i < RUNS; i++) times.push(await send());
      console.log(
        `${c.name} (${(c.body.length / 1048576).toFixed(2)} MiB): ${quantile(times, 0.5).toFixed(1)} ms (runs ${times.map((t) => t.toFixed(0)).join(', ')})`,
      );

      let probes = 0;
      const interactive = async (): Promise<number[]> => {
        const client = new KeepAliveClient(origin);
        const latencies: number[] = [];
        for (let i = 0; i < INTERACTIVE_CALLS; i++) {
          const t0 = performance.now();
          const path = `/api/v1/dns-lookup?domain=probe${probes++ % 40}.test`;
          const status = await client.get(path, { 'x-api-key': INTERACTIVE_KEY }, 10_000);
          if (status !== 200) throw new Error(`dns-lookup answered ${status}`);
          latencies.push(performance.now() - t0);
          await new Promise((r) => setTimeout(r, 20));
        }
        client.close();
        return latencies;
      };
      const quiet = await interactive();
      const file = join(dir, `body-${n}.json`);
      writeFileSync(file, c.body);
      const sender = spawn(
        process.execPath,
        [
          '--import',
          'tsx',
          join(import.meta.dirname, 'jobs-hostile-sender.ts'),
          origin,
          HOSTILE_KEY,
          file,
          String(c.status),
        ],
        { stdio: ['pipe', 'pipe', 'inherit'] },
      );
      let said = '';
      const underWay = new Promise<void>((resolve) =>
        sender.stdout.on('data', (d) => {
          said += d;
          if (said.includes('sending')) resolve();
        }),
      );
      await underWay;
      const busy = await interactive();
      sender.stdin.end();
      await new Promise((resolve) => sender.on('exit', resolve));
      const sent = /sent (\d+)/.exec(said)?.[1] ?? '?';
      const ratio = quantile(busy, 0.95) / quantile(quiet, 0.95);
      ratios.push(`${ratio.toFixed(2)}×`);
      console.log(
        `  another key's dns-lookup p95: ${quantile(quiet, 0.95).toFixed(1)} ms alone, ${quantile(busy, 0.95).toFixed(1)} ms while ${sent} such bodies were sent back to back; ratio ${ratio.toFixed(2)}× (target < 1.5×)`,
      );
    } finally {
      service.child.kill('SIGTERM');
      await service.exited;
    }
  }
  console.log(`other keys' ratio, by body: ${ratios.join(', ')}`);
  lab.close();
}

if (import.meta.url === `file://${process.argv[1]}`) await benchJobsHostile();
