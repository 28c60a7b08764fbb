/**
 * One keep-alive HTTP/1.1 connection that sends GET requests one at a time and reads answers framed by
 * Content-Length: the load generator of bench/load-mix.ts. It shares the 2 cores with the service it
 * measures, so it does as little as a client can (a general client such as undici's Pool spent about
 * four times the CPU per request here, taken from the service under test). Loopback only.
 */
import { connect, type Socket } from 'node:net';

const HEADER_END = Buffer.from('\r\n\r\n');
const CONTENT_LENGTH = /\r\ncontent-length:\s*(\d+)/i;
const CHUNKED = /\r\ntransfer-encoding:\s*chunked/i;
const CRLF = Buffer.from('\r\n');

/** Where a chunked body starting at `from` ends (RFC 9112 §7.1, no trailers), or -1 while incomplete. */
function chunkedEnd(buffer: Buffer, from: number): number {
  let at = from;
  for (;;) {
    const lineEnd = buffer.indexOf(CRLF, at);
    if (lineEnd < 0) return -1;
    const size = Number.parseInt(buffer.toString('latin1', at, lineEnd), 16);
    at = lineEnd + 2 + size + 2;
    if (size === 0) return at <= buffer.length ? at : -1;
    if (at > buffer.length) return -1;
  }
}

export class KeepAliveClient {
  readonly #host: string;
  readonly #port: number;
  #socket: Socket | null = null;
  #buffer: Buffer = Buffer.alloc(0);
  #waiting: { resolve(status: number): void; reject(e: Error): void } | null = null;

  constructor(origin: string) {
    const url = new URL(origin);
    if (url.hostname !== '127.0.0.1') throw new Error('the load only targets loopback');
    this.#host = url.hostname;
    this.#port = Number(url.port);
  }

  /** GET `path`; resolves with the status once the whole answer is read, rejects after `timeoutMs`. */
  get(path: string, headers: Record<string, string>, timeoutMs: number): Promise<number> {
    const socket = this.#connected();
    let head = `GET ${path} HTTP/1.1\r\nhost: ${this.#host}:${this.#port}\r\n`;
    for (const [name, value] of Object.entries(headers)) head += `${name}: ${value}\r\n`;
    socket.write(`${head}\r\n`);
    return new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#fail(new Error(`no answer within ${timeoutMs} ms`));
      }, timeoutMs);
      this.#waiting = {
        resolve: (status) => {
          clearTimeout(timer);
          resolve(status);
        },
        reject: (e) => {
          clearTimeout(timer);
          reject(e);
        },
      };
    });
  }

  close(): void {
    this.#socket?.destroy();
    this.#socket = null;
  }

  #connected(): Socket {
    if (this.#socket && !this.#socket.destroyed) return this.#socket;
    this.#buffer = Buffer.alloc(0);
    const socket = connect(this.#port, this.#host);
    socket.setNoDelay(true);
    // Events of a connection already replaced by a new one concern no request of this client.
    socket.on('data', (chunk: Buffer) => this.#socket === socket && this.#read(chunk));
    socket.on('error', (e) => this.#socket === socket && this.#fail(e));
    socket.on('close', () => this.#socket === socket && this.#fail(new Error('the connection closed')));
    this.#socket = socket;
    return socket;
  }

  #read(chunk: Buffer): void {
    this.#buffer = this.#buffer.length === 0 ? chunk : Buffer.concat([this.#buffer, chunk]);
    const end = this.#buffer.indexOf(HEADER_END);
    if (end < 0) return;
    const head = this.#buffer.toString('latin1', 0, end);
    const length = CONTENT_LENGTH.exec(head);
    const total = length
      ? end + HEADER_END.length + Number(length[1])
      : CHUNKED.test(head)
        ? chunkedEnd(this.#buffer, end + HEADER_END.length)
        : -2;
    if (total === -2) {
      this.#fail(new Error(`an answer without a length: ${head.split('\r\n')[0]}`));
      return;
    }
    if (total < 0 || this.#buffer.length < total) return;
    const status = Number(head.slice(9, 12));
    this.#buffer = this.#buffer.subarray(total);
    const waiting = this.#waiting;
    this.#waiting = null;
    if (/\r\nconnection:\s*close/i.test(head)) this.close();
    waiting?.resolve(status);
  }

  #fail(e: Error): void {
    const waiting = this.#waiting;
    this.#waiting = null;
    this.close();
    waiting?.reject(e);
  }
}
