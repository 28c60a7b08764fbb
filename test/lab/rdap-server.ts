/**
 * A loopback RDAP lab: node:http on 127.0.0.1:0 answering per request path.
 * Path prefixes let one lab play a registry and a registrar ("/registry/",
 * "/registrar/"). Every request is recorded with its Accept header.
 */
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export type RdapBehaviour =
  | { json: unknown; status?: number }
  /** an error status with an RDAP error body (RFC 9083 §6) */
  | { status: number }
  | { malformed: true }
  | { stall: true }
  /** Location header value, absolute or relative */
  | { redirect: string; status?: number }
  | { huge: number };

export interface RecordedRdapRequest {
  path: string;
  accept: string | undefined;
}

export interface RdapLab {
  /** "http://127.0.0.1:<port>/" */
  readonly url: string;
  readonly requests: RecordedRdapRequest[];
  /** add or replace the behaviour of a path */
  route(path: string, behaviour: RdapBehaviour): void;
  close(): Promise<void>;
}

export async function startRdapLab(routes: Record<string, RdapBehaviour> = {}): Promise<RdapLab> {
  const table = new Map(Object.entries(routes));
  const requests: RecordedRdapRequest[] = [];
  const sockets = new Set<Socket>();

  const handle = (req: IncomingMessage, res: ServerResponse): void => {
    const path = req.url ?? '/';
    requests.push({ path, accept: req.headers.accept });
    const behaviour = table.get(path) ?? table.get(path.toLowerCase()) ?? { status: 404 };
    const send = (status: number, body: string, type = 'application/rdap+json'): void => {
      res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body) });
      res.end(body);
    };
    if ('json' in behaviour) {
      send(behaviour.status ?? 200, JSON.stringify(behaviour.json));
    } else if ('malformed' in behaviour) {
      send(200, '{"objectClassName": "domain", "ldhName": ');
    } else if ('stall' in behaviour) {
      // never answer; close() destroys the socket
    } else if ('redirect' in behaviour) {
      res.writeHead(behaviour.status ?? 302, { location: behaviour.redirect, 'content-length': 0 });
      res.end();
    } else if ('huge' in behaviour) {
      res.writeHead(200, { 'content-type': 'application/rdap+json' });
      const piece = Buffer.alloc(16_384, 0x20);
      let left = behaviour.huge;
      const pump = (): void => {
        while (left > 0 && !res.destroyed) {
          const n = Math.min(piece.length, left);
          left -= n;
          if (!res.write(piece.subarray(0, n))) {
            res.once('drain', pump);
            return;
          }
        }
        if (!res.destroyed) res.end();
      };
      pump();
    } else {
      send(
        behaviour.status,
        JSON.stringify({ errorCode: behaviour.status, title: http.STATUS_CODES[behaviour.status] ?? 'Error' }),
      );
    }
  };

  const server = http.createServer(handle);
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ host: '127.0.0.1', port: 0 }, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;

  return {
    url: `http://127.0.0.1:${port}/`,
    requests,
    route(path, behaviour) {
      table.set(path, behaviour);
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise((r) => server.close(r));
    },
  };
}
