/**
 * The node:http side of the app, as `npm start` runs it and as the socket-level tests run it: the
 * fetch-style app behind @whatwg-node/server's adapter, with the connection's peer address passed in.
 */
import { createServer, type IncomingMessage, type RequestListener, type Server } from 'node:http';
import { createServerAdapter } from '@whatwg-node/server';
import type { App } from './app.js';
import { answerClientErrors } from './client-errors.js';
import { applyHttpTimeouts } from './http-timeouts.js';

/** The app as a node:http request listener. */
export function requestListenerFor(app: App): RequestListener {
  return createServerAdapter<{ req: IncomingMessage }>((request, ctx) =>
    app.fetch(request, { peerAddress: ctx.req.socket.remoteAddress ?? null }),
  ) as unknown as RequestListener;
}

export function createHttpServer(app: App): Server {
  return answerClientErrors(applyHttpTimeouts(createServer(requestListenerFor(app))));
}
