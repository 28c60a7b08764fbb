/** The test processes' loopback rule (test/setup/loopback-only.ts) holds: nothing but loopback is reached. */
import dgram from 'node:dgram';
import net from 'node:net';
import { describe, expect, it } from 'vitest';

function connectError(host: string): Promise<NodeJS.ErrnoException | null> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port: 9 });
    socket.once('error', (e) => resolve(e));
    socket.once('connect', () => {
      socket.destroy();
      resolve(null);
    });
  });
}

describe('the loopback rule of the test processes', () => {
  it('fails a TCP connection to a public or private address as unreachable, before any packet', async () => {
    for (const host of ['192.0.2.1', '10.1.2.3', '2001:db8::1']) {
      expect((await connectError(host))?.code).toBe('ENETUNREACH');
    }
  });

  it('lets loopback through (refused: nothing listens on port 9)', async () => {
    expect((await connectError('127.0.0.1'))?.code).toBe('ECONNREFUSED');
  });

  it('fails a UDP datagram to a public address', async () => {
    const socket = dgram.createSocket('udp4');
    const error = await new Promise<Error | null>((resolve) =>
      socket.send(Buffer.from('x'), 53, '198.51.100.1', resolve),
    );
    socket.close();
    expect((error as NodeJS.ErrnoException | null)?.code).toBe('ENETUNREACH');
  });
});
