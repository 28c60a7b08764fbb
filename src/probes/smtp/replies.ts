/**
 * SMTP replies as they arrive on a socket (RFC 5321 §4.2): one or more lines "250-text" ending with
 * "250 text" (or a bare "250"), every line of one reply with the same code. Pure: it is fed bytes and
 * says what it has read, so that the bounds are tested without a socket.
 *
 * A server is cut off rather than followed: a line longer than MAX_LINE_BYTES (RFC 5321 §4.5.3.1.5
 * allows 512 octets; 4 KiB leaves room for long EHLO keywords), or a reply of more than
 * MAX_REPLY_LINES lines, ends the session with an error, so an endless reply costs bounded memory.
 */

export const MAX_LINE_BYTES = 4096;
export const MAX_REPLY_LINES = 64;

export interface SmtpReply {
  /** the three-digit reply code */
  readonly code: number;
  /** the text of each line, after "250-" / "250 ", in order */
  readonly lines: readonly string[];
}

/** "554 5.7.1 no thanks" — a reply in one line, for messages (multi-line text joined with " / "). */
export function replyText(reply: SmtpReply): string {
  const text = reply.lines.filter((l) => l !== '').join(' / ');
  return text === '' ? String(reply.code) : `${reply.code} ${text}`;
}

export type ReplyProblem =
  | { readonly kind: 'line-too-long' }
  | { readonly kind: 'too-many-lines' }
  | { readonly kind: 'not-smtp'; readonly line: string }
  | { readonly kind: 'mixed-codes'; readonly line: string };

export function problemText(problem: ReplyProblem): string {
  switch (problem.kind) {
    case 'line-too-long':
      return `a reply line longer than ${MAX_LINE_BYTES} bytes`;
    case 'too-many-lines':
      return `a reply of more than ${MAX_REPLY_LINES} lines`;
    case 'not-smtp':
      return `a line that is not an SMTP reply: "${printable(problem.line)}"`;
    case 'mixed-codes':
      return `a reply whose lines carry different codes: "${printable(problem.line)}"`;
  }
}

/** At most 80 characters, control characters shown as "?" (the text goes into JSON and logs). */
function printable(line: string): string {
  const shown = line.replace(/[\x00-\x1f\x7f]/g, '?');
  return shown.length > 80 ? `${shown.slice(0, 80)}…` : shown;
}

const REPLY_LINE = /^([2-5][0-9][0-9])(?:([ -])(.*))?$/s;

/**
 * Splits the byte stream into lines (CRLF; a bare LF is accepted, as most clients do) and lines into
 * replies. `push` returns the replies completed by the bytes, or the problem that ends the session.
 */
export class ReplyParser {
  private partial: Buffer = Buffer.alloc(0);
  private current: { code: number; lines: string[] } | null = null;

  push(chunk: Buffer): { replies: SmtpReply[]; problem: ReplyProblem | null } {
    const replies: SmtpReply[] = [];
    let data = this.partial.length > 0 ? Buffer.concat([this.partial, chunk]) : chunk;
    for (;;) {
      const lf = data.indexOf(0x0a);
      if (lf < 0) break;
      const end = lf > 0 && data[lf - 1] === 0x0d ? lf - 1 : lf;
      if (end > MAX_LINE_BYTES) return { replies, problem: { kind: 'line-too-long' } };
      const problem = this.line(data.subarray(0, end).toString('utf8'), replies);
      if (problem) return { replies, problem };
      data = data.subarray(lf + 1);
    }
    if (data.length > MAX_LINE_BYTES) return { replies, problem: { kind: 'line-too-long' } };
    // a copy: the rest of the chunk must not keep a large socket buffer alive
    this.partial = Buffer.from(data);
    return { replies, problem: null };
  }

  /** Bytes received after the last complete line (RFC 3207 §5: nothing may follow the 220 to STARTTLS). */
  get pendingBytes(): number {
    return this.partial.length + (this.current === null ? 0 : 1);
  }

  private line(text: string, replies: SmtpReply[]): ReplyProblem | null {
    const match = REPLY_LINE.exec(text);
    if (!match) return { kind: 'not-smtp', line: text };
    const code = Number(match[1]);
    if (this.current !== null && this.current.code !== code) return { kind: 'mixed-codes', line: text };
    this.current ??= { code, lines: [] };
    this.current.lines.push(match[3] ?? '');
    if (this.current.lines.length > MAX_REPLY_LINES) return { kind: 'too-many-lines' };
    if (match[2] !== '-') {
      replies.push({ code, lines: this.current.lines });
      this.current = null;
    }
    return null;
  }
}
