/**
 * A TLS server on loopback, port 0, for the TLS probe's tests. It serves a given
 * chain, can be pinned to TLS versions (TLS 1.0 and 1.1 work from Node 20 with
 * "DEFAULT:@SECLEVEL=0", the default here for such ranges), can behave like a
 * virtual-host server that needs SNI, and records every handshake it saw.
 */
import type { AddressInfo, Socket } from 'node:net';
import tls from 'node:tls';
import type { LabKeyPair } from './pki.js';

export interface LabTlsServerOptions {
  /** PEM chain to serve, leaf first (one concatenated string) */
  readonly cert: string;
  readonly key: string;
  /** "127.0.0.1" (default), "::1", or "::" for both families (dual-stack: IPv4 peers appear as ::ffff:127.0.0.1) */
  readonly host?: string;
  /** default 0 (any free port); a fixed port such as 443 for tests of a check whose port is fixed */
  readonly port?: number;
  readonly minVersion?: tls.SecureVersion;
  readonly maxVersion?: tls.SecureVersion;
  /** default "DEFAULT:@SECLEVEL=0" when minVersion is below TLS 1.2, else Node's */
  readonly ciphers?: string;
  /** ALPN protocols the server accepts, in its order of preference */
  readonly alpn?: readonly string[];
  /**
   * How to answer a ClientHello without SNI: 'fail' = the server has no certificate
   * for it and the handshake fails (handshake_failure alert); a key pair = served
   * instead of `cert` (a default virtual host). Absent: `cert` is served either way.
   */
  readonly withoutSni?: 'fail' | LabKeyPair;
}

export interface SeenHandshake {
  readonly remoteAddress: string | null;
  /** the SNI the client sent; null when none */
  readonly servername: string | null;
  readonly protocol: string | null;
  readonly alpn: string | null;
  /** the server-side error code when the handshake failed */
  readonly error: string | null;
  /** whether the client resumed an earlier session instead of a full handshake */
  readonly resumed: boolean;
}

export interface LabTlsServer {
  readonly host: string;
  readonly port: number;
  /** TCP connections accepted so far */
  readonly tcpConnections: () => number;
  /**
   * Handshakes, completed or failed, in the order the server finished them. The
   * server may finish after the client did (TLS 1.3 clients finish first), and a
   * client that closes at once can make a completed handshake end in ECONNRESET
   * here: wait with `handshakesSeen` before reading.
   */
  readonly handshakes: SeenHandshake[];
  /** resolves once `count` handshakes are recorded; rejects after `timeoutMs` */
  handshakesSeen(count: number, timeoutMs?: number): Promise<SeenHandshake[]>;
  close(): Promise<void>;
}

function legacyCiphers(minVersion: tls.SecureVersion | undefined): string | undefined {
  return minVersion === 'TLSv1' || minVersion === 'TLSv1.1' ? 'DEFAULT:@SECLEVEL=0' : undefined;
}

export async function startTlsServer(opts: LabTlsServerOptions): Promise<LabTlsServer> {
  const host = opts.host ?? '127.0.0.1';
  const ciphers = opts.ciphers ?? legacyCiphers(opts.minVersion);
  const common = {
    ...(opts.minVersion ? { minVersion: opts.minVersion } : {}),
    ...(opts.maxVersion ? { maxVersion: opts.maxVersion } : {}),
    ...(ciphers ? { ciphers } : {}),
  };
  const named = { cert: opts.cert, key: opts.key };
  const handshakes: SeenHandshake[] = [];
  const sockets = new Set<Socket>();
  let tcpConnections = 0;

  let server: tls.Server;
  if (opts.withoutSni === undefined) {
    server = tls.createServer({ ...common, ...named, ...(opts.alpn ? { ALPNProtocols: [...opts.alpn] } : {}) });
  } else {
    // Node consults SNICallback only when the client sent SNI; the default
    // context (no certificate, or the fallback one) answers everyone else.
    const sniContext = tls.createSecureContext({ ...common, ...named });
    const fallback = opts.withoutSni === 'fail' ? {} : { cert: opts.withoutSni.cert, key: opts.withoutSni.key };
    server = tls.createServer({
      ...common,
      ...fallback,
      ...(opts.alpn ? { ALPNProtocols: [...opts.alpn] } : {}),
      SNICallback: (_name, callback) => callback(null, sniContext),
    });
  }

  server.on('connection', (socket: Socket) => {
    tcpConnections++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.on('secureConnection', (socket: tls.TLSSocket) => {
    const alpn = socket.alpnProtocol;
    handshakes.push({
      remoteAddress: socket.remoteAddress ?? null,
      servername: typeof socket.servername === 'string' ? socket.servername : null,
      protocol: socket.getProtocol(),
      alpn: typeof alpn === 'string' ? alpn : null,
      error: null,
      resumed: socket.isSessionReused(),
    });
    socket.on('error', () => {});
    socket.end();
  });
  server.on('tlsClientError', (error: NodeJS.ErrnoException, socket: tls.TLSSocket) => {
    handshakes.push({
      remoteAddress: socket.remoteAddress ?? null,
      servername: typeof socket.servername === 'string' ? socket.servername : null,
      protocol: null,
      alpn: null,
      error: error.code ?? error.message,
      resumed: false,
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;

  return {
    host,
    port,
    tcpConnections: () => tcpConnections,
    handshakes,
    handshakesSeen: (count, timeoutMs = 2000) =>
      new Promise<SeenHandshake[]>((resolve, reject) => {
        const deadline = Date.now() + timeoutMs;
        const poll = (): void => {
          if (handshakes.length >= count) resolve(handshakes);
          else if (Date.now() > deadline)
            reject(new Error(`lab TLS server saw ${handshakes.length} handshakes, expected ${count}`));
          else setTimeout(poll, 5);
        };
        poll();
      }),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
