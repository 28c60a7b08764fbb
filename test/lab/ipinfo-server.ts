/**
 * A fake IPinfo Lite API on 127.0.0.1 port 0, for the live IP data client.
 * `GET /…/lite/{ip}` answers with the behaviour the test chose for that address
 * (default: 404 JSON like IPinfo's "wrong ip"); every request is recorded with
 * its path and query so tests can check the token and the base URL.
 *
 * Behaviours: a JSON record, any status with a body, a raw body (garbage), a
 * delay before the headers, headers then a body that never ends, or an endless
 * body (for the byte bound).
 */
import http from 'node:http';
import type net from 'node:net';

export type FakeIpinfoReply =
  | { kind: 'json'; record: unknown; delayMs?: number }
  | { kind: 'status'; status: number; body?: string }
  | { kind: 'raw'; contentType: string; body: string }
  /** headers are sent after `ms`, if the client still waits */
  | { kind: 'slow-headers'; ms: number; record: unknown }
  /** 200 and part of a JSON body, then nothing more (the connection stays open) */
  | { kind: 'stalled-body' }
  /** 200 with a body streamed until the client goes away */
  | { kind: 'endless-body' };

export interface RecordedIpinfoRequest {
  method: string;
  /** path without the query, e.g. "/lite/8.8.8.8" */
  path: string;
  query: Record<string, string>;
  headers: http.IncomingHttpHeaders;
}

export interface FakeIpinfo {
  /** "http://127.0.0.1:<port>" */
  readonly url: string;
  readonly requests: RecordedIpinfoRequest[];
  /** sets what the server answers for `ip` (as it appears in the path) */
  reply(ip: string, reply: FakeIpinfoReply): void;
  openConnectionCount(): number;
  /** endless bodies still being written: 0 once every such client went away */
  endlessBodiesOpen(): number;
  close(): Promise<void>;
}

/** An IPinfo Lite record as the API documents it (https://ipinfo.io/developers/lite-api). */
export function liteRecord(ip: string, fields: Partial<Record<string, string>> = {}): Record<string, string> {
  return {
    ip,
    asn: 'AS15169',
    as_name: 'Google LLC',
    as_domain: 'google.com',
    country_code: 'US',
    country: 'United States',
    continent_code: 'NA',
    continent: 'North America',
    ...fields,
  } as Record<string, string>;
}

export async function startFakeIpinfo(): Promise<FakeIpinfo> {
  const replies = new Map<string, FakeIpinfoReply>();
  const requests: RecordedIpinfoRequest[] = [];
  const sockets = new Set<net.Socket>();
  const endless = new Set<http.ServerResponse>();
  const timers = new Set<NodeJS.Timeout>();
  const later = (ms: number, fn: () => void): void => {
    const t = setTimeout(() => {
      timers.delete(t);
      fn();
    }, ms);
    timers.add(t);
  };

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    requests.push({
      method: req.method ?? '',
      path: url.pathname,
      query: Object.fromEntries(url.searchParams),
      headers: req.headers,
    });
    const m = /\/lite\/([^/]+)$/.exec(url.pathname);
    const ip = m ? decodeURIComponent(m[1]!) : '';
    const reply = replies.get(ip) ?? {
      kind: 'status',
      status: 404,
      body: '{"error":{"title":"Wrong ip","message":"Please provide a valid IP address"}}',
    };
    const sendJson = (status: number, body: string): void => {
      res.writeHead(status, {
        'content-type': 'application/json; charset=utf-8',
        'content-length': Buffer.byteLength(body),
      });
      res.end(body);
    };
    switch (reply.kind) {
      case 'json':
        if (reply.delayMs) later(reply.delayMs, () => sendJson(200, JSON.stringify(reply.record)));
        else sendJson(200, JSON.stringify(reply.record));
        break;
      case 'status':
        sendJson(reply.status, reply.body ?? `{"status":${reply.status}}`);
        break;
      case 'raw':
        res.writeHead(200, { 'content-type': reply.contentType });
        res.end(reply.body);
        break;
      case 'slow-headers':
        later(reply.ms, () => {
          if (!res.destroyed) sendJson(200, JSON.stringify(reply.record));
        });
        break;
      case 'stalled-body':
        res.writeHead(200, { 'content-type': 'application/json' });
        res.write('{"ip":"');
        break;
      case 'endless-body': {
        endless.add(res);
        res.on('close', () => endless.delete(res));
        res.writeHead(200, { 'content-type': 'application/json' });
        const chunk = Buffer.alloc(16 * 1024, 0x20);
        const pump = (): void => {
          while (!res.destroyed && res.write(chunk));
          if (!res.destroyed) res.once('drain', pump);
        };
        pump();
        break;
      }
    }
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;

  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    reply: (ip, reply) => replies.set(ip, reply),
    openConnectionCount: () => sockets.size,
    endlessBodiesOpen: () => endless.size,
    async close() {
      for (const t of timers) clearTimeout(t);
      timers.clear();
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
