/**
 * `server.workers` (docs/operations.md "Every core"): the primary hands the port's connections to several workers;
 * without Redis the primary holds the credit ledger, so credits stay exact whichever worker a request
 * lands on; SIGTERM drains every worker; a worker that dies after it was ready is replaced.
 */
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { describe, expect, it } from 'vitest';
import { startService } from '../helpers/process.js';

const KEY = 'workers-key-123456';

function logLines(output: string): Array<Record<string, any>> {
  return output
    .trim()
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l));
}

async function waitFor(condition: () => boolean, what: string, ms = 30_000): Promise<void> {
  const end = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('two workers', { timeout: 90_000 }, () => {
  it('admit exactly the credited requests of 50 concurrent ones, replace a dead worker, and drain on SIGTERM', async () => {
    const s = startService(
      {
        server: { host: '127.0.0.1', port: 0, workers: 2 },
        auth: { keys: [KEY] },
        // ip-info costs 3: credits for exactly 10 requests
        quota: { credits: 30 },
        admission: { perKeyInFlight: 100 },
      },
      // an operator's GC choice on node's command line (docs/operations.md "Every core")
      { nodeFlags: ['--single-threaded-gc'] },
    );
    const address = await s.listening;
    await waitFor(() => logLines(s.output()).filter((l) => l.event === 'ready').length === 2, 'two ready workers');
    const workers = logLines(s.output()).filter((l) => l.event === 'ready');
    expect(new Set(workers.map((l) => l.pid)).size).toBe(2);
    // the primary listens, the workers do not
    expect(
      logLines(s.output())
        .filter((l) => l.event === 'listening')
        .map((l) => l.pid),
    ).toEqual([s.child.pid]);
    // the operator's --single-threaded-gc reaches the workers with the primary's flags; the helper pool (a
    // share of the cores) is on the workers' command line only
    const commandLine = (pid: number): string[] => readFileSync(`/proc/${pid}/cmdline`, 'latin1').split('\0');
    const pool = `--v8-pool-size=${Math.max(1, Math.floor(availableParallelism() / 2))}`;
    for (const { pid } of workers)
      expect(commandLine(pid)).toEqual(expect.arrayContaining(['--single-threaded-gc', pool]));
    expect(commandLine(s.child.pid!).some((a) => a.startsWith('--v8-pool-size'))).toBe(false);
    expect(logLines(s.output()).find((l) => l.event === 'primary')).toMatchObject({
      gc: 'single-threaded',
      gcHelpers: Math.max(1, Math.floor(availableParallelism() / 2)),
    });
    // a first start: the primary built the bundled IP data's file before forking, so no worker builds one
    const startEvents = logLines(s.output()).map((l) => l.event);
    expect(startEvents.indexOf('ip_data_file_ready')).toBeGreaterThanOrEqual(0);
    expect(startEvents.indexOf('ip_data_file_ready')).toBeLessThan(startEvents.indexOf('primary'));

    const statuses = await Promise.all(
      Array.from({ length: 50 }, () =>
        fetch(`http://${address}/api/v1/ip-info?target=8.8.8.8`, { headers: { 'x-api-key': KEY } }).then(async (r) => {
          await r.arrayBuffer();
          return r.status;
        }),
      ),
    );
    expect(statuses.filter((status) => status === 200)).toHaveLength(10);
    expect(statuses.filter((status) => status === 429)).toHaveLength(40);

    // a worker killed outright is logged and replaced, and the instance keeps answering
    process.kill(workers[0]!.pid, 'SIGKILL');
    await waitFor(() => logLines(s.output()).some((l) => l.event === 'worker_replaced'), 'the replacement');
    expect(logLines(s.output()).find((l) => l.event === 'worker_died')).toMatchObject({
      pid: workers[0]!.pid,
      signal: 'SIGKILL',
    });
    await waitFor(() => logLines(s.output()).filter((l) => l.event === 'ready').length === 3, 'the new worker ready');
    const after = await fetch(`http://${address}/api/v1/ip-info?target=8.8.8.8`, { headers: { 'x-api-key': KEY } });
    expect(after.status).toBe(429); // the ledger outlived the worker: still no credits left
    expect((await fetch(`http://${address}/healthz`)).status).toBe(200);

    s.child.kill('SIGTERM');
    expect(await s.exited).toBe(0);
    const events = logLines(s.output()).map((l) => l.event);
    expect(events.filter((e) => e === 'stopped').length).toBe(4); // two workers and the job worker, then the primary
    expect(events.at(-1)).toBe('stopped');
  });

  it('exit 78 with the reason when the workers refuse their configuration, instead of respawning them', async () => {
    const s = startService({
      server: { host: '127.0.0.1', port: 0, workers: 2 },
      rdap: { bootstrapFile: '/nonexistent/dns.json' },
    });
    expect(await s.exited).toBe(78);
    expect(s.errors()).toContain('/nonexistent/dns.json');
    expect(logLines(s.output()).some((l) => l.event === 'worker_refused_configuration')).toBe(true);
  });
});
