/**
 * One SMTP session with an address the target guard has already checked, for the mail transport
 * checks: the greeting, EHLO, and — when offered and asked for — STARTTLS and a TLS handshake on the
 * same socket (RFC 3207). No mail is ever sent: after EHLO the client sends only STARTTLS and QUIT.
 * This module never resolves names.
 *
 * Bounds: the TCP connect `connectTimeoutMs`; each reply `replyTimeoutMs`; the TLS handshake
 * `handshakeTimeoutMs`; all of it `sessionTimeoutMs` (each step gets what is left of it). Replies are
 * capped by replies.ts (4 KiB per line, 64 lines).
 *
 * After a completed handshake the client says QUIT inside TLS and closes (RFC 5321 §4.1.1.10),
 * without waiting for the 221.
 */
import type net from 'node:net';
import { performance } from 'node:perf_hooks';
import { ProbeError, type ProbeErrorKind } from '../errors.js';
import { problemText, ReplyParser, replyText, type SmtpReply } from './replies.js';
import { abortedError, connectTcp, elapsedSince, formatUpstream } from '../tcp/connect.js';
import { tlsHandshakeOverSocket, TlsProbeError, type TlsHandshakeResult } from '../tls/prober.js';

export type { SmtpReply } from './replies.js';

export interface SmtpSessionOptions {
  /** an IP literal the target guard returned */
  readonly ip: string;
  readonly port: number;
  /** SNI for the STARTTLS handshake; null (or an IP literal) sends none */
  readonly servername: string | null;
  /** the name sent in EHLO (config smtp.heloName) */
  readonly heloName: string;
  /** upgrade with STARTTLS when the server offers it */
  readonly starttls: boolean;
  readonly connectTimeoutMs: number;
  readonly replyTimeoutMs: number;
  readonly handshakeTimeoutMs: number;
  readonly sessionTimeoutMs: number;
  readonly signal?: AbortSignal;
  /** trust anchors for the chain verdict (tests: the lab root) */
  readonly ca?: string;
  /** the guard's re-check of the socket's remote address, before any byte is read or sent */
  readonly assertRemote?: (remoteAddress: string) => void;
}

export interface StarttlsOutcome {
  /** the reply to STARTTLS; null when none came (time-out, closed) */
  readonly reply: SmtpReply | null;
  /** the completed handshake; null when the command or the handshake failed */
  readonly handshake: TlsHandshakeResult | null;
  /** why there is no handshake; null when there is one */
  readonly error: string | null;
}

export interface SmtpSessionResult {
  readonly remoteAddress: string;
  /** the 220 greeting */
  readonly greeting: SmtpReply;
  /** the EHLO reply (250) */
  readonly ehlo: SmtpReply;
  /** the EHLO reply's extension lines (every line after the first), as sent */
  readonly extensions: readonly string[];
  readonly starttlsOffered: boolean;
  /** null when STARTTLS was not offered or not asked for */
  readonly starttls: StarttlsOutcome | null;
  readonly connectMs: number;
  readonly totalMs: number;
}

export type SmtpStage = 'connect' | 'greeting' | 'ehlo';

/**
 * The session could not reach EHLO's answer. `stage` says where; `reply` is the server's refusal
 * when it sent one (a 421/554 greeting, a refused EHLO).
 */
export class SmtpProbeError extends ProbeError {
  constructor(
    kind: ProbeErrorKind,
    upstream: string,
    readonly stage: SmtpStage,
    readonly reply: SmtpReply | null,
    message: string,
  ) {
    super(kind, upstream, message);
  }
}

/** STARTTLS in the EHLO keywords (RFC 3207 §4: the keyword is "STARTTLS", case-insensitive like all keywords). */
export function offersStarttls(extensions: readonly string[]): boolean {
  return extensions.some((line) => /^STARTTLS(\s|$)/i.test(line));
}

export async function smtpSession(opts: SmtpSessionOptions): Promise<SmtpSessionResult> {
  const upstream = formatUpstream(opts.ip, opts.port);
  const startedAt = performance.now();
  const sessionEnds = startedAt + opts.sessionTimeoutMs;
  const left = (bound: number) => Math.max(1, Math.min(bound, sessionEnds - performance.now()));

  const connected = await connectTcp({
    ip: opts.ip,
    port: opts.port,
    timeoutMs: left(opts.connectTimeoutMs),
    ...(opts.signal ? { signal: opts.signal } : {}),
  });
  if (connected.kind === 'timeout')
    throw new SmtpProbeError(
      'TIMEOUT',
      upstream,
      'connect',
      null,
      `no answer from ${upstream} within ${opts.connectTimeoutMs} ms (port ${opts.port} may be filtered on the way out)`,
    );
  if (connected.kind === 'failed')
    throw new SmtpProbeError(
      connected.code === 'ECONNREFUSED' ? 'REFUSED' : 'UNREACHABLE',
      upstream,
      'connect',
      null,
      `TCP connect to ${upstream} failed: ${connected.message}`,
    );

  const { socket } = connected;
  const conversation = new Conversation(socket, upstream, opts.signal);
  let handedOver = false;
  try {
    const remoteAddress = socket.remoteAddress;
    if (remoteAddress === undefined)
      throw new SmtpProbeError('UNREACHABLE', upstream, 'connect', null, `${upstream} closed right after connecting`);
    opts.assertRemote?.(remoteAddress);

    const greeting = await conversation.reply(left(opts.replyTimeoutMs), 'greeting');
    // RFC 5321 §3.1: 220 is a greeting; 554 (and 421) is a server that will not talk to us
    if (greeting.code !== 220)
      throw new SmtpProbeError(
        'UNREACHABLE',
        upstream,
        'greeting',
        greeting,
        `${upstream} refused the session in its greeting: ${replyText(greeting)}`,
      );
    conversation.send(`EHLO ${opts.heloName}`);
    const ehlo = await conversation.reply(left(opts.replyTimeoutMs), 'ehlo');
    if (ehlo.code !== 250)
      throw new SmtpProbeError('UNREACHABLE', upstream, 'ehlo', ehlo, `${upstream} refused EHLO: ${replyText(ehlo)}`);
    const extensions = ehlo.lines.slice(1);
    const starttlsOffered = offersStarttls(extensions);
    const result = (starttls: StarttlsOutcome | null): SmtpSessionResult => ({
      remoteAddress,
      greeting,
      ehlo,
      extensions,
      starttlsOffered,
      starttls,
      connectMs: connected.elapsedMs,
      totalMs: elapsedSince(startedAt),
    });
    if (!starttlsOffered || !opts.starttls) {
      conversation.quit();
      return result(null);
    }

    conversation.send('STARTTLS');
    let reply: SmtpReply;
    try {
      reply = await conversation.reply(left(opts.replyTimeoutMs), 'ehlo');
    } catch (e) {
      if (e instanceof ProbeError && e.kind === 'ABORTED') throw e;
      return result({ reply: null, handshake: null, error: `STARTTLS got no reply: ${(e as Error).message}` });
    }
    if (reply.code !== 220) {
      conversation.quit();
      return result({ reply, handshake: null, error: `STARTTLS was refused: ${replyText(reply)}` });
    }
    // RFC 3207 §5: bytes after the 220 would be read as if they came through TLS (a command injection)
    if (conversation.pendingBytes > 0)
      return result({ reply, handshake: null, error: `${upstream} sent data after its 220 reply to STARTTLS` });
    conversation.detach();
    handedOver = true;
    try {
      const handshake = await tlsHandshakeOverSocket(
        {
          ip: opts.ip,
          port: opts.port,
          servername: opts.servername,
          timeoutMs: opts.connectTimeoutMs,
          handshakeTimeoutMs: left(opts.handshakeTimeoutMs),
          ...(opts.signal ? { signal: opts.signal } : {}),
          ...(opts.ca !== undefined ? { ca: opts.ca } : {}),
          farewell: 'QUIT\r\n',
        },
        socket,
        { startedAt, tcpMs: connected.elapsedMs },
      );
      return result({ reply, handshake, error: null });
    } catch (e) {
      if (e instanceof TlsProbeError && e.kind !== 'ABORTED')
        return result({ reply, handshake: null, error: e.message });
      throw e;
    }
  } finally {
    if (!handedOver) conversation.close();
  }
}

/** Replies received and not yet read: the client sends one command at a time, so a few at most. */
const MAX_UNREAD_REPLIES = 4;

/** The plain-text part of the session: lines out, replies in, each wait bounded. */
class Conversation {
  private readonly parser = new ReplyParser();
  private readonly replies: SmtpReply[] = [];
  private failure: Error | null = null;
  private wake: (() => void) | null = null;
  private readonly onData = (chunk: Buffer): void => {
    // after a problem nothing more is read: an endless reply costs no more than its first 4 KiB line
    if (this.failure) return;
    const { replies, problem } = this.parser.push(chunk);
    this.replies.push(...replies);
    if (problem) this.fail(new ProbeError('MALFORMED', this.upstream, `${this.upstream} sent ${problemText(problem)}`));
    // one command at a time is outstanding (no PIPELINING): a server that floods replies is cut off
    else if (this.replies.length > MAX_UNREAD_REPLIES) {
      // the conversation is out of step: no reply read from here on can be trusted
      this.replies.length = 0;
      this.fail(
        new ProbeError('MALFORMED', this.upstream, `${this.upstream} sent replies to commands it was not sent`),
      );
    }
    this.wake?.();
  };
  private readonly onEnd = (): void =>
    this.fail(new ProbeError('UNREACHABLE', this.upstream, `${this.upstream} closed the connection`));
  private readonly onError = (e: NodeJS.ErrnoException): void =>
    this.fail(
      new ProbeError('UNREACHABLE', this.upstream, `the connection to ${this.upstream} failed: ${e.code ?? e.message}`),
    );

  constructor(
    private readonly socket: net.Socket,
    private readonly upstream: string,
    private readonly signal: AbortSignal | undefined,
  ) {
    socket.on('data', this.onData);
    socket.on('end', this.onEnd);
    socket.on('error', this.onError);
  }

  get pendingBytes(): number {
    return this.parser.pendingBytes + this.replies.length;
  }

  send(line: string): void {
    this.socket.write(`${line}\r\n`);
  }

  /** The next reply within `timeoutMs`; a failure of the connection or a reply problem rejects. */
  reply(timeoutMs: number, stage: SmtpStage): Promise<SmtpReply> {
    return new Promise((resolve, reject) => {
      const settle = (): boolean => {
        const next = this.replies.shift();
        if (next) resolve(next);
        else if (this.failure) reject(this.failure);
        else if (this.signal?.aborted) reject(abortedError(this.upstream));
        else return false;
        clearTimeout(timer);
        this.signal?.removeEventListener('abort', onAbort);
        this.wake = null;
        return true;
      };
      const onAbort = (): void => void settle();
      const timer = setTimeout(() => {
        this.fail(
          new SmtpProbeError(
            'TIMEOUT',
            this.upstream,
            stage,
            null,
            `${this.upstream} did not reply within ${Math.round(timeoutMs)} ms (${stage === 'greeting' ? 'no greeting' : 'no answer to a command'})`,
          ),
        );
        settle();
      }, timeoutMs);
      if (settle()) return;
      this.wake = () => void settle();
      this.signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  /** QUIT without waiting for the 221 (RFC 5321 §4.1.1.10), then close. */
  quit(): void {
    if (this.failure === null && !this.socket.destroyed) this.socket.end('QUIT\r\n');
    this.detach();
    this.socket.on('error', () => {});
    // the end() above lets the QUIT out; a server that never closes its side is cut off soon after
    setTimeout(() => this.socket.destroy(), 1000).unref();
  }

  /** Stops reading: the socket belongs to whoever takes it next (the TLS handshake). */
  detach(): void {
    this.socket.off('data', this.onData);
    this.socket.off('end', this.onEnd);
    this.socket.off('error', this.onError);
  }

  close(): void {
    this.detach();
    this.socket.on('error', () => {});
    if (!this.socket.writableEnded) this.socket.destroy();
  }

  private fail(error: Error): void {
    this.failure ??= error;
  }
}
