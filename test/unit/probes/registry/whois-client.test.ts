import net, { type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ProbeError } from '../../../../src/probes/errors.js';
import {
  createWhoisClient,
  decodeWhoisText,
  isLdhDomainName,
  whoisQueryLine,
  WHOIS_MAX_BYTES,
} from '../../../../src/probes/registry/whois.js';
import { closedPort, startWhoisLab, type WhoisLab } from '../../../lab/whois-server.js';

let lab: WhoisLab | null = null;
const opened: Socket[] = [];

afterEach(async () => {
  await lab?.close();
  lab = null;
  // Every path of the client must leave its socket destroyed.
  expect(opened.every((s) => s.destroyed)).toBe(true);
  opened.length = 0;
});

function client(resolveHost?: (host: string) => Promise<string>) {
  return createWhoisClient({
    connect: (host, port) => {
      const s = net.connect({ host, port });
      opened.push(s);
      return s;
    },
    ...(resolveHost ? { resolveHost } : {}),
  });
}

async function failure(p: Promise<unknown>): Promise<ProbeError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ProbeError);
  return err as ProbeError;
}

describe('WHOIS client', () => {
  it('sends the name and CRLF, reads until the server closes', async () => {
    lab = await startWhoisLab({ 'whois.test': { 'example.com': 'Domain Name: EXAMPLE.COM\r\nRegistrar: Test\r\n' } });
    const answer = await client(lab.resolveHost).query('whois.test', lab.port, 'example.com', { timeoutMs: 2000 });
    expect(answer).toMatchObject({
      server: 'whois.test',
      truncated: false,
      text: 'Domain Name: EXAMPLE.COM\r\nRegistrar: Test\r\n',
    });
    expect(answer.elapsedMs).toBeGreaterThanOrEqual(0);
    expect(lab.queries).toEqual([{ server: 'whois.test', line: 'example.com' }]);
  });

  it('connects to an IP literal without resolving it', async () => {
    lab = await startWhoisLab({ 'whois.test': { '*': 'ok\n' } });
    const answer = await client(async () => {
      throw new Error('must not resolve');
    }).query('127.0.0.1', lab.port, 'example.org', { timeoutMs: 2000 });
    expect(answer.text).toBe('ok\n');
  });

  it('uses the query syntax that DENIC, Verisign and JPRS need', async () => {
    lab = await startWhoisLab({
      'whois.denic.de': { '-T dn,ace example.de': 'Domain: example.de\n' },
      'whois.verisign-grs.com': { 'domain example.com': 'Domain Name: EXAMPLE.COM\n' },
      'whois.jprs.jp': { 'example.jp/e': '[Domain Name] EXAMPLE.JP\n' },
    });
    const c = client(lab.resolveHost);
    await c.query('whois.denic.de', lab.port, 'example.de', { timeoutMs: 2000 });
    await c.query('whois.verisign-grs.com', lab.port, 'example.com', { timeoutMs: 2000 });
    const jp = await c.query('whois.jprs.jp', lab.port, 'example.jp', { timeoutMs: 2000 });
    expect(jp.text).toBe('[Domain Name] EXAMPLE.JP\n');
    expect(lab.queries.map((q) => q.line)).toEqual(['-T dn,ace example.de', 'domain example.com', 'example.jp/e']);
    expect(whoisQueryLine('WHOIS.DENIC.DE', 'x.de')).toBe('-T dn,ace x.de');
    expect(whoisQueryLine('whois.nic.fr', 'x.fr')).toBe('x.fr');
  });

  it('ends a stalled server with TIMEOUT naming it, within the bound', async () => {
    lab = await startWhoisLab({ 'whois.stall.test': { '*': { stall: true } } });
    const started = performance.now();
    const err = await failure(
      client(lab.resolveHost).query('whois.stall.test', lab.port, 'example.com', { timeoutMs: 300 }),
    );
    const took = performance.now() - started;
    expect(err.kind).toBe('TIMEOUT');
    expect(err.status).toBe(504);
    expect(err.upstream).toBe(`whois.stall.test:${lab.port}`);
    expect(err.message).toBe(`WHOIS server whois.stall.test:${lab.port} did not answer within 300 ms`);
    expect(took).toBeLessThan(600);
  });

  it('keeps the first 256 KiB of a 2 MiB answer and marks it truncated', async () => {
    lab = await startWhoisLab({ 'whois.huge.test': { '*': { huge: 2 * 1024 * 1024 } } });
    const answer = await client(lab.resolveHost).query('whois.huge.test', lab.port, 'example.com', { timeoutMs: 5000 });
    expect(answer.truncated).toBe(true);
    expect(Buffer.byteLength(answer.text, 'utf8')).toBe(WHOIS_MAX_BYTES);
    expect(answer.text.startsWith('Remarks: the quick brown fox')).toBe(true);
  });

  it('honours a smaller maxBytes', async () => {
    lab = await startWhoisLab({ 'whois.test': { '*': 'x'.repeat(5000) } });
    const answer = await client(lab.resolveHost).query('whois.test', lab.port, 'example.com', {
      timeoutMs: 2000,
      maxBytes: 100,
    });
    expect(answer).toMatchObject({ truncated: true, text: 'x'.repeat(100) });
  });

  it('reports a server that closes without an answer as MALFORMED', async () => {
    lab = await startWhoisLab({ 'whois.test': { '*': { closeEarly: true } } });
    const err = await failure(
      client(lab.resolveHost).query('whois.test', lab.port, 'example.com', { timeoutMs: 2000 }),
    );
    expect(err.kind).toBe('MALFORMED');
    expect(err.status).toBe(502);
    expect(err.message).toContain('closed the connection without an answer');
  });

  it('reports a refused connection as REFUSED and a reset as UNREACHABLE', async () => {
    const port = await closedPort();
    const refused = await failure(client().query('127.0.0.1', port, 'example.com', { timeoutMs: 2000 }));
    expect(refused.kind).toBe('REFUSED');
    expect(refused.message).toBe(`WHOIS server 127.0.0.1:${port} refused the connection`);

    lab = await startWhoisLab({ 'whois.test': { '*': { reset: true } } });
    const reset = await failure(
      client(lab.resolveHost).query('whois.test', lab.port, 'example.com', { timeoutMs: 2000 }),
    );
    expect(reset.kind).toBe('UNREACHABLE');
  });

  it('assembles an answer that arrives in slow pieces', async () => {
    const text = 'Domain Name: SLOW.TEST\r\nRegistrar: Drip Inc.\r\n';
    lab = await startWhoisLab({ 'whois.test': { '*': { drip: text, chunkBytes: 7, intervalMs: 10 } } });
    const answer = await client(lab.resolveHost).query('whois.test', lab.port, 'slow.test', { timeoutMs: 3000 });
    expect(answer).toMatchObject({ text, truncated: false });
  });

  it('decodes UTF-8, and Latin-1 when the bytes are not UTF-8', async () => {
    lab = await startWhoisLab({
      'whois.utf8.test': { '*': Buffer.from('Registrant: Müller Ærø\n', 'utf8') },
      'whois.latin1.test': { '*': Buffer.from('Registrant: Müller Ærø\n', 'latin1') },
    });
    const c = client(lab.resolveHost);
    expect((await c.query('whois.utf8.test', lab.port, 'example.dk', { timeoutMs: 2000 })).text).toBe(
      'Registrant: Müller Ærø\n',
    );
    expect((await c.query('whois.latin1.test', lab.port, 'example.dk', { timeoutMs: 2000 })).text).toBe(
      'Registrant: Müller Ærø\n',
    );
  });

  it('does not fall back to Latin-1 because the cut split a UTF-8 character', () => {
    const bytes = Buffer.from('Name: Å', 'utf8');
    const cut = bytes.subarray(0, bytes.length - 1);
    expect(decodeWhoisText(cut, true)).toBe('Name: ');
    expect(decodeWhoisText(cut, false)).toBe('Name: \u00c3');
  });

  it.each([
    'example.com\r\nexample.org',
    'example.com\n',
    'example.com -T',
    'exa\u0000mple.com',
    '',
    '-h.example.com',
    'a'.repeat(64) + '.com',
  ])('refuses to send %j and opens no connection', async (name) => {
    lab = await startWhoisLab({ 'whois.test': { '*': 'never\n' } });
    const err = await failure(client(lab.resolveHost).query('whois.test', lab.port, name, { timeoutMs: 2000 }));
    expect(err.kind).toBe('MALFORMED');
    expect(opened).toHaveLength(0);
    expect(lab.queries).toHaveLength(0);
  });

  it('refuses a server name that is not a host name', async () => {
    const err = await failure(client().query('evil host\r\n', 43, 'example.com', { timeoutMs: 2000 }));
    expect(err.kind).toBe('MALFORMED');
    expect(opened).toHaveLength(0);
  });

  it('ends with ABORTED when the caller cancels', async () => {
    lab = await startWhoisLab({ 'whois.test': { '*': { stall: true } } });
    const controller = new AbortController();
    const pending = client(lab.resolveHost).query('whois.test', lab.port, 'example.com', {
      timeoutMs: 5000,
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(), 50);
    const err = await failure(pending);
    expect(err.kind).toBe('ABORTED');

    const already = await failure(
      client(lab.resolveHost).query('whois.test', lab.port, 'example.com', {
        timeoutMs: 5000,
        signal: AbortSignal.abort(),
      }),
    );
    expect(already.kind).toBe('ABORTED');
  });

  it('names the server when its name cannot be resolved', async () => {
    const err = await failure(
      client(async (host) => {
        throw new Error(`no address for ${host}`);
      }).query('whois.nowhere.test', 43, 'example.com', { timeoutMs: 2000 }),
    );
    expect(err.kind).toBe('UNREACHABLE');
    expect(err.upstream).toBe('whois.nowhere.test:43');
    expect(opened).toHaveLength(0);
  });
});

describe('isLdhDomainName', () => {
  it('accepts host names, A-labels and single labels', () => {
    for (const ok of ['com', 'example.com', 'xn--6qq79v.xn--fiqs8s', 'a-b.c0.example', `${'a'.repeat(63)}.com`]) {
      expect(isLdhDomainName(ok)).toBe(true);
    }
  });
  it('rejects anything else', () => {
    for (const bad of [
      '',
      '.',
      'example..com',
      'example.com.',
      '-a.com',
      'a-.com',
      'a_b.com',
      'a b.com',
      'é.com',
      'a'.repeat(254),
    ]) {
      expect(isLdhDomainName(bad)).toBe(false);
    }
  });
});
