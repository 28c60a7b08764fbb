/**
 * The ClientHello this side's TLS library (Node's OpenSSL) writes for some options, captured from an
 * in-memory stream: no packet leaves the process. It tells what the library can offer under its policy
 * (security level, configuration), which no API of Node's reports.
 */
import { Duplex } from 'node:stream';
import tls from 'node:tls';

/**
 * The first bytes a client with these options writes, or null when it writes none within `boundMs` or
 * fails at once (OpenSSL's "no protocols available"). The bytes are a handshake record when the library
 * could offer something, an alert otherwise.
 */
export function capturedClientHello(options: tls.ConnectionOptions, boundMs = 2000): Promise<Buffer | null> {
  return new Promise((resolve) => {
    let settled = false;
    let client: tls.TLSSocket | undefined;
    const settle = (bytes: Buffer | null): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      // The first write may happen inside tls.connect(), before `client` is assigned.
      setImmediate(() => {
        client?.destroy();
        wire.destroy();
      });
      resolve(bytes);
    };
    const wire = new Duplex({
      read() {},
      write(chunk: Buffer, _encoding, callback) {
        callback();
        settle(chunk);
      },
    });
    const timer = setTimeout(() => settle(null), boundMs);
    try {
      client = tls.connect({ ...options, socket: wire, rejectUnauthorized: false });
      client.on('error', () => settle(null));
    } catch {
      settle(null);
    }
  });
}
