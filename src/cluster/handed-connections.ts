/**
 * A worker's side of the connections (docs/operations.md "Every core"): workers never listen. The primary accepts
 * every connection, reads its first bytes and sends the socket with them; the worker's HTTP server
 * serves it from there on, keep-alive requests included (a connection stays with the worker it was
 * handed to). The socket is the client's own, so its peer address is the client's.
 */
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { serveConnection, trackConnectionsWithoutListening } from './serve-connection.js';
import { isHandedConnection, type PrimaryChannel, type WorkerState } from './worker-messages.js';

/** While draining, idle keep-alive connections are closed this often (a busy one turns idle after its answer). */
const DRAIN_SWEEP_MS = 100;

export interface ConnectionIntake {
  /** Tells the primary that this worker takes connections from now on. */
  ready(): void;
  /**
   * Takes no new connection (the primary is told), answers every further request with
   * `connection: close`, closes idle connections, and resolves once every connection has closed.
   */
  drain(): Promise<void>;
}

export function takeHandedConnections(server: Server, channel: PrimaryChannel): ConnectionIntake {
  trackConnectionsWithoutListening(server);
  const open = new Set<Socket>();
  let draining = false;
  const drained: Array<() => void> = [];

  // Before the app's own listener: the header must be set before the answer is written.
  server.prependListener('request', (_request, response) => {
    if (draining) response.setHeader('connection', 'close');
  });

  channel.on('message', (message, handle) => {
    if (!isHandedConnection(message)) return;
    // No handle: the client closed the connection while it was on its way here.
    if (!handle) return;
    const socket = handle as Socket;
    open.add(socket);
    socket.once('close', () => {
      open.delete(socket);
      if (open.size === 0) for (const resolve of drained.splice(0)) resolve();
    });
    // A connection sent before the primary heard that this worker drains is still served: its client
    // has sent a request and waits for the answer.
    serveConnection(server, socket, Buffer.from(message.netdiagConnection, 'base64'));
  });

  const tell = (state: WorkerState['netdiagWorker']): void => {
    try {
      channel.send({ netdiagWorker: state } satisfies WorkerState);
    } catch {
      // the primary is gone: there is no one left to tell
    }
  };

  return {
    ready: () => tell('ready'),
    drain() {
      if (!draining) {
        draining = true;
        tell('stopping');
      }
      if (open.size === 0) return Promise.resolve();
      return new Promise<void>((resolve) => {
        server.closeIdleConnections();
        const sweep = setInterval(() => server.closeIdleConnections(), DRAIN_SWEEP_MS);
        drained.push(() => {
          clearInterval(sweep);
          resolve();
        });
      });
    },
  };
}
