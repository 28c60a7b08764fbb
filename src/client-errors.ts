/**
 * What node:http answers itself, before the app sees a request — a request line or headers over its limit
 * (431), a request that does not parse (400), one that took too long to arrive (408) — in the v1 envelope
 * like every other answer (docs/errors.md), instead of node's bare status line. `meta.tool` is the last path
 * segment when the request line could be read, as decisions §2 asks.
 */
import { STATUS_CODES, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { API_VERSION } from './rest/envelope.js';

interface ClientError extends Error {
  readonly code?: string;
  /** what node had read of the request when it gave up */
  readonly rawPacket?: Buffer;
}

const ANSWERS: Record<string, { status: number; message: string }> = {
  HPE_HEADER_OVERFLOW: {
    status: 431,
    message: 'the request line and headers are too large (at most 16 KiB): send long input in a POST body to /graphql',
  },
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, message: 'the request did not arrive in time' },
};
const MALFORMED = { status: 400, message: 'the request is not valid HTTP/1.1' };

/** The last segment of the path in the request line node read, or "" when there is none to read. */
function toolOfRequestLine(raw: Buffer | undefined): string {
  const line = raw?.subarray(0, 4096).toString('latin1').split('\r\n', 1)[0] ?? '';
  const target = /^[A-Z]+ (\/[^\s?#]*)/.exec(line)?.[1] ?? '';
  return target.split('/').filter(Boolean).pop() ?? '';
}

export function answerClientErrors(server: Server): Server {
  server.on('clientError', (error: ClientError, socket: Duplex) => {
    // a connection already answered or gone has no one to read an answer (node's own rule)
    if (!socket.writable || (error.code === 'ECONNRESET' && !error.rawPacket)) {
      socket.destroy();
      return;
    }
    const { status, message } = ANSWERS[error.code ?? ''] ?? MALFORMED;
    const body = JSON.stringify({
      ok: false,
      error: message,
      meta: { tool: toolOfRequestLine(error.rawPacket), version: API_VERSION },
    });
    socket.end(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  });
  return server;
}
