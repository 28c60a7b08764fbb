/**
 * What the port answers between opening and the app being loaded (src/main.ts): /healthz 200 (the process
 * is alive), /readyz 503 "starting", everything else 503 with Retry-After in the v1 envelope. Plain
 * node:http, so that it needs none of the modules whose loading it covers. Request bodies are not read.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

export function whileStarting(req: IncomingMessage, res: ServerResponse): void {
  req.resume();
  const path = (req.url ?? '/').split('?')[0]!;
  const send = (status: number, body: unknown, headers: Record<string, string> = {}) => {
    res.writeHead(status, {
      'content-type': 'application/json; charset=utf-8',
      'cache-control': 'no-store',
      ...headers,
    });
    res.end(JSON.stringify(body));
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
