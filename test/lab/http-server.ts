/**
 * A loopback HTTP(S) lab for the guarded fetcher: node:http, node:https or node:http2
 * (with HTTP/1.1 fallback) on 127.0.0.1 (or another loopback address) port 0.
 *
 * Built-in routes:
 *   /ok                      200 HTML with the five security headers
 *   /redirect?status=&to=    a redirect with Location exactly `to` (relative or absolute)
 *   /chain/<n>               n > 0: 302 to the relative "<n-1>"; 0: 200 HTML
 *   /loop/a, /loop/b         301 to each other
 *   /huge                    200 HTML of 50 MiB, streamed with back-pressure (hugeBytesWritten)
 *   /slow-body               200 HTML whose body drips one byte every 200 ms, forever
 *   /hang                    accepts the request and never answers
 *   /early-hints             103 Early Hints, then 200 (HTTP/1.1 only)
 * and any page given in `pages` (exact path match, query ignored).
 * The lab records every connection and request, so tests can assert that a refused
 * host saw nothing and that every socket was closed.
 */
import http from 'node:http';
import http2 from 'node:http2';
import https from 'node:https';
import type net from 'node:net';
import { generate } from 'selfsigned';

export interface LabPage {
  status?: number;
  /** HTTP/1.1 reason phrase (ignored over HTTP/2) */
  reason?: string;
  /** an array value sends one field line per element */
  headers?: Record<string, string | string[]>;
  body?: string | Buffer;
}

export interface LabTls {
  cert: string;
  key: string;
}

export interface LabOptions {
  /** loopback address to listen on (default 127.0.0.1) */
  host?: string;
  tls?: LabTls;
  /** with tls: an HTTP/2 server that also speaks HTTP/1.1 */
  http2?: boolean;
  pages?: Record<string, LabPage>;
}

export interface LabRequest {
  method: string;
  path: string;
  httpVersion: string;
  headers: Record<string, string | string[] | undefined>;
}

export interface HttpLab {
  readonly host: string;
  readonly port: number;
  /** an absolute URL on this lab; `hostname` replaces the address (the guard stub maps it back) */
  url(path: string, hostname?: string): string;
  readonly requests: LabRequest[];
  connectionCount(): number;
  openConnectionCount(): number;
  hugeBytesWritten(): number;
  /** resolves once every accepted connection has closed */
  waitForAllClosed(timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export const HUGE_BODY_BYTES = 50 * 1024 * 1024;
const HUGE_CHUNK = Buffer.alloc(64 * 1024, 'a');

export const SECURITY_HEADER_VALUES: Record<string, string> = {
  'strict-transport-security': 'max-age=63072000; includeSubDomains',
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'content-security-policy': "default-src 'self'",
};

/** What the streaming routes use of node:http's and node:http2's response objects alike. */
interface StreamingResponse {
  statusCode: number;
  readonly destroyed: boolean;
  setHeader(name: string, value: string): unknown;
  write(chunk: string | Buffer): boolean;
  end(): unknown;
  once(event: 'drain', listener: () => void): unknown;
  on(event: 'close', listener: () => void): unknown;
}

type Handler = (
  req: http.IncomingMessage | http2.Http2ServerRequest,
  res: http.ServerResponse | http2.Http2ServerResponse,
) => void;

export async function startHttpLab(options: LabOptions = {}): Promise<HttpLab> {
  const host = options.host ?? '127.0.0.1';
  const requests: LabRequest[] = [];
  const open = new Set<net.Socket>();
  const closedWaiters: (() => void)[] = [];
  const timers = new Set<NodeJS.Timeout>();
  let connections = 0;
  let hugeWritten = 0;

  const send = (res: http.ServerResponse | http2.Http2ServerResponse, page: LabPage): void => {
    res.statusCode = page.status ?? 200;
    if (page.reason !== undefined && res instanceof http.ServerResponse) res.statusMessage = page.reason;
    for (const [name, value] of Object.entries(page.headers ?? {})) res.setHeader(name, value);
    res.end(page.body ?? '');
  };

  const handler: Handler = (req, response) => {
    const res = response as unknown as StreamingResponse;
    const target = new URL(req.url ?? '/', 'http://lab.invalid');
    requests.push({
      method: req.method ?? '',
      path: req.url ?? '',
      httpVersion: req.httpVersion,
      headers: { ...req.headers },
    });
    const path = target.pathname;
    const page = options.pages?.[path];
    if (page !== undefined) return send(response, page);
    if (path === '/ok') {
      return send(response, {
        headers: { 'content-type': 'text/html; charset=utf-8', ...SECURITY_HEADER_VALUES },
        body: '<title>ok</title>',
      });
    }
    if (path === '/redirect') {
      return send(response, {
        status: Number(target.searchParams.get('status') ?? '302'),
        headers: { location: target.searchParams.get('to') ?? '/ok' },
      });
    }
    const chain = /^\/chain\/(\d+)$/.exec(path);
    if (chain) {
      const n = Number(chain[1]);
      if (n === 0)
        return send(response, { headers: { 'content-type': 'text/html' }, body: '<title>end of chain</title>' });
      return send(response, { status: 302, headers: { location: String(n - 1) } });
    }
    if (path === '/loop/a') return send(response, { status: 301, headers: { location: '/loop/b' } });
    if (path === '/loop/b') return send(response, { status: 301, headers: { location: '/loop/a' } });
    if (path === '/huge') {
      res.statusCode = 200;
      res.setHeader('content-type', 'text/html');
      res.setHeader('content-length', String(HUGE_BODY_BYTES));
      let sent = 0;
      const pump = (): void => {
        while (sent < HUGE_BODY_BYTES && !res.destroyed) {
          sent += HUGE_CHUNK.length;
          hugeWritten += HUGE_CHUNK.length;
          if (!res.write(HUGE_CHUNK)) {
            res.once('drain', pump);
            return;
          }
        }
        if (!res.destroyed) res.end();
      };
      pump();
      return;
    }
    if (path === '/slow-body') {
      res.statusCode = 200;
      res.setHeader('content-type', 'text/html');
      res.write('<');
      const timer = setInterval(() => res.write('a'), 200);
      timers.add(timer);
      res.on('close', () => {
        clearInterval(timer);
        timers.delete(timer);
      });
      return;
    }
    if (path === '/hang') return;
    if (path === '/early-hints' && response instanceof http.ServerResponse) {
      response.writeEarlyHints({ link: '</style.css>; rel=preload; as=style' });
      return send(response, { headers: { 'content-type': 'text/html' }, body: '<title>after hints</title>' });
    }
    send(response, { status: 404, headers: { 'content-type': 'text/plain' }, body: 'not found' });
  };

  let server: http.Server | https.Server | http2.Http2SecureServer;
  if (options.tls && options.http2) {
    server = http2.createSecureServer({ ...options.tls, allowHTTP1: true }, handler);
  } else if (options.tls) {
    server = https.createServer({ ...options.tls }, handler);
  } else {
    server = http.createServer(handler);
  }
  server.on('connection', (socket: net.Socket) => {
    connections += 1;
    open.add(socket);
    socket.on('close', () => {
      open.delete(socket);
      if (open.size === 0) for (const wake of closedWaiters.splice(0)) wake();
    });
  });
  // A client that drops the connection mid-handshake is expected in these tests.
  server.on('tlsClientError', () => {});

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, host, () => resolve());
  });
  const port = (server.address() as net.AddressInfo).port;
  const scheme = options.tls ? 'https' : 'http';

  return {
    host,
    port,
    requests,
    url(path, hostname) {
      const name = hostname ?? (host.includes(':') ? `[${host}]` : host);
      return `${scheme}://${name}:${port}${path}`;
    },
    connectionCount: () => connections,
    openConnectionCount: () => open.size,
    hugeBytesWritten: () => hugeWritten,
    waitForAllClosed(timeoutMs = 2000) {
      if (open.size === 0) return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`${open.size} lab connection(s) still open after ${timeoutMs} ms`)),
          timeoutMs,
        );
        closedWaiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    },
    async close() {
      for (const timer of timers) clearInterval(timer);
      for (const socket of open) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

export interface LabCertificates {
  /** the lab root, to pass as `ca` */
  caCert: string;
  /** valid for site.lab.test, *.lab.test and 127.0.0.1 */
  valid: LabTls;
  /** same names, expired a day ago */
  expired: LabTls;
}

let certificates: Promise<LabCertificates> | null = null;

/** A one-off root and two leaves (EC P-256, made once per test process). */
export function labCertificates(): Promise<LabCertificates> {
  certificates ??= (async () => {
    const day = 24 * 60 * 60 * 1000;
    const now = Date.now();
    const root = await generate([{ name: 'commonName', value: 'netdiag http lab root' }], {
      keyType: 'ec',
      algorithm: 'sha256',
      notBeforeDate: new Date(now - 2 * day),
      notAfterDate: new Date(now + 30 * day),
      extensions: [
        { name: 'basicConstraints', cA: true, critical: true },
        { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
      ],
    });
    const leaf = async (notBefore: number, notAfter: number): Promise<LabTls> => {
      const made = await generate([{ name: 'commonName', value: 'site.lab.test' }], {
        keyType: 'ec',
        algorithm: 'sha256',
        notBeforeDate: new Date(notBefore),
        notAfterDate: new Date(notAfter),
        ca: { key: root.private, cert: root.cert },
        extensions: [
          { name: 'basicConstraints', cA: false },
          { name: 'keyUsage', digitalSignature: true, critical: true },
          { name: 'extKeyUsage', serverAuth: true },
          {
            name: 'subjectAltName',
            altNames: [
              { type: 2, value: 'site.lab.test' },
              { type: 2, value: '*.lab.test' },
              { type: 7, ip: '127.0.0.1' },
            ],
          },
        ],
      });
      return { cert: made.cert, key: made.private };
    };
    return {
      caCert: root.cert,
      valid: await leaf(now - day, now + 10 * day),
      expired: await leaf(now - 10 * day, now - day),
    };
  })();
  return certificates;
}
