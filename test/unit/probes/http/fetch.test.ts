import net from 'node:net';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHeadEndDetector } from '../../../../src/probes/http/head-end.js';
import { InputError, TargetRefusedError } from '../../../../src/errors.js';
import { ProbeError } from '../../../../src/probes/errors.js';
import type { CheckedTarget, TargetGuard } from '../../../../src/probes/guard.js';
import { createTargetGuard } from '../../../../src/probes/guard.js';
import { fetchGuarded, type FetchOptions } from '../../../../src/probes/http/fetcher.js';
import { ConnectionBudgetError, createConnectionBudget } from '../../../../src/loaders/connection-budget.js';
import type { HostOrIp } from '../../../../src/validation.js';
import {
  HUGE_BODY_BYTES,
  SECURITY_HEADER_VALUES,
  labCertificates,
  startHttpLab,
  type HttpLab,
} from '../../../lab/http-server.js';

/**
 * A guard stub: names map to loopback addresses (no DNS anywhere), `refuse` lists names
 * or addresses refused as a real guard refuses special-purpose ones, `refuseRemote`
 * lists addresses refused only by the after-connect check.
 */
function stubGuard(config: { names?: Record<string, string[]>; refuse?: string[]; refuseRemote?: string[] } = {}) {
  const names: Record<string, string[]> = {
    'site.lab.test': ['127.0.0.1'],
    'other.lab.test': ['127.0.0.1'],
    'wrong.example.test': ['127.0.0.1'],
    'evil.lab.test': ['127.0.0.2'],
    ...config.names,
  };
  const refuse = new Set(config.refuse ?? ['127.0.0.2']);
  const refuseRemote = new Set(config.refuseRemote ?? []);
  const checked: HostOrIp[] = [];
  const remotes: string[] = [];
  const guard: TargetGuard = {
    async check(target, signal): Promise<CheckedTarget> {
      checked.push(target);
      signal?.throwIfAborted();
      const input = target.kind === 'ip' ? target.ip : target.hostname;
      if (refuse.has(input)) throw new TargetRefusedError(input, input, 'private');
      const addresses = target.kind === 'ip' ? [target.ip] : names[target.hostname];
      if (!addresses) throw new InputError('url', `${input} has no A or AAAA record`);
      for (const a of addresses) if (refuse.has(a)) throw new TargetRefusedError(input, a, 'loopback');
      return {
        input,
        hostname: target.kind === 'ip' ? null : target.hostname,
        addresses: addresses.map((address) => ({ address, family: net.isIP(address) as 4 | 6 })),
      };
    },
    assertAllowed(address, targetForMessage) {
      remotes.push(address);
      if (refuseRemote.has(address)) throw new TargetRefusedError(targetForMessage, address, 'loopback');
    },
  };
  return { guard, checked, remotes };
}

function options(url: string, guard: TargetGuard, extra: Partial<FetchOptions> = {}): FetchOptions {
  return {
    url: new URL(url),
    guard,
    timeoutMs: 5000,
    maxRedirects: 10,
    maxBodyBytes: 1024 * 1024,
    readBody: false,
    ...extra,
  };
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (e) {
    return e;
  }
  throw new Error('expected a rejection');
}

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

const HEAD_THEN_BODY = `<!doctype html><html><head><title>t</title><meta property="og:title" content="x"></head><body>${'b'.repeat(200_000)}</body></html>`;
const gzipBomb = zlib.gzipSync(Buffer.concat([Buffer.from('<html><body>'), Buffer.alloc(20 * 1024 * 1024, 0x20)]));

let lab: HttpLab;
let refusedLab: HttpLab;

beforeAll(async () => {
  lab = await startHttpLab({
    pages: {
      '/repeated': {
        reason: 'Very OK',
        headers: {
          'set-cookie': ['a=1; Path=/', 'b=2; Expires=Wed, 21 Oct 2026 07:28:00 GMT'],
          'x-multi': ['1', '2'],
          'X-Mixed-Case': 'yes',
          'content-type': 'text/plain',
        },
        body: 'repeated',
      },
      '/to-ftp': { status: 302, headers: { location: 'ftp://files.example/x' } },
      '/head-then-body': { headers: { 'content-type': 'text/html; charset=utf-8' }, body: HEAD_THEN_BODY },
      '/image': { headers: { 'content-type': 'image/png' }, body: Buffer.alloc(1000, 1) },
      '/gzip': {
        headers: { 'content-type': 'text/html', 'content-encoding': 'gzip' },
        body: zlib.gzipSync('<title>gzip</title>'),
      },
      '/br': {
        headers: { 'content-type': 'text/html', 'content-encoding': 'br' },
        body: zlib.brotliCompressSync('<title>br</title>'),
      },
      '/deflate': {
        headers: { 'content-type': 'text/html', 'content-encoding': 'deflate' },
        body: zlib.deflateSync('<title>zlib</title>'),
      },
      '/deflate-raw': {
        headers: { 'content-type': 'text/html', 'content-encoding': 'deflate' },
        body: zlib.deflateRawSync('<title>raw</title>'),
      },
      '/gzip-bomb': { headers: { 'content-type': 'text/html', 'content-encoding': 'gzip' }, body: gzipBomb },
      '/gzip-corrupt': {
        headers: { 'content-type': 'text/html', 'content-encoding': 'gzip' },
        body: Buffer.from('this is not gzip at all'),
      },
      '/zstd': { headers: { 'content-type': 'text/html', 'content-encoding': 'zstd' }, body: 'x' },
    },
  });
  refusedLab = await startHttpLab({ host: '127.0.0.2' });
});

afterAll(async () => {
  await lab.close();
  await refusedLab.close();
});

describe('fetchGuarded: one response', () => {
  it('connects to the checked address, reports status, lower-case headers and timings, and closes the socket', async () => {
    const { guard, checked, remotes } = stubGuard();
    const before = lab.requests.length;
    const result = await fetchGuarded(options(lab.url('/ok', 'site.lab.test'), guard));
    expect(result.final.statusCode).toBe(200);
    expect(result.final.statusText).toBe('OK');
    expect(result.hops).toHaveLength(1);
    expect(result.finalUrl).toBe(lab.url('/ok', 'site.lab.test'));
    expect(result.requestedUrl).toBe(lab.url('/ok', 'site.lab.test'));
    for (const [name, value] of Object.entries(SECURITY_HEADER_VALUES)) expect(result.final.headers[name]).toBe(value);
    expect(result.final.remoteAddress).toBe('127.0.0.1');
    expect(result.httpVersion).toBe('1.1');
    expect(result.body).toBeNull();
    expect(result.final.tls).toBeNull();
    expect(result.tlsError).toBeNull();
    for (const value of Object.values(result.final.timing)) expect(value).toBeGreaterThanOrEqual(0);
    expect(result.final.timing.tlsMs).toBe(0);
    expect(result.final.timing.totalMs).toBeGreaterThanOrEqual(result.final.timing.ttfbMs);
    expect(checked).toEqual([{ kind: 'hostname', hostname: 'site.lab.test' }]);
    expect(remotes).toEqual(['127.0.0.1']);
    const request = lab.requests[before]!;
    expect(request.method).toBe('GET');
    expect(request.headers.host).toBe(`site.lab.test:${lab.port}`);
    expect(request.headers['user-agent']).toMatch(/netdiag/);
    expect(request.headers['accept-encoding']).toBe('gzip, deflate, br');
    await lab.waitForAllClosed();
  });

  it('passes IP literals to the guard as IPs, IPv4 and IPv6', async () => {
    const { guard, checked } = stubGuard();
    const result = await fetchGuarded(options(lab.url('/ok'), guard));
    expect(result.final.statusCode).toBe(200);
    expect(checked).toEqual([{ kind: 'ip', ip: '127.0.0.1', family: 4 }]);

    const v6 = await startHttpLab({ host: '::1' });
    try {
      const six = stubGuard();
      const r6 = await fetchGuarded(options(v6.url('/ok'), six.guard));
      expect(six.checked).toEqual([{ kind: 'ip', ip: '::1', family: 6 }]);
      expect(r6.final.remoteAddress).toBe('::1');
      expect(r6.final.statusCode).toBe(200);
    } finally {
      await v6.close();
    }
  });

  it('joins repeated headers with ", " but Set-Cookie with newlines, and keeps the reason phrase', async () => {
    const { guard } = stubGuard();
    const result = await fetchGuarded(options(lab.url('/repeated', 'site.lab.test'), guard));
    expect(result.final.statusText).toBe('Very OK');
    expect(result.final.headers['set-cookie']).toBe('a=1; Path=/\nb=2; Expires=Wed, 21 Oct 2026 07:28:00 GMT');
    expect(result.final.headers['x-multi']).toBe('1, 2');
    expect(result.final.headers['x-mixed-case']).toBe('yes');
    expect(Object.keys(result.final.headers).every((k) => k === k.toLowerCase())).toBe(true);
  });

  it('skips 1xx interim responses', async () => {
    const { guard } = stubGuard();
    const result = await fetchGuarded(options(lab.url('/early-hints', 'site.lab.test'), guard));
    expect(result.hops.map((h) => h.statusCode)).toEqual([200]);
  });

  it('tries the next checked address when one refuses the connection', async () => {
    // Nothing listens on 127.0.0.3 at the lab's port.
    const { guard } = stubGuard({ names: { 'multi.lab.test': ['127.0.0.3', '127.0.0.1'] } });
    const result = await fetchGuarded(options(lab.url('/ok', 'multi.lab.test'), guard));
    expect(result.final.remoteAddress).toBe('127.0.0.1');
  });

  it('fails with REFUSED when nothing listens', async () => {
    const { guard } = stubGuard();
    const port = await freePort();
    const error = await rejection(fetchGuarded(options(`http://site.lab.test:${port}/`, guard)));
    expect(error).toBeInstanceOf(ProbeError);
    expect((error as ProbeError).kind).toBe('REFUSED');
    expect((error as ProbeError).upstream).toBe(`site.lab.test:${port}`);
  });

  it('refuses a connected socket whose remote address the guard rejects, before sending the request', async () => {
    const { guard } = stubGuard({ refuseRemote: ['127.0.0.1'] });
    const before = lab.requests.length;
    const error = await rejection(fetchGuarded(options(lab.url('/ok', 'site.lab.test'), guard)));
    expect(error).toBeInstanceOf(TargetRefusedError);
    expect(lab.requests.length).toBe(before);
    await lab.waitForAllClosed();
  });
});

describe('fetchGuarded: redirects', () => {
  it('follows absolute, relative and 303 redirects, re-checking every hop', async () => {
    const { guard, checked } = stubGuard();
    const third = lab.url('/chain/2', 'other.lab.test');
    const second = lab.url(`/redirect?status=303&to=${encodeURIComponent(third)}`, 'other.lab.test');
    const first = lab.url(`/redirect?status=301&to=${encodeURIComponent(second)}`, 'site.lab.test');
    const result = await fetchGuarded(options(first, guard));
    expect(result.hops.map((h) => h.statusCode)).toEqual([301, 303, 302, 302, 200]);
    expect(result.hops.map((h) => h.url)).toEqual([
      first,
      second,
      third,
      lab.url('/chain/1', 'other.lab.test'),
      lab.url('/chain/0', 'other.lab.test'),
    ]);
    expect(result.hops[2]!.location).toBe(lab.url('/chain/1', 'other.lab.test'));
    expect(result.finalUrl).toBe(lab.url('/chain/0', 'other.lab.test'));
    expect(result.requestedUrl).toBe(first);
    expect(result.redirectLimitReached).toBe(false);
    expect(checked).toHaveLength(5);
    await lab.waitForAllClosed();
  });

  it("spends a connection of the request's budget per hop, and stops following redirects when none is left", async () => {
    const { guard } = stubGuard();
    const budget = createConnectionBudget(2);
    const before = lab.connectionCount();
    const result = await fetchGuarded(options(lab.url('/chain/5', 'site.lab.test'), guard, { connections: budget }));
    expect(result.hops.map((h) => h.url)).toEqual(['/chain/5', '/chain/4'].map((p) => lab.url(p, 'site.lab.test')));
    // the chain so far is the finding, as at maxRedirects
    expect(result).toMatchObject({ redirectLimitReached: true, final: { statusCode: 302 } });
    expect(budget.remaining).toBe(0);
    expect(lab.connectionCount() - before).toBe(2);
    // with nothing left, not even the first hop connects
    const error = await rejection(
      fetchGuarded(options(lab.url('/ok', 'site.lab.test'), guard, { connections: createConnectionBudget(0) })),
    );
    expect(error).toBeInstanceOf(ConnectionBudgetError);
    expect(lab.connectionCount() - before).toBe(2);
    await lab.waitForAllClosed();
  });

  it('stops at maxRedirects and reports the last redirect as the result', async () => {
    const { guard } = stubGuard();
    const result = await fetchGuarded(options(lab.url('/chain/5', 'site.lab.test'), guard, { maxRedirects: 2 }));
    expect(result.hops.map((h) => h.url)).toEqual(
      ['/chain/5', '/chain/4', '/chain/3'].map((p) => lab.url(p, 'site.lab.test')),
    );
    expect(result.redirectLimitReached).toBe(true);
    expect(result.final.statusCode).toBe(302);

    const none = await fetchGuarded(options(lab.url('/chain/1', 'site.lab.test'), guard, { maxRedirects: 0 }));
    expect(none.hops).toHaveLength(1);
    expect(none.redirectLimitReached).toBe(true);
  });

  it('fails on a loop, naming it', async () => {
    const { guard } = stubGuard();
    const error = await rejection(fetchGuarded(options(lab.url('/loop/a', 'site.lab.test'), guard)));
    expect(error).toBeInstanceOf(ProbeError);
    expect((error as ProbeError).kind).toBe('HTTP_STATUS');
    const a = lab.url('/loop/a', 'site.lab.test');
    const b = lab.url('/loop/b', 'site.lab.test');
    expect((error as ProbeError).message).toBe(`redirect loop: ${a} → ${b} → ${a}`);
  });

  it('refuses a redirect to a refused name or address without connecting to it', async () => {
    for (const target of [refusedLab.url('/ok', 'evil.lab.test'), refusedLab.url('/ok')]) {
      const { guard } = stubGuard();
      const error = await rejection(
        fetchGuarded(options(lab.url(`/redirect?status=302&to=${encodeURIComponent(target)}`, 'site.lab.test'), guard)),
      );
      expect(error).toBeInstanceOf(TargetRefusedError);
    }
    expect(refusedLab.connectionCount()).toBe(0);
    await lab.waitForAllClosed();
  });

  it('refuses a redirect to loopback with the real target guard', async () => {
    const guard = createTargetGuard({
      allow: ['127.0.0.1/32'],
      resolve: async (name) => {
        const map: Record<string, string> = { 'site.lab.test': '127.0.0.1', 'evil.lab.test': '127.0.0.2' };
        const address = map[name];
        return address ? [{ address, family: 4 }] : [];
      },
    });
    const ok = await fetchGuarded(options(lab.url('/ok', 'site.lab.test'), guard));
    expect(ok.final.statusCode).toBe(200);
    const target = refusedLab.url('/ok', 'evil.lab.test');
    const error = await rejection(
      fetchGuarded(options(lab.url(`/redirect?to=${encodeURIComponent(target)}`, 'site.lab.test'), guard)),
    );
    expect(error).toBeInstanceOf(TargetRefusedError);
    expect(refusedLab.connectionCount()).toBe(0);
  });

  it("marks a refused first URL as given back only when the caller gave it; a redirect's never", async () => {
    const guard = createTargetGuard({
      allow: ['127.0.0.1/32'],
      resolve: async () => [{ address: '127.0.0.1', family: 4 }],
    });
    const literal = refusedLab.url('/ok');
    const fromCaller = await rejection(fetchGuarded(options(literal, guard, { urlFrom: 'caller' })));
    expect(fromCaller).toMatchObject({ code: 'TARGET_REFUSED', beforeUpstream: true });
    // a caIssuers URL, a BIMI logo: read out of an answer (the default)
    const fromUpstream = await rejection(fetchGuarded(options(literal, guard)));
    expect(fromUpstream).toMatchObject({ code: 'TARGET_REFUSED', beforeUpstream: false });
    const redirected = await rejection(
      fetchGuarded(
        options(lab.url(`/redirect?to=${encodeURIComponent(literal)}`, 'site.lab.test'), guard, { urlFrom: 'caller' }),
      ),
    );
    expect(redirected).toMatchObject({ code: 'TARGET_REFUSED', beforeUpstream: false });
    expect(refusedLab.connectionCount()).toBe(0);
  });

  it('does not follow a Location that is not http(s)', async () => {
    const { guard } = stubGuard();
    const result = await fetchGuarded(options(lab.url('/to-ftp', 'site.lab.test'), guard));
    expect(result.final.statusCode).toBe(302);
    expect(result.redirectNotFollowed).toEqual({ reason: 'unsupported-scheme', location: 'ftp://files.example/x' });
    expect(result.redirectLimitReached).toBe(false);
  });
});

describe('fetchGuarded: bodies', () => {
  it('reads at most maxBodyBytes of a 50 MiB body and closes the connection', async () => {
    const { guard } = stubGuard();
    const cap = 256 * 1024;
    const result = await fetchGuarded(
      options(lab.url('/huge', 'site.lab.test'), guard, { readBody: 'html', maxBodyBytes: cap }),
    );
    expect(result.body?.length).toBe(cap);
    expect(result.bodyTruncated).toBe(true);
    expect(result.bodyEnd).toBe('cap');
    await lab.waitForAllClosed();
    expect(lab.hugeBytesWritten()).toBeLessThan(HUGE_BODY_BYTES / 2);
  });

  it('does not read the body at all for headers only', async () => {
    const { guard } = stubGuard();
    const before = lab.hugeBytesWritten();
    const result = await fetchGuarded(options(lab.url('/huge', 'site.lab.test'), guard));
    expect(result.body).toBeNull();
    expect(result.final.headers['content-length']).toBe(String(HUGE_BODY_BYTES));
    await lab.waitForAllClosed();
    expect(lab.hugeBytesWritten() - before).toBeLessThan(HUGE_BODY_BYTES / 2);
  });

  it('stops once stopWhen says the head has ended', async () => {
    const { guard } = stubGuard();
    const result = await fetchGuarded(
      options(lab.url('/head-then-body', 'site.lab.test'), guard, {
        readBody: 'html',
        stopWhen: createHeadEndDetector(),
      }),
    );
    expect(result.bodyEnd).toBe('stopped');
    expect(result.body!.toString()).toContain('</head>');
    expect(result.body!.length).toBeLessThan(HEAD_THEN_BODY.length);
  });

  it('reads a whole small body', async () => {
    const { guard } = stubGuard();
    const result = await fetchGuarded(options(lab.url('/ok', 'site.lab.test'), guard, { readBody: 'html' }));
    expect(result.body!.toString()).toBe('<title>ok</title>');
    expect(result.bodyEnd).toBe('complete');
    expect(result.bodyTruncated).toBe(false);
  });

  it('leaves a non-HTML body unread', async () => {
    const { guard } = stubGuard();
    const result = await fetchGuarded(options(lab.url('/image', 'site.lab.test'), guard, { readBody: 'html' }));
    expect(result.body).toBeNull();
    expect(result.bodyEnd).toBeNull();
  });

  it("reads any body with readBody 'any' (a policy file, an image), capped, and never follows a redirect past maxRedirects 0", async () => {
    const { guard } = stubGuard();
    const image = await fetchGuarded(options(lab.url('/image', 'site.lab.test'), guard, { readBody: 'any' }));
    expect(image.body).toEqual(Buffer.alloc(1000, 1));
    expect(image.bodyEnd).toBe('complete');
    const capped = await fetchGuarded(
      options(lab.url('/image', 'site.lab.test'), guard, { readBody: 'any', maxBodyBytes: 100 }),
    );
    expect(capped.body?.length).toBe(100);
    expect(capped.bodyEnd).toBe('cap');
    const redirect = await fetchGuarded(
      options(lab.url('/chain/1', 'site.lab.test'), guard, { readBody: 'any', maxRedirects: 0 }),
    );
    expect(redirect.final.statusCode).toBe(302);
    expect(redirect.redirectLimitReached).toBe(true);
    expect(redirect.hops).toHaveLength(1);
  });

  it('decodes gzip, br and both forms of deflate', async () => {
    const { guard } = stubGuard();
    for (const [path, title] of [
      ['/gzip', 'gzip'],
      ['/br', 'br'],
      ['/deflate', 'zlib'],
      ['/deflate-raw', 'raw'],
    ] as const) {
      const result = await fetchGuarded(options(lab.url(path, 'site.lab.test'), guard, { readBody: 'html' }));
      expect(result.body!.toString()).toBe(`<title>${title}</title>`);
      expect(result.final.headers['content-encoding']).toBe(path === '/deflate-raw' ? 'deflate' : path.slice(1));
    }
  });

  it('caps the decoded size of a compressed body', async () => {
    const { guard } = stubGuard();
    const cap = 64 * 1024;
    const result = await fetchGuarded(
      options(lab.url('/gzip-bomb', 'site.lab.test'), guard, { readBody: 'html', maxBodyBytes: cap }),
    );
    expect(result.body!.length).toBe(cap);
    expect(result.bodyEnd).toBe('cap');
  });

  it('reports a corrupt or unoffered content coding as MALFORMED', async () => {
    const { guard } = stubGuard();
    for (const path of ['/gzip-corrupt', '/zstd']) {
      const error = await rejection(fetchGuarded(options(lab.url(path, 'site.lab.test'), guard, { readBody: 'html' })));
      expect(error).toBeInstanceOf(ProbeError);
      expect((error as ProbeError).kind).toBe('MALFORMED');
    }
    await lab.waitForAllClosed();
  });
});

describe('fetchGuarded: time bounds', () => {
  it('ends a body that never finishes with TIMEOUT within the bound', async () => {
    const { guard } = stubGuard();
    const started = performance.now();
    const error = await rejection(
      fetchGuarded(options(lab.url('/slow-body', 'site.lab.test'), guard, { readBody: 'html', timeoutMs: 600 })),
    );
    expect(error).toBeInstanceOf(ProbeError);
    expect((error as ProbeError).kind).toBe('TIMEOUT');
    expect((error as ProbeError).upstream).toBe(`site.lab.test:${lab.port}`);
    expect(performance.now() - started).toBeLessThan(600 + 2_000);
    await lab.waitForAllClosed();
  });

  it('ends a server that never answers with TIMEOUT', async () => {
    const { guard } = stubGuard();
    const error = await rejection(fetchGuarded(options(lab.url('/hang', 'site.lab.test'), guard, { timeoutMs: 500 })));
    expect((error as ProbeError).kind).toBe('TIMEOUT');
    expect((error as ProbeError).status).toBe(504);
    await lab.waitForAllClosed();
  });

  it('ends with ABORTED when the caller aborts', async () => {
    const { guard } = stubGuard();
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const error = await rejection(
      fetchGuarded(options(lab.url('/hang', 'site.lab.test'), guard, { signal: controller.signal })),
    );
    expect((error as ProbeError).kind).toBe('ABORTED');
    await lab.waitForAllClosed();
  });

  it('ends with TIMEOUT even when the guard ignores the signal', async () => {
    const stalling: TargetGuard = { check: () => new Promise<never>(() => {}), assertAllowed: () => {} };
    const error = await rejection(fetchGuarded(options(lab.url('/ok', 'site.lab.test'), stalling, { timeoutMs: 200 })));
    expect((error as ProbeError).kind).toBe('TIMEOUT');
  });

  it('reports TIMEOUT when the deadline fires during a redirect chain', async () => {
    const { guard } = stubGuard();
    const error = await rejection(
      fetchGuarded(
        options(lab.url(`/redirect?to=${encodeURIComponent('/hang')}`, 'site.lab.test'), guard, { timeoutMs: 400 }),
      ),
    );
    expect((error as ProbeError).kind).toBe('TIMEOUT');
  });
});

describe('fetchGuarded: https', () => {
  let ca: string;
  let tlsLab: HttpLab;
  let expiredLab: HttpLab;
  let h2Lab: HttpLab;

  beforeAll(async () => {
    const certs = await labCertificates();
    ca = certs.caCert;
    const pages = {
      '/cookies': { headers: { 'set-cookie': ['a=1', 'b=2'], 'content-type': 'text/html' }, body: '<title>h2</title>' },
    };
    tlsLab = await startHttpLab({ tls: certs.valid, pages });
    expiredLab = await startHttpLab({ tls: certs.expired });
    h2Lab = await startHttpLab({ tls: certs.valid, http2: true, pages });
  });

  afterAll(async () => {
    await tlsLab.close();
    await expiredLab.close();
    await h2Lab.close();
  });

  it('verifies the certificate against the hostname (SNI) and reports the handshake', async () => {
    const { guard } = stubGuard();
    const result = await fetchGuarded(options(tlsLab.url('/ok', 'site.lab.test'), guard, { ca }));
    expect(result.final.statusCode).toBe(200);
    expect(result.final.tls).toMatchObject({ authorized: true, authorizationError: null, protocol: 'TLSv1.3' });
    expect(result.tlsError).toBeNull();
    expect(result.final.timing.tlsMs).toBeGreaterThan(0);
    expect(result.httpVersion).toBe('1.1');
    await tlsLab.waitForAllClosed();
  });

  it('fetches anyway and reports a certificate for another name, an expired one, or an untrusted one', async () => {
    const { guard } = stubGuard();
    const mismatch = await fetchGuarded(options(tlsLab.url('/ok', 'wrong.example.test'), guard, { ca }));
    expect(mismatch.final.statusCode).toBe(200);
    expect(mismatch.tlsError).toBe('ERR_TLS_CERT_ALTNAME_INVALID');

    const expired = await fetchGuarded(options(expiredLab.url('/ok', 'site.lab.test'), guard, { ca }));
    expect(expired.final.statusCode).toBe(200);
    expect(expired.tlsError).toBe('CERT_HAS_EXPIRED');

    const untrusted = await fetchGuarded(options(tlsLab.url('/ok', 'site.lab.test'), guard));
    expect(untrusted.final.tls?.authorized).toBe(false);
    expect(untrusted.tlsError).toMatch(/^[A-Z_]+$/);
  });

  it('fails with TLS on a certificate problem when asked to', async () => {
    const { guard } = stubGuard();
    const error = await rejection(
      fetchGuarded(options(expiredLab.url('/ok', 'site.lab.test'), guard, { ca, certificateErrors: 'fail' })),
    );
    expect((error as ProbeError).kind).toBe('TLS');
    expect((error as ProbeError).message).toMatch(/CERT_HAS_EXPIRED/);
  });

  it('checks an IP literal against the certificate IP addresses, without SNI', async () => {
    const { guard } = stubGuard();
    const result = await fetchGuarded(options(tlsLab.url('/ok'), guard, { ca }));
    expect(result.tlsError).toBeNull();
  });

  it('fails with TLS when the server does not speak TLS', async () => {
    const { guard } = stubGuard();
    const error = await rejection(
      fetchGuarded(options(lab.url('/ok', 'site.lab.test').replace('http:', 'https:'), guard, { ca })),
    );
    expect(error).toBeInstanceOf(ProbeError);
    expect((error as ProbeError).kind).toBe('TLS');
    await lab.waitForAllClosed();
  });

  it('speaks HTTP/2 when the server offers it through ALPN, and HTTP/1.1 when told not to', async () => {
    const { guard } = stubGuard();
    const result = await fetchGuarded(options(h2Lab.url('/cookies', 'site.lab.test'), guard, { ca, readBody: 'html' }));
    expect(result.httpVersion).toBe('2');
    expect(result.final.tls?.alpn).toBe('h2');
    expect(result.final.statusText).toBe('OK');
    expect(result.final.headers['set-cookie']).toBe('a=1\nb=2');
    expect(result.body!.toString()).toBe('<title>h2</title>');

    const redirected = await fetchGuarded(options(h2Lab.url('/chain/2', 'site.lab.test'), guard, { ca }));
    expect(redirected.hops.map((h) => h.statusCode)).toEqual([302, 302, 200]);

    const http1 = await fetchGuarded(options(h2Lab.url('/ok', 'site.lab.test'), guard, { ca, http2: false }));
    expect(http1.httpVersion).toBe('1.1');
    await h2Lab.waitForAllClosed();
  });
});
