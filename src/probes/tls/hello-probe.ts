/**
 * One hand-built ClientHello (client-hello.ts) to an address the target guard has already checked, and
 * the server's first answer: the ServerHello's version and suite, or its alert. The connection is
 * closed as soon as the answer is read, without completing the handshake (testssl.sh probes the same
 * way): this is how tls-rating learns about suites and versions the local TLS library cannot offer.
 *
 * Bounds as the TLS probe's (decisions §8): the TCP connect by `timeoutMs`, the answer by
 * `handshakeTimeoutMs`; at most MAX_ANSWER_BYTES are kept while waiting for a whole ServerHello.
 */
import { abortedError, formatUpstream } from '../tcp/connect.js';
import { connectChecked } from './checked-connect.js';
import {
  buildClientHello,
  HelloParseError,
  readServerAnswer,
  type ClientHelloSpec,
  type HelloAnswer,
} from './client-hello.js';
import { TlsProbeError } from './probe-error.js';

export interface HelloProbeOptions {
  /** IP literal (already checked by the target guard) */
  readonly ip: string;
  readonly port: number;
  readonly hello: ClientHelloSpec;
  readonly timeoutMs: number;
  readonly handshakeTimeoutMs?: number;
  readonly signal?: AbortSignal;
  /** called with socket.remoteAddress right after the TCP connect, before any byte is sent; throw to stop */
  readonly assertRemote?: (remoteAddress: string) => void;
}

/** What a hello probe learnt: the server's answer, or `closed` when it hung up without one. */
export type HelloProbeResult = HelloAnswer | { readonly kind: 'closed' };

/** A ServerHello is well under 1 KiB; a server that sends more before it is complete is not answering one. */
const MAX_ANSWER_BYTES = 32 * 1024;

/**
 * Errors: TlsProbeError TIMEOUT (tcp or handshake phase), REFUSED, UNREACHABLE, MALFORMED (broken
 * records), ABORTED; whatever `assertRemote` throws is passed on unchanged.
 */
export async function probeServerHello(opts: HelloProbeOptions): Promise<HelloProbeResult> {
  const { timeoutMs, signal } = opts;
  const upstream = formatUpstream(opts.ip, opts.port);
  const { socket } = await connectChecked({ ...opts, noDelay: true }, upstream);

  const boundMs = opts.handshakeTimeoutMs ?? timeoutMs;
  return new Promise<HelloProbeResult>((resolve, reject) => {
    let received = Buffer.alloc(0);
    let settled = false;
    const finish = (outcome: () => void): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
      socket.removeAllListeners('data');
      socket.on('error', () => {});
      socket.destroy();
      outcome();
    };
    const onData = (chunk: Buffer): void => {
      received = Buffer.concat([received, chunk]);
      let answer: HelloAnswer | null;
      try {
        answer = readServerAnswer(received);
      } catch (error) {
        const message = error instanceof HelloParseError ? error.message : String(error);
        finish(() =>
          reject(
            new TlsProbeError(
              'MALFORMED',
              upstream,
              'handshake',
              null,
              `${upstream} answered the ClientHello with ${message}`,
            ),
          ),
        );
        return;
      }
      if (answer !== null) finish(() => resolve(answer));
      else if (received.length > MAX_ANSWER_BYTES)
        finish(() =>
          reject(
            new TlsProbeError(
              'TOO_LARGE',
              upstream,
              'handshake',
              null,
              `${upstream} sent over ${MAX_ANSWER_BYTES} bytes without a whole ServerHello`,
            ),
          ),
        );
    };
    // A server that refuses by hanging up (a reset, or an orderly close) gave no ServerHello.
    const onClosed = (): void => finish(() => resolve({ kind: 'closed' }));
    const onAbort = (): void =>
      finish(() => reject(new TlsProbeError('ABORTED', upstream, 'handshake', null, abortedError(upstream).message)));
    const timer = setTimeout(
      () =>
        finish(() =>
          reject(
            new TlsProbeError(
              'TIMEOUT',
              upstream,
              'handshake',
              null,
              `${upstream} did not answer the ClientHello within ${boundMs} ms`,
            ),
          ),
        ),
      boundMs,
    );
    socket.on('data', onData);
    socket.once('end', onClosed);
    socket.once('close', onClosed);
    socket.once('error', onClosed);
    if (signal?.aborted) onAbort();
    else signal?.addEventListener('abort', onAbort, { once: true });
    socket.write(buildClientHello(opts.hello));
  });
}
