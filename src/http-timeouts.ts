/** The node:http bounds every server of ours gets (main.ts, and the socket-level tests through http-server.ts). */
import type { Server } from 'node:http';

export function applyHttpTimeouts(server: Server): Server {
  server.keepAliveTimeout = 5_000;
  server.headersTimeout = 10_000;
  server.requestTimeout = 60_000;
  return server;
}
