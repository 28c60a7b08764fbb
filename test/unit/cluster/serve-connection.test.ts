/**
 * The node:http and node:net behaviours the connection hand-over leans on (src/cluster/serve-connection.ts),
 * in one process over loopback: run on each Node version the service supports.
 */
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { connect, createServer as createNetServer, type Server as NetServer, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import {
  serveConnection,
  stopReading,
  trackConnectionsWithoutListening,
} from '../../../src/cluster/serve-connection.js';

const closing: Array<NetServer | HttpServer | Socket> = [];
afterEach(() => {
  for (const c of closing.splice(0)) 'destroy' in c ? c.destroy() : c.close();
});

/** A listener that accepts paused, as the primary does, and gives each accepted socket to `accepted`. */
async function acceptor(accepted: (socket: Socket) => void): Promise<number> {
  const server = createNetServer({ pauseOnConnect: true, allowHalfOpen: true }, accepted);
  closing.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return (server.address() as { port: number }).port;
}

/** The first bytes of `socket`, read and stopped as the primary reads them. */
function firstBytes(socket: Socket): Promise<Buffer> {
  return new Promise((resolve) => {
    socket.once('data', (chunk: Buffer) => resolve(Buffer.concat([chunk, ...stopReading(socket)])));
    socket.resume();
  });
}

function client(port: number): Promise<{ socket: Socket; received: () => string; ended: Promise<string> }> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    closing.push(socket);
    let text = '';
    socket.setEncoding('latin1');
    socket.on('data', (d) => (text += d));
    const ended = new Promise<string>((r) => socket.once('close', () => r(text)));
    socket.once('connect', () => resolve({ socket, received: () => text, ended }));
  });
}

function answering(options: Parameters<typeof createHttpServer>[0] = {}): HttpServer {
  const server = createHttpServer(options, (req, res) => {
    let body = '';
    req.setEncoding('latin1');
    req.on('data', (d) => (body += d));
    req.on('end', () => res.end(`${req.method} ${req.url} ${req.headers['x-part'] ?? ''} ${body.length}`));
  });
  trackConnectionsWithoutListening(server);
  return server;
}

describe('serving a connection accepted elsewhere', () => {
  it('parses the bytes read before the hand-over first, then what the handle reads after it', async () => {
    const server = answering();
    let accepted!: (socket: Socket) => void;
    const socketAccepted = new Promise<Socket>((r) => (accepted = r));
    const port = await acceptor(accepted);
    const c = await client(port);
    const body = 'x'.repeat(100_000);
    c.socket.write(`POST /split HTTP/1.1\r\nHost: t\r\nContent-Length: ${body.length}\r\n`);
    const socket = await socketAccepted;
    const first = await firstBytes(socket);
    // the rest arrives while nothing reads the socket
    await new Promise<void>((r) => c.socket.write(`X-Part: second\r\nConnection: close\r\n\r\n${body}`, () => r()));
    await new Promise((r) => setTimeout(r, 100));
    // stopped: the handle read nothing more into this process
    expect(socket.readableLength).toBe(0);
    serveConnection(server, socket, first);
    expect(await c.ended).toMatch(/\r\n\r\nPOST \/split second 100000$/);
  });

  it('enforces headersTimeout on a server that never listens', async () => {
    const server = answering({ headersTimeout: 200, requestTimeout: 400, connectionsCheckingInterval: 50 });
    const port = await acceptor(async (socket) => serveConnection(server, socket, await firstBytes(socket)));
    const c = await client(port);
    c.socket.write('GET /slow HTTP/1.1\r\nHost: t\r\n'); // and never the end of the headers
    const answer = await Promise.race([c.ended, new Promise<string>((r) => setTimeout(() => r('still open'), 10_000))]);
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('closes idle keep-alive connections of a server that never listens', async () => {
    const server = answering({ keepAliveTimeout: 60_000 });
    const port = await acceptor(async (socket) => serveConnection(server, socket, await firstBytes(socket)));
    const c = await client(port);
    c.socket.write('GET /idle HTTP/1.1\r\nHost: t\r\n\r\n');
    while (!c.received().includes('GET /idle')) await new Promise((r) => setTimeout(r, 10));
    server.closeIdleConnections();
    const answer = await Promise.race([c.ended, new Promise<string>((r) => setTimeout(() => r('still open'), 10_000))]);
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
  });
});
