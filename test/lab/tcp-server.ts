/**
 * Plain TCP fakes on loopback for probe tests: a server that behaves as told,
 * a port nobody listens on, and a listener that never answers a SYN.
 */
import net, { type AddressInfo } from 'node:net';
import { Worker } from 'node:worker_threads';

export interface LabTcpServer {
  readonly host: string;
  readonly port: number;
  readonly connections: () => number;
  close(): Promise<void>;
}

/**
 * Accepts connections and hands each to `onConnection`; the default handler
 * reads and answers nothing (a server that stalls every handshake).
 */
export async function startTcpServer(
  onConnection: (socket: net.Socket) => void = () => {},
  host = '127.0.0.1',
): Promise<LabTcpServer> {
  const sockets = new Set<net.Socket>();
  let connections = 0;
  const server = net.createServer((socket) => {
    connections++;
    sockets.add(socket);
    socket.on('error', () => {});
    socket.on('close', () => sockets.delete(socket));
    onConnection(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return {
    host,
    port: (server.address() as AddressInfo).port,
    connections: () => connections,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A loopback port with no listener (bound, then released): connecting to it is refused. */
export async function unusedPort(host = '127.0.0.1'): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const port = (server.address() as AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export interface Blackhole {
  readonly host: string;
  readonly port: number;
  close(): Promise<void>;
}

/*
 * The worker listens with a backlog of 1 and then blocks its own event loop, so
 * nothing ever accepts: the kernel completes handshakes until the accept queue is
 * full, then drops further SYNs (Linux drops them when the queue is full, with
 * net.ipv4.tcp_abort_on_overflow at its default 0). A connect then gets no answer,
 * which is what a filtering firewall looks like, without iptables.
 */
const BLACKHOLE_WORKER = `
const { workerData, parentPort } = require('node:worker_threads');
const net = require('node:net');
const gate = new Int32Array(workerData.gate);
const server = net.createServer();
server.listen({ port: 0, host: workerData.host, backlog: 1 }, () => {
  parentPort.postMessage(server.address().port);
  Atomics.wait(gate, 0, 0);
  server.close();
});
`;

/** How long a filler connection may take before we conclude the queue is full. */
const FILL_PROBE_MS = 300;
const MAX_FILLERS = 8;

function tryConnect(host: string, port: number): Promise<net.Socket | null> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const timer = setTimeout(() => {
      socket.destroy();
      resolve(null);
    }, FILL_PROBE_MS);
    socket.once('connect', () => {
      clearTimeout(timer);
      resolve(socket);
    });
    socket.once('error', () => {
      clearTimeout(timer);
      socket.destroy();
      resolve(null);
    });
  });
}

/** A loopback listener whose accept queue is full: SYNs to it go unanswered. */
export async function startBlackhole(host = '127.0.0.1'): Promise<Blackhole> {
  const gate = new SharedArrayBuffer(4);
  const worker = new Worker(BLACKHOLE_WORKER, { eval: true, workerData: { gate, host } });
  const port = await new Promise<number>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  const fillers: net.Socket[] = [];
  for (let i = 0; i < MAX_FILLERS; i++) {
    const socket = await tryConnect(host, port);
    if (socket === null) break;
    socket.on('error', () => {});
    fillers.push(socket);
  }
  if (fillers.length === MAX_FILLERS)
    throw new Error('the blackhole listener kept accepting: cannot emulate a filtered port here');
  return {
    host,
    port,
    close: async () => {
      for (const socket of fillers) socket.destroy();
      // Wake the worker so that it closes its listener, then make sure it is gone.
      Atomics.store(new Int32Array(gate), 0, 1);
      Atomics.notify(new Int32Array(gate), 0);
      await worker.terminate();
    },
  };
}
