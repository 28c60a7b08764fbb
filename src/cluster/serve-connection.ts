/**
 * Serving a connection that was accepted elsewhere, together with the bytes already read from it, on a
 * node:http server that never listens (docs/operations.md "Every core"): a worker serves so every connection the
 * primary hands it, and the primary the few requests it answers itself.
 *
 * This leans on three behaviours of node:http and node:net, checked on Node 20, 22 and 24 by
 * test/unit/cluster/serve-connection.test.ts:
 * - once a connection is emitted, the server's parser reads the socket's handle directly (it "consumes"
 *   the stream), and a 'data' event on the socket still goes to the same parser: bytes emitted then, in
 *   the same turn, are parsed before anything the handle reads afterwards;
 * - the server tracks its connections (headersTimeout, requestTimeout, closeIdleConnections) from its
 *   'listening' event on, which a server that never listens has to emit itself;
 * - `socket.pause()` does not stop the handle reading (only the stream's 'data' events): bytes the
 *   handle reads after that are kept in this process, and once the socket is sent to another process
 *   they are dropped. So the primary stops the handle itself before sending (`stopReading`).
 */
import type { Server } from 'node:http';
import type { Socket } from 'node:net';

/** Lets a server that never listens enforce its time-outs and close its idle connections. */
export function trackConnectionsWithoutListening(server: Server): void {
  server.emit('listening');
}

/** Serves `socket` on `server`, its first bytes as if the server had read them itself. */
export function serveConnection(server: Server, socket: Socket, firstBytes: Buffer): void {
  if (socket.destroyed) return;
  // A half-close by the client (its request sent, then FIN) must still get the answer, as on the
  // sockets node:http accepts itself.
  socket.allowHalfOpen = true;
  server.emit('connection', socket);
  if (firstBytes.length > 0) socket.emit('data', firstBytes);
  // The stream may have been paused where the bytes were read: reading starts again, into the parser.
  socket.resume();
}

interface ReadingHandle {
  reading?: boolean;
  readStop?(): number;
}

/**
 * Stops the socket reading and returns what its stream had already buffered (normally nothing: the
 * first chunk arrives as a 'data' event). After this, no byte of the connection is read in this
 * process until it is served here or sent on.
 */
export function stopReading(socket: Socket): Buffer[] {
  socket.pause();
  const buffered: Buffer[] = [];
  for (let chunk = socket.read() as Buffer | null; chunk !== null; chunk = socket.read() as Buffer | null)
    buffered.push(chunk);
  // read() may have asked the handle for more: stopped here, in the same turn, before it could read.
  const handle = (socket as unknown as { _handle?: ReadingHandle | null })._handle;
  if (handle?.reading) {
    handle.reading = false;
    handle.readStop?.();
  }
  return buffered;
}
