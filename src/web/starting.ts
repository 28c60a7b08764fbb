/**
 * What the primary process answers while no worker is ready (src/cluster/connection-router.ts; the port
 * opens with the first ready worker, so this is the time a dead worker's replacement takes to load):
 * /healthz 200 (the process is alive), /readyz 503 "starting", everything else 503 with Retry-After in
 * the v1 envelope. Plain node:http, so that the primary loads none of the app's modules. Request bodies
 * are not read.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

export function whileStarting(req: IncomingMessage, res: ServerResponse): void {
  req.resume();
  const path = (req.url ?? '/').split('?')[0]!;
  const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
    const text = JSON.stringify(body);
    res.writeHead(status, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': String(Buffer.byteLength(text)),
      'cache-control': 'no-store',
      ...headers,
    });
    res.end(text);
  };
  if (path === '/healthz') {
    send(200, { ok: true });
    return;
  }
  if (path === '/readyz') {
    send(503, { ok: false, reason: 'starting: the service is loading' });
    return;
  }
  const tool = path.split('/').filter(Boolean).pop() ?? '';
  send(
    503,
    { ok: false, error: 'the service is starting; retry in a moment', meta: { tool, version: 'v1' } },
    { 'retry-after': '1' },
  );
}
