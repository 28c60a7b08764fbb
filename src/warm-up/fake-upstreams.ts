/**
 * The upstreams the warm-up talks to, in this process and on loopback only (127.0.0.1, port 0): a DNS
 * server that knows one name, a TLS server and an HTTP server for it. A warm-up request reaches nothing
 * else: `.test` names never resolve on the internet (RFC 6761 §6.2), and every other name is NXDOMAIN.
 */
import dgram from 'node:dgram';
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createServer as createTlsServer, type Server as TlsServer } from 'node:tls';
import dnsPacket from 'dns-packet';
import { selfSignedCertificate } from './certificate.js';

/** The one name the fake DNS server knows; the TLS server's certificate names it. */
export const WARM_UP_NAME = 'warm-up.netdiag.test';
const LOOPBACK = '127.0.0.1';

export interface FakeUpstreams {
  readonly dnsPort: number;
  readonly tlsPort: number;
  readonly httpPort: number;
  close(): Promise<void>;
}

/** One answer: A 127.0.0.1 for the name, NOERROR without records for its other types, NXDOMAIN for any other name. */
function answer(query: dnsPacket.Packet): Buffer {
  const question = query.questions?.[0];
  const known = question !== undefined && question.name.toLowerCase().replace(/\.$/, '') === WARM_UP_NAME;
  return dnsPacket.encode({
    type: 'response',
    id: query.id ?? 0,
    flags: dnsPacket.RECURSION_DESIRED | dnsPacket.RECURSION_AVAILABLE | (known ? 0 : 3), // rcode 3: NXDOMAIN
    questions: query.questions ?? [],
    answers: known && question.type === 'A' ? [{ type: 'A', name: question.name, ttl: 60, data: LOOPBACK }] : [],
  });
}

function startDns(): Promise<dgram.Socket> {
  const socket = dgram.createSocket('udp4');
  socket.on('message', (message, from) => {
    let query: dnsPacket.Packet;
    try {
      query = dnsPacket.decode(message);
    } catch {
      return;
    }
    socket.send(answer(query), from.port, from.address);
  });
  return new Promise((ready, fail) => {
    socket.once('error', fail);
    socket.bind(0, LOOPBACK, () => ready(socket));
  });
}

function listening<T extends HttpServer | TlsServer>(server: T): Promise<T> {
  return new Promise((ready, fail) => {
    server.once('error', fail);
    server.listen(0, LOOPBACK, () => ready(server));
  });
}

export async function startFakeUpstreams(): Promise<FakeUpstreams> {
  const { cert, key } = selfSignedCertificate(WARM_UP_NAME);
  const page = (_: unknown, response: import('node:http').ServerResponse) =>
    response
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      .end('<!doctype html><title>warm-up</title>');
  const [dns, tls, http] = await Promise.all([
    startDns(),
    listening(createTlsServer({ cert, key }, (socket) => socket.end())),
    listening(createHttpServer(page)),
  ]);
  return {
    dnsPort: dns.address().port,
    tlsPort: (tls.address() as AddressInfo).port,
    httpPort: (http.address() as AddressInfo).port,
    async close() {
      http.closeAllConnections();
      await Promise.all([
        new Promise<void>((done) => dns.close(() => done())),
        new Promise<void>((done) => tls.close(() => done())),
        new Promise<void>((done) => http.close(() => done())),
      ]);
    },
  };
}
