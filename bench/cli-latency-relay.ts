/**
 * A TCP relay on loopback that holds every chunk half a round trip in each direction, so that a lab server
 * behind it answers as a server across the internet does (bench/cli.ts). TCP's own handshake is not held (a
 * relay cannot hold a SYN): each connection costs one round trip less than it would across the internet,
 * which leaves the command's fixed costs less to hide behind, not more.
 */
import net, { type AddressInfo } from 'node:net';

export interface LatencyRelay {
  readonly port: number;
  close(): Promise<void>;
}

/** Copies `from` to `to`, each chunk `delayMs` later, in order; ends and errors pass through. */
function delayedPipe(from: net.Socket, to: net.Socket, delayMs: number): void {
  from.on('data', (chunk) => {
    setTimeout(() => {
      if (!to.destroyed) to.write(chunk);
    }, delayMs);
  });
  from.on('end', () => setTimeout(() => to.end(), delayMs));
  from.on('error', () => to.destroy());
  from.on('close', () => setTimeout(() => to.destroy(), delayMs));
}

/** Listens on 127.0.0.1 (a free port) and relays each connection to 127.0.0.1:`targetPort` with `rttMs`. */
export async function startLatencyRelay(targetPort: number, rttMs: number): Promise<LatencyRelay> {
  const sockets = new Set<net.Socket>();
  const half = rttMs / 2;
  const server = net.createServer((client) => {
    const upstream = net.connect({ host: '127.0.0.1', port: targetPort });
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.setNoDelay(true);
      socket.on('close', () => sockets.delete(socket));
    }
    delayedPipe(client, upstream, half);
    delayedPipe(upstream, client, half);
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
