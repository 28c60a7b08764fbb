/**
 * Start-up of the real entry point (docs/operations.md "Every core"): the API port opens only once a worker can
 * answer, so the first requests after a start meet no "starting" 503 and no shedding on the start's own
 * late event loop; a worker that cannot start ends the instance with a non-zero code instead of being
 * replaced in a loop.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startService } from '../helpers/process.js';

const KEY = 'start-up-key-123456';
const PUBLIC = '93.184.216.34'; // a value in a header only: my-ip never connects anywhere

/** A loopback port nothing listens on (bound, read and released). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as { port: number };
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

/** Resolves at the first connection the port accepts (each refused attempt is retried at once). */
async function firstAccepted(port: number, exited: Promise<unknown>): Promise<void> {
  let gone = false;
  void exited.then(() => (gone = true));
  for (;;) {
    if (gone) throw new Error('the service exited before its port accepted a connection');
    const accepted = await new Promise<boolean>((r) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        r(true);
      });
      socket.once('error', () => r(false));
    });
    if (accepted) return;
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('start-up', { timeout: 90_000 }, () => {
  it.each([2, 1])(
    'with %i worker(s), answers 32 concurrent calls sent the moment the port accepts, none with a 503',
    async (workers) => {
      const port = await freePort();
      const s = startService({
        server: { host: '127.0.0.1', port, workers, trustedProxies: ['127.0.0.1/32'] },
        auth: { keys: [KEY] },
        // admission as in production (the event-loop sensor on): the start's own late loop must not shed
        // the first burst
        admission: { perKeyInFlight: 64 },
      });
      try {
        await firstAccepted(port, s.exited);
        const answers = await Promise.all(
          Array.from({ length: 32 }, () =>
            fetch(`http://127.0.0.1:${port}/api/v1/my-ip`, {
              headers: { 'x-api-key': KEY, 'x-forwarded-for': PUBLIC },
            }).then(async (r) => ({ status: r.status, body: await r.text() })),
          ),
        );
        expect(answers.filter((a) => a.status !== 200)).toEqual([]);
        expect(JSON.parse(answers[0]!.body).data.ip).toBe(PUBLIC);
      } finally {
        s.child.kill('SIGTERM');
        await s.exited;
      }
    },
  );

  it('exits 1 when a worker fails while starting, and forks no replacement', async () => {
    const forks = join(mkdtempSync(join(tmpdir(), 'nd-forks-')), 'forks');
    const failing = resolve(import.meta.dirname, '../helpers/worker-fails-at-start.cjs');
    const s = startService(
      { server: { host: '127.0.0.1', port: 0, workers: 2 } },
      { env: { NODE_OPTIONS: `--require ${failing}`, NETDIAG_TEST_FORKS: forks } },
    );
    expect(await s.exited).toBe(1);
    expect(s.errors()).toMatch(/a worker exited while starting \((an API worker|the job worker), exit code 1\)/);
    expect(s.errors()).toContain('this worker cannot start');
    expect(s.output()).not.toContain('worker_replaced');
    // the workers of the start (two API workers and the job worker), and no other
    expect(readFileSync(forks, 'utf8').trim().split('\n').length).toBeLessThanOrEqual(3);
  });
});
