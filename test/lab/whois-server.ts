/**
 * A loopback WHOIS lab (RFC 3912) that plays several servers at once: each
 * virtual server name gets its own loopback address (127.0.0.1, 127.0.0.2, ...)
 * and all listen on the SAME port, as the service uses one whois.port for every
 * server. `resolveHost` maps the names to those addresses, so a referral chain
 * IANA → registry → registrar runs entirely on loopback. Answers are chosen by
 * (server, query line); every query is recorded.
 */
import net, { type Server, type Socket } from 'node:net';

export type WhoisBehaviour =
  /** write this answer and close */
  | string
  | Buffer
  /** accept, read the query, never answer */
  | { stall: true }
  /** stream `bytes` of WHOIS-looking text, then close */
  | { huge: number }
  /** close without writing anything */
  | { closeEarly: true }
  /** reset the connection (RST) without writing anything */
  | { reset: true }
  /** write `text` in pieces of `chunkBytes` every `intervalMs`, then close */
  | { drip: string; chunkBytes: number; intervalMs: number };

/** server name → (query line, or "*" for any) → behaviour */
export type WhoisLabRoutes = Record<string, Record<string, WhoisBehaviour>>;

export interface RecordedWhoisQuery {
  server: string;
  line: string;
}

export interface WhoisLab {
  readonly port: number;
  /** server name → its loopback address */
  readonly addresses: ReadonlyMap<string, string>;
  readonly queries: RecordedWhoisQuery[];
  /** the name map to inject as the client's resolveHost; unknown names fail */
  resolveHost(host: string): Promise<string>;
  close(): Promise<void>;
}

const MAX_QUERY_LINE = 1024;

function listen(server: Server, host: string, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen({ host, port, exclusive: true }, () => {
      server.off('error', reject);
      resolve((server.address() as net.AddressInfo).port);
    });
  });
}

export async function startWhoisLab(routes: WhoisLabRoutes): Promise<WhoisLab> {
  const names = Object.keys(routes);
  const addresses = new Map(names.map((name, i) => [name.toLowerCase(), `127.0.0.${i + 1}`]));
  const byAddress = new Map([...addresses].map(([name, address]) => [address, name]));
  const queries: RecordedWhoisQuery[] = [];
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();

  const answer = (socket: Socket, behaviour: WhoisBehaviour): void => {
    if (typeof behaviour === 'string' || Buffer.isBuffer(behaviour)) {
      socket.end(behaviour);
    } else if ('stall' in behaviour) {
      // keep the socket open; close() destroys it
    } else if ('closeEarly' in behaviour) {
      socket.end();
    } else if ('reset' in behaviour) {
      socket.resetAndDestroy();
    } else if ('huge' in behaviour) {
      const line = Buffer.from('Remarks: the quick brown fox jumps over the lazy dog 0123456789\r\n');
      let left = behaviour.huge;
      const pump = (): void => {
        while (left > 0 && !socket.destroyed) {
          const piece = line.subarray(0, Math.min(line.length, left));
          left -= piece.length;
          if (!socket.write(piece)) {
            socket.once('drain', pump);
            return;
          }
        }
        if (!socket.destroyed) socket.end();
      };
      pump();
    } else {
      const bytes = Buffer.from(behaviour.drip);
      let offset = 0;
      const tick = (): void => {
        if (socket.destroyed) return;
        socket.write(bytes.subarray(offset, offset + behaviour.chunkBytes));
        offset += behaviour.chunkBytes;
        if (offset >= bytes.length) {
          socket.end();
          return;
        }
        const t = setTimeout(() => {
          timers.delete(t);
          tick();
        }, behaviour.intervalMs);
        timers.add(t);
      };
      tick();
    }
  };

  const onConnection = (socket: Socket): void => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    const server = byAddress.get(socket.localAddress ?? '') ?? '?';
    let buffered = '';
    const onData = (chunk: Buffer): void => {
      buffered += chunk.toString('latin1');
      const end = buffered.indexOf('\r\n');
      if (end < 0) {
        if (buffered.length > MAX_QUERY_LINE) socket.destroy();
        return;
      }
      socket.off('data', onData);
      const line = buffered.slice(0, end);
      queries.push({ server, line });
      const table = routes[names.find((n) => n.toLowerCase() === server) ?? ''] ?? {};
      const behaviour = table[line] ?? table['*'];
      answer(socket, behaviour ?? `No match for "${line}".\r\n`);
    };
    socket.on('data', onData);
  };

  const servers: Server[] = [];
  let port = 0;
  // The first address picks a free port; the others bind the same one. Another
  // process may hold it on a later address: then start over with a new port.
  for (let attempt = 0; ; attempt++) {
    try {
      for (const address of addresses.values()) {
        const server = net.createServer(onConnection);
        servers.push(server);
        port = await listen(server, address, port);
      }
      break;
    } catch (err) {
      await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
      port = 0;
      if (attempt >= 5) throw err;
    }
  }

  return {
    port,
    addresses,
    queries,
    async resolveHost(host: string) {
      const address = addresses.get(host.toLowerCase());
      if (address === undefined) throw new Error(`lab: no WHOIS server named ${host}`);
      return address;
    },
    async close() {
      for (const t of timers) clearTimeout(t);
      timers.clear();
      for (const s of sockets) s.destroy();
      await Promise.all(servers.map((s) => new Promise((r) => s.close(r))));
    },
  };
}

/** A loopback port with nothing listening (connections are refused). */
export async function closedPort(): Promise<number> {
  const server = net.createServer();
  const port = await listen(server, '127.0.0.1', 0);
  await new Promise((r) => server.close(r));
  return port;
}
