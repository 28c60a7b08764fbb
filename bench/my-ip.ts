/**
 * The overhead budget every check pays: GET /api/v1/my-ip through the whole stack (HTTP adapter, router,
 * key check, credit charge, yoga execution, envelope, JSON log line) next to a bare node:http server
 * answering the same JSON, side by side on loopback.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { bundleOptions } from '../scripts/build-if-stale.mjs';
import { combineLoads, formatLoad, runLoad, type LoadResult } from './load.js';

const KEY = 'bench-key-0123456789';
const ROUNDS = 3;
const BODY = JSON.stringify({
  ok: true,
  data: { ip: '93.184.216.34', version: 'IPv4' },
  meta: { tool: 'my-ip', version: 'v1' },
});

async function listen(server: Server): Promise<string> {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const ROOT = resolve(import.meta.dirname, '..');

/** bench/my-ip-app.ts bundled as dist/ is (inside node_modules/, so that the bundle finds the packages and project files dist/ finds). */
async function compiledService(): Promise<typeof import('./my-ip-app.js')> {
  const outdir = join(ROOT, 'node_modules', '.cache', 'netdiag-bench-my-ip');
  await build({
    ...bundleOptions(),
    entryPoints: [{ in: 'bench/my-ip-app.ts', out: 'my-ip-app' }],
    outdir,
    sourcemap: false,
  });
  return import(pathToFileURL(join(outdir, 'my-ip-app.js')).href);
}

export async function benchMyIp(durationMs: number): Promise<void> {
  const { buildConfig, createApp, createServices, createJsonLogger, requestListenerFor } = await compiledService();
  const bare = createServer((_req, res) => {
    res.writeHead(200, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(BODY),
    });
    res.end(BODY);
  });
  const config = buildConfig({
    server: { trustedProxies: ['127.0.0.1/32'], dataDir: '/tmp/netdiag-bench' },
    auth: { keys: [KEY] },
    quota: { credits: 100_000_000 },
  });
  // The real JSON logger, writing to a sink: log formatting is part of the cost, terminal I/O is not.
  const services = await createServices(
    config,
    createJsonLogger(() => {}),
  );
  const app = createApp(services);
  // the node:http listener `npm start` serves (src/http-server.ts)
  const full = createServer(requestListenerFor(app));
  const bareUrl = await listen(bare);
  const fullUrl = await listen(full);
  const headers = { 'x-api-key': KEY, 'x-forwarded-for': '93.184.216.34' };

  // Warm up both (JIT, connection pools), then measure them in alternating rounds: the machine's speed
  // drifts by several per cent over seconds, which back-to-back runs would read as a difference between them.
  await runLoad({ origin: bareUrl, path: '/', connections: 16, durationMs: 1_000 });
  await runLoad({ origin: fullUrl, path: '/api/v1/my-ip', headers, connections: 16, durationMs: 1_000 });
  const bareRuns: LoadResult[] = [];
  const fullRuns: LoadResult[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    bareRuns.push(await runLoad({ origin: bareUrl, path: '/', connections: 16, durationMs: durationMs / ROUNDS }));
    fullRuns.push(
      await runLoad({
        origin: fullUrl,
        path: '/api/v1/my-ip',
        headers,
        connections: 16,
        durationMs: durationMs / ROUNDS,
      }),
    );
  }
  const b = combineLoads(bareRuns);
  const f = combineLoads(fullRuns);

  console.log(`\n## my-ip overhead (16 connections, loopback; ${ROUNDS} alternating rounds each)`);
  console.log(formatLoad('bare node:http', b));
  console.log(formatLoad('netdiag GET /api/v1/my-ip', f));
  console.log(
    `ratio: throughput ${(f.perSecond / b.perSecond).toFixed(2)}× of bare, p99 latency ${(f.p99Ms / b.p99Ms).toFixed(2)}× of bare`,
  );
  if (f.errors > 0) throw new Error(`${f.errors} full-stack requests failed`);

  await new Promise((r) => bare.close(r));
  await new Promise((r) => full.close(r));
  await services.close();
}
