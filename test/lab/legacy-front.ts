/**
 * A front for a lab TLS server that also "accepts" legacy suites no local TLS library can serve (3DES,
 * RC4, …; neither Node's OpenSSL 3 nor Debian's builds them): it reads each ClientHello; one that offers
 * a legacy suite with a version the front takes is answered with a ServerHello naming that suite (then
 * closed), as such a server would start its answer; every other connection is passed to the real server
 * unchanged. A test double for tls-rating's hand-built ClientHello probe, which reads no further than
 * the ServerHello.
 */
import net, { type AddressInfo } from 'node:net';
import { buildServerHello, readClientHello } from '../../src/probes/tls/client-hello.js';

export interface LegacyFront {
  readonly port: number;
  close(): Promise<void>;
}

export async function startLegacyFront(options: {
  /** the real server on loopback */
  readonly backendPort: number;
  /** legacy suites accepted, in preference order */
  readonly suites: readonly number[];
  /** wire versions with which they are accepted (0x0303 = TLS 1.2) */
  readonly versions: readonly number[];
  /** hold every connection this long before passing it on (a slow server, for the rating's deadline) */
  readonly delayMs?: number;
}): Promise<LegacyFront> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => {});
    let received = Buffer.alloc(0);
    const onData = (chunk: Buffer): void => {
      received = Buffer.concat([received, chunk]);
      let hello: ReturnType<typeof readClientHello>;
      try {
        hello = readClientHello(received);
      } catch {
        hello = null;
      }
      if (hello === null && received.length < 16 * 1024) return;
      client.off('data', onData);
      const legacy =
        hello && options.versions.includes(hello.version)
          ? options.suites.find((s) => hello.cipherSuites.includes(s))
          : undefined;
      if (hello && legacy !== undefined) {
        client.end(buildServerHello(hello.version, legacy));
        return;
      }
      if (options.delayMs) {
        client.pause();
        setTimeout(() => {
          client.resume();
          passOn();
        }, options.delayMs);
      } else passOn();
    };
    const passOn = (): void => {
      if (client.destroyed) return;
      const backend = net.connect({ host: '127.0.0.1', port: options.backendPort });
      sockets.add(backend);
      backend.on('close', () => sockets.delete(backend));
      backend.on('error', () => client.destroy());
      backend.write(received);
      client.pipe(backend);
      backend.pipe(client);
      client.on('close', () => backend.destroy());
      backend.on('close', () => client.destroy());
    };
    client.on('data', onData);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
