/**
 * The overhead budget every check pays: GET /api/v1/my-ip through the whole stack (HTTP adapter, router,
 * key check, credit charge, yoga execution, envelope, JSON log line) next to a bare node:http server
 * answering the same JSON, side by side on loopback.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createServerAdapter } from '@whatwg-node/server';
import { createApp } from '../src/app.js';
import { buildConfig } from '../src/config.js';
import { createServices } from '../src/create-services.js';
import { createJsonLogger } from '../src/log.js';
import { formatLoad, runLoad } from './load.js';

const KEY = 'bench-key-0123456789';
const BODY = JSON.stringify({
  ok: true,
  data: { ip: '93.184.216.34', version: 'IPv4' },
  meta: { tool: 'my-ip', version: 'v1' },
});

async function listen(server: Server): Promise<string> {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

export async function benchMyIp(durationMs: number): Promise<void> {
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
  const full = createServer(
    createServerAdapter<{ req: import('node:http').IncomingMessage }>((request, ctx) =>
      app.fetch(request, { peerAddress: ctx.req.socket.remoteAddress ?? null }),
    ),
  );
  const bareUrl = await listen(bare);
  const fullUrl = await listen(full);
  const headers = { 'x-api-key': KEY, 'x-forwarded-for': '93.184.216.34' };

  // Warm up both (JIT, connection pools), then measure alternately.
  await runLoad({ origin: bareUrl, path: '/', connections: 16, durationMs: 500 });
  await runLoad({ origin: fullUrl, path: '/api/v1/my-ip', headers, connections: 16, durationMs: 500 });
  const b = await runLoad({ origin: bareUrl, path: '/', connections: 16, durationMs });
  const f = await runLoad({ origin: fullUrl, path: '/api/v1/my-ip', headers, connections: 16, durationMs });

  console.log('\n## my-ip overhead (16 connections, loopback)');
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
