/**
 * The primary's API port (docs/operations.md "Every core", "Health and readiness"). The primary owns the listening socket;
 * the workers never listen. For each new connection it waits for the first bytes (a bounded time, and
 * a bounded number of connections waiting at once: past either, the connection goes on at once), then:
 *
 * - a liveness probe (`GET`/`HEAD /healthz`, liveness-probe.ts) is answered here, `connection: close`:
 *   the primary does no check work, so a busy or stuck worker cannot fail liveness;
 * - anything else goes, with the bytes read, to a ready worker: the one with the fewest connections
 *   still on their way to it, taking turns among equals. A worker is ready from its `ready` message
 *   until it says it drains, disconnects or exits; a starting worker gets nothing;
 * - while no worker is ready (all of them died and are being replaced), the primary answers itself
 *   (`answerHere`: 503 with Retry-After).
 *
 * Keep-alive connections stay with the worker they were handed to: the primary sees only the first
 * request of each connection.
 */
import type { Worker } from 'node:cluster';
import { createServer as createHttpServer, type RequestListener } from 'node:http';
import { createServer as createNetServer, type AddressInfo, type Socket } from 'node:net';
import { applyHttpTimeouts } from '../http-timeouts.js';
import type { Logger } from '../log.js';
import { listenOn } from './listen.js';
import { isLivenessProbe } from './liveness-probe.js';
import { serveConnection, stopReading, trackConnectionsWithoutListening } from './serve-connection.js';
import type { HandedConnection } from './worker-messages.js';

/** A client that has sent nothing by then goes to a worker anyway, which waits for its request. */
export const FIRST_BYTES_WAIT_MS = 1_000;
/** Connections waiting for their first bytes at once; past it a new one goes to a worker at once. */
export const MAX_WAITING_FOR_FIRST_BYTES = 1_024;

const NOTHING = Buffer.alloc(0);

export interface ConnectionRouter {
  /** Opens the API port (on the first ready worker: the port opens when a request can be answered). */
  listen(host: string, port: number): Promise<AddressInfo>;
  /** The worker takes connections from now on. */
  ready(worker: Worker): void;
  /** The worker takes no new connection (it drains, disconnected or exited). */
  withdraw(worker: Worker): void;
  /** The worker is gone: connections still queued for it are closed (its client may retry). */
  forget(worker: Worker): void;
  readyCount(): number;
  /** Stops accepting; connections still waiting for their first bytes are closed. */
  close(): void;
}

export function createConnectionRouter(answerHere: RequestListener, logger: Logger): ConnectionRouter {
  const ready: Worker[] = [];
  /** per worker: sockets handed to it whose sending has not completed (Node sends one handle at a time) */
  const onTheirWay = new Map<Worker, Set<Socket>>();
  let turn = 0;
  const waiting = new Set<Socket>();

  const here = applyHttpTimeouts(createHttpServer(answerHere));
  trackConnectionsWithoutListening(here);

  // pauseOnConnect: nothing is read before this module asks; noDelay and allowHalfOpen are what
  // node:http's own listening sockets get, and stay with the socket into the worker.
  const server = createNetServer({ pauseOnConnect: true, noDelay: true, allowHalfOpen: true }, accept);

  function accept(socket: Socket): void {
    // A reset before the connection is served or sent on: nothing to answer.
    socket.on('error', () => socket.destroy());
    if (waiting.size >= MAX_WAITING_FOR_FIRST_BYTES) {
      route(socket, NOTHING);
      return;
    }
    waiting.add(socket);
    const done = (firstBytes: Buffer | null) => {
      clearTimeout(timer);
      socket.off('data', done);
      socket.off('end', closed);
      socket.off('close', closed);
      waiting.delete(socket);
      if (firstBytes === null) {
        socket.destroy();
        return;
      }
      const buffered = stopReading(socket);
      route(socket, buffered.length > 0 ? Buffer.concat([firstBytes, ...buffered]) : firstBytes);
    };
    const closed = () => done(null);
    const timer = setTimeout(() => done(NOTHING), FIRST_BYTES_WAIT_MS);
    socket.on('data', done);
    socket.once('end', closed);
    socket.once('close', closed);
    // Accepted paused (pauseOnConnect): reading starts here, and stops again at the first bytes.
    socket.resume();
  }

  function route(socket: Socket, firstBytes: Buffer): void {
    if (socket.destroyed) return;
    const worker = isLivenessProbe(firstBytes) ? undefined : nextWorker();
    if (!worker) {
      serveConnection(here, socket, firstBytes);
      return;
    }
    const mine = onTheirWay.get(worker)!;
    mine.add(socket);
    const message: HandedConnection = { netdiagConnection: firstBytes.toString('base64') };
    worker.send(message, socket, (error: Error | null) => {
      mine.delete(socket);
      if (error) socket.destroy();
    });
  }

  function nextWorker(): Worker | undefined {
    let chosen: Worker | undefined;
    let fewest = Number.POSITIVE_INFINITY;
    for (let i = 0; i < ready.length; i++) {
      const worker = ready[(turn + i) % ready.length]!;
      const load = onTheirWay.get(worker)?.size ?? 0;
      if (load < fewest) {
        chosen = worker;
        fewest = load;
      }
    }
    turn = ready.length > 0 ? (turn + 1) % ready.length : 0;
    return chosen;
  }

  function withdraw(worker: Worker): void {
    const at = ready.indexOf(worker);
    if (at >= 0) ready.splice(at, 1);
  }

  return {
    async listen(host, port) {
      const address = await listenOn(server, host, port, 'HOST / PORT / server.host / server.port');
      // Once listening, an error is one accept that failed (e.g. out of file descriptors): said, not fatal.
      server.on('error', (e) => logger.error('accept_failed', { message: e.message }));
      return address;
    },
    ready(worker) {
      if (ready.includes(worker)) return;
      ready.push(worker);
      if (!onTheirWay.has(worker)) onTheirWay.set(worker, new Set());
    },
    withdraw,
    forget(worker) {
      withdraw(worker);
      for (const socket of onTheirWay.get(worker) ?? []) socket.destroy();
      onTheirWay.delete(worker);
    },
    readyCount: () => ready.length,
    close() {
      server.close();
      for (const socket of waiting) socket.destroy();
    },
  };
}
