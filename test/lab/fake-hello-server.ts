/**
 * A test double for servers no local TLS library can play: it reads the ClientHello, answers with a
 * ServerHello naming the first offered suite it "accepts" (its list, or the client's order), or with a
 * handshake_failure alert, and closes. Debian's OpenSSL 3 (and Node's) cannot accept SSLv3, RC4, DES,
 * 3DES or EXPORT suites, so the hand-built ClientHello probe is tested against this instead; a
 * ServerHello is all that probe reads (it never completes a handshake).
 */
import net, { type AddressInfo } from 'node:net';
import {
  buildAlert,
  buildServerHello,
  readClientHello,
  type ParsedClientHello,
} from '../../src/probes/tls/client-hello.js';

export interface FakeHelloServerOptions {
  /** the protocol versions it speaks, as wire codes (0x0300 SSLv3 … 0x0303 TLS 1.2) */
  readonly versions: readonly number[];
  /** the suites it accepts, in its order of preference */
  readonly suites: readonly number[];
  /** pick by its own order (true) or the client's (false, the default) */
  readonly serverOrder?: boolean;
  /** instead of an alert, refuse by closing the connection */
  readonly refuseByClosing?: boolean;
  /** never answer (time-out tests) */
  readonly silent?: boolean;
  /** answer with these bytes instead (malformed or non-TLS answers) */
  readonly rawAnswer?: Buffer;
}

export interface FakeHelloServer {
  readonly port: number;
  /** every ClientHello it read */
  readonly hellos: ParsedClientHello[];
  close(): Promise<void>;
}

const HANDSHAKE_FAILURE = 40;
const PROTOCOL_VERSION = 70;

export async function startFakeHelloServer(opts: FakeHelloServerOptions): Promise<FakeHelloServer> {
  const hellos: ParsedClientHello[] = [];
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    let received = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk]);
      const hello = readClientHello(received);
      if (hello === null) return;
      socket.removeAllListeners('data');
      hellos.push(hello);
      if (opts.silent) return;
      if (opts.rawAnswer) {
        socket.end(opts.rawAnswer);
        return;
      }
      const version = Math.min(hello.version, Math.max(...opts.versions));
      if (!opts.versions.includes(version)) {
        socket.end(buildAlert(0x0301, PROTOCOL_VERSION));
        return;
      }
      const pick = opts.serverOrder
        ? opts.suites.find((s) => hello.cipherSuites.includes(s))
        : hello.cipherSuites.find((s) => opts.suites.includes(s));
      if (pick === undefined) {
        if (opts.refuseByClosing) socket.destroy();
        else socket.end(buildAlert(version, HANDSHAKE_FAILURE));
        return;
      }
      socket.end(buildServerHello(version, pick));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    hellos,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
