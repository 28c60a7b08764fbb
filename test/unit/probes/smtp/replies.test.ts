import { describe, expect, it } from 'vitest';
import { MAX_LINE_BYTES, MAX_REPLY_LINES, ReplyParser, replyText } from '../../../../src/probes/smtp/replies.js';

describe('ReplyParser', () => {
  it('reads multi-line replies split anywhere across chunks, CRLF or bare LF', () => {
    const parser = new ReplyParser();
    const bytes = Buffer.from(
      '220 mx.example ESMTP\r\n250-mx.example hello\r\n250-SIZE 1000\n250-STARTTLS\r\n250 8BITMIME\r\n',
    );
    const replies = [];
    for (let i = 0; i < bytes.length; i += 7) {
      const { replies: done, problem } = parser.push(bytes.subarray(i, i + 7));
      expect(problem).toBeNull();
      replies.push(...done);
    }
    expect(replies).toEqual([
      { code: 220, lines: ['mx.example ESMTP'] },
      { code: 250, lines: ['mx.example hello', 'SIZE 1000', 'STARTTLS', '8BITMIME'] },
    ]);
    expect(parser.pendingBytes).toBe(0);
  });

  it('takes a bare code as a complete reply and counts bytes after the last line as pending', () => {
    const parser = new ReplyParser();
    expect(parser.push(Buffer.from('220\r\n\x16\x03')).replies).toEqual([{ code: 220, lines: [''] }]);
    expect(parser.pendingBytes).toBe(2);
  });

  it('stops at a line longer than the cap, with or without its line end', () => {
    expect(new ReplyParser().push(Buffer.from(`220 ${'x'.repeat(MAX_LINE_BYTES)}\r\n`)).problem).toEqual({
      kind: 'line-too-long',
    });
    const endless = new ReplyParser();
    expect(endless.push(Buffer.from('220-'.padEnd(1024, 'x'))).problem).toBeNull();
    let problem = null;
    for (let i = 0; i < 5 && problem === null; i++) problem = endless.push(Buffer.alloc(1024, 0x78)).problem;
    expect(problem).toEqual({ kind: 'line-too-long' });
  });

  it('stops at a reply of more lines than the cap', () => {
    const lines = `${'250-x\r\n'.repeat(MAX_REPLY_LINES)}250 x\r\n`;
    expect(new ReplyParser().push(Buffer.from(lines)).problem).toEqual({ kind: 'too-many-lines' });
  });

  it('refuses what is not SMTP and a reply whose lines change code', () => {
    expect(new ReplyParser().push(Buffer.from('SSH-2.0-OpenSSH_9.2\r\n')).problem).toEqual({
      kind: 'not-smtp',
      line: 'SSH-2.0-OpenSSH_9.2',
    });
    expect(new ReplyParser().push(Buffer.from('250-a\r\n251 b\r\n')).problem).toMatchObject({ kind: 'mixed-codes' });
  });

  it('renders a reply in one line', () => {
    expect(replyText({ code: 554, lines: ['5.7.1 no', 'really'] })).toBe('554 5.7.1 no / really');
    expect(replyText({ code: 421, lines: [''] })).toBe('421');
  });
});
