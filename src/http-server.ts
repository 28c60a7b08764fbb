/**
 * The node:http side of the app, as `npm start` runs it and as the socket-level tests run it: the
 * fetch-style app behind @whatwg-node/server's adapter, with the connection's peer address passed in.
 */
import { createServer, type IncomingMessage, type RequestListener, type Server } from 'node:http';
import { createServerAdapter } from '@whatwg-node/server';
import type { App } from './app.js';
import { answerClientErrors } from './client-errors.js';
import { applyHttpTimeouts } from './http-timeouts.js';
import { toOriginForm } from './net/request-target.js';

/** The app as a node:http request listener; an absolute-form target is read as its path (src/net/request-target.ts). */
export function requestListenerFor(app: App): RequestListener {
  const adapter = createServerAdapter<{ req: IncomingMessage }>((request, ctx) =>
    app.fetch(request, { peerAddress: ctx.req.socket.remoteAddress ?? null }),
  ) as unknown as RequestListener;
  return (req, res) => {
    toOriginForm(req);
    adapter(req, res);
  };
}

export function createHttpServer(app: App): Server {
  return answerClientErrors(applyHttpTimeouts(createServer(requestListenerFor(app))));
}
