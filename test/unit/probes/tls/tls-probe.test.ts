import { afterEach, describe, expect, it } from 'vitest';
import { TargetRefusedError } from '../../../../src/errors.js';
import { clientSecureContext } from '../../../../src/probes/tls/client-contexts.js';
import {
  TlsProbeError,
  legacyAwareCiphers,
  tlsHandshake,
  type TlsHandshakeOptions,
} from '../../../../src/probes/tls/prober.js';
import { LAB_HOST, labPki } from '../../../lab/pki.js';
import { startBlackhole, startTcpServer, unusedPort } from '../../../lab/tcp-server.js';
import { startTlsServer, type LabTlsServer } from '../../../lab/tls-server.js';
import { rejectionOf } from '../../../helpers/tls-probe.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

async function goodServer(extra: Partial<Parameters<typeof startTlsServer>[0]> = {}): Promise<LabTlsServer> {
  const pki = await labPki();
  const server = await startTlsServer({ cert: pki.good.chain, key: pki.good.key, ...extra });
  cleanups.push(() => server.close());
  return server;
}

async function options(port: number, extra: Partial<TlsHandshakeOptions> = {}): Promise<TlsHandshakeOptions> {
  const pki = await labPki();
  return { ip: '127.0.0.1', port, servername: LAB_HOST, timeoutMs: 2000, ca: pki.root.cert, ...extra };
}

describe('tlsHandshake against a lab server', () => {
  it('reports version, cipher, chain leaf first, trust and timings', async () => {
    const server = await goodServer();
    const result = await tlsHandshake(await options(server.port));
    expect(result.protocol).toBe('TLSv1.3');
    expect(result.cipher).toMatch(/^TLS_/);
    expect(result.authorized).toBe(true);
    expect(result.authorizationError).toBeNull();
    expect(result.peerChain.map((c) => c.subject.CN)).toEqual([
      LAB_HOST,
      'Netdiag Lab Intermediate CA',
      'Netdiag Lab Root CA',
    ]);
    expect(result.leafDer.equals(result.peerChain[0]!.der)).toBe(true);
    expect(result.remoteAddress).toBe('127.0.0.1');
    expect(result.alpn).toBeNull();
    expect(result.tcpMs).toBeGreaterThanOrEqual(0);
    expect(result.tlsMs).toBeGreaterThan(0);
    expect(result.totalMs).toBeGreaterThanOrEqual(result.tcpMs);
    expect(await server.handshakesSeen(1)).toEqual([expect.objectContaining({ servername: LAB_HOST })]);
  });

  it('keeps the chain verdict apart from the name: a wrong host still handshakes, authorized', async () => {
    const pki = await labPki();
    const server = await startTlsServer({ cert: pki.wrongHost.chain, key: pki.wrongHost.key });
    cleanups.push(() => server.close());
    const result = await tlsHandshake(await options(server.port));
    expect(result.authorized).toBe(true);
    expect(result.peerChain[0]!.subject.CN).toBe('other.example.test');
  });

  it('reports an untrusted chain as such instead of failing', async () => {
    const server = await goodServer();
    // Node's own store does not know the lab root.
    const result = await tlsHandshake({ ...(await options(server.port)), ca: undefined });
    expect(result.authorized).toBe(false);
    expect(result.authorizationError).toBe('UNABLE_TO_GET_ISSUER_CERT_LOCALLY');
  });

  it('sends SNI only when given a name, never an IP literal', async () => {
    const server = await goodServer();
    const noName = await tlsHandshake(await options(server.port, { servername: null }));
    const ipName = await tlsHandshake(await options(server.port, { servername: '127.0.0.1' }));
    expect(noName.sniSent).toBe(false);
    expect(ipName.sniSent).toBe(false);
    expect((await server.handshakesSeen(2)).map((h) => h.servername)).toEqual([null, null]);
  });

  it('offers ALPN and reports the selection', async () => {
    const server = await goodServer({ alpn: ['h2', 'http/1.1'] });
    const result = await tlsHandshake(await options(server.port, { alpn: ['h2', 'http/1.1'] }));
    expect(result.alpn).toBe('h2');
  });

  it('works over IPv6 loopback', async () => {
    const server = await goodServer({ host: '::1' });
    const result = await tlsHandshake(await options(server.port, { ip: '::1' }));
    expect(result.remoteAddress).toBe('::1');
    expect(result.authorized).toBe(true);
  });

  it('pins the version range, with SECLEVEL 0 below TLS 1.2', async () => {
    expect(legacyAwareCiphers('TLSv1')).toBe('DEFAULT:@SECLEVEL=0');
    expect(legacyAwareCiphers('TLSv1.2')).toBeUndefined();
    const server = await goodServer({ minVersion: 'TLSv1', maxVersion: 'TLSv1.3' });
    const result = await tlsHandshake(await options(server.port, { minVersion: 'TLSv1', maxVersion: 'TLSv1' }));
    expect(result.protocol).toBe('TLSv1');
  });
});

describe('assertRemote', () => {
  it('is called with the connected address before any TLS byte', async () => {
    const server = await goodServer();
    const seen: string[] = [];
    await tlsHandshake(await options(server.port, { assertRemote: (address) => void seen.push(address) }));
    expect(seen).toEqual(['127.0.0.1']);
  });

  it('stops the probe when it throws: the server gets a TCP connection and not one byte', async () => {
    let bytes = 0;
    const listener = await startTcpServer((socket) => socket.on('data', (chunk: Buffer) => (bytes += chunk.length)));
    cleanups.push(() => listener.close());
    const refusal = new TargetRefusedError('good.lab.test', '127.0.0.1', 'loopback');
    const error = await rejectionOf(
      tlsHandshake(
        await options(listener.port, {
          assertRemote: () => {
            throw refusal;
          },
        }),
      ),
    );
    expect(error).toBe(refusal);
    // give anything in flight the time to arrive
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(listener.connections()).toBe(1);
    expect(bytes).toBe(0);
  });
});

describe('failures are ProbeErrors with a kind, a phase and a reason', () => {
  it('REFUSED when nothing listens', async () => {
    const port = await unusedPort();
    const error = await rejectionOf(tlsHandshake(await options(port)));
    expect(error).toBeInstanceOf(TlsProbeError);
    expect(error).toMatchObject({
      kind: 'REFUSED',
      phase: 'tcp',
      reason: 'ECONNREFUSED',
      status: 502,
      upstream: `127.0.0.1:${port}`,
    });
  });

  it('TIMEOUT in the tcp phase when the SYN goes unanswered', async () => {
    const blackhole = await startBlackhole();
    cleanups.push(() => blackhole.close());
    const started = Date.now();
    const error = await rejectionOf(tlsHandshake(await options(blackhole.port, { timeoutMs: 300 })));
    expect(error).toMatchObject({ kind: 'TIMEOUT', phase: 'tcp', status: 504 });
    expect((error as Error).message).toContain('TCP connect');
    expect(Date.now() - started).toBeLessThan(600);
  });

  it('TIMEOUT in the handshake phase when the server never answers the ClientHello', async () => {
    const silent = await startTcpServer();
    cleanups.push(() => silent.close());
    const started = Date.now();
    const error = await rejectionOf(
      tlsHandshake(await options(silent.port, { timeoutMs: 2000, handshakeTimeoutMs: 300 })),
    );
    expect(error).toMatchObject({ kind: 'TIMEOUT', phase: 'handshake' });
    expect((error as Error).message).toContain('TLS handshake');
    expect(Date.now() - started).toBeLessThan(600);
  });

  it('TLS with the OpenSSL code when the server is not speaking TLS', async () => {
    const http = await startTcpServer((socket) => socket.end('HTTP/1.1 400 Bad Request\r\n\r\n'));
    cleanups.push(() => http.close());
    const error = await rejectionOf(tlsHandshake(await options(http.port)));
    expect(error).toMatchObject({ kind: 'TLS', phase: 'handshake', reason: 'ERR_SSL_WRONG_VERSION_NUMBER' });
    expect((error as Error).message).toContain('ERR_SSL_WRONG_VERSION_NUMBER');
  });

  it('TLS with the alert code when the server refuses the version', async () => {
    const server = await goodServer({ minVersion: 'TLSv1.3' });
    const error = await rejectionOf(tlsHandshake(await options(server.port, { maxVersion: 'TLSv1.2' })));
    expect(error).toMatchObject({ kind: 'TLS', reason: 'ERR_SSL_TLSV1_ALERT_PROTOCOL_VERSION' });
    expect((error as Error).message).toContain('ERR_SSL_TLSV1_ALERT_PROTOCOL_VERSION');
  });

  it('UNREACHABLE when the server resets or closes during the handshake', async () => {
    const resetting = await startTcpServer((socket) => socket.once('data', () => socket.resetAndDestroy()));
    const closing = await startTcpServer((socket) => socket.once('data', () => socket.end()));
    cleanups.push(
      () => resetting.close(),
      () => closing.close(),
    );
    expect(await rejectionOf(tlsHandshake(await options(resetting.port)))).toMatchObject({
      kind: 'UNREACHABLE',
      phase: 'handshake',
      reason: 'ECONNRESET',
    });
    expect(await rejectionOf(tlsHandshake(await options(closing.port)))).toMatchObject({
      kind: 'UNREACHABLE',
      phase: 'handshake',
    });
  });

  it('ABORTED when the signal fires during the handshake, and before connecting', async () => {
    const silent = await startTcpServer();
    cleanups.push(() => silent.close());
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const started = Date.now();
    const error = await rejectionOf(tlsHandshake(await options(silent.port, { signal: controller.signal })));
    expect(error).toMatchObject({ kind: 'ABORTED', status: 504 });
    expect(Date.now() - started).toBeLessThan(1000);

    const before = silent.connections();
    const early = await rejectionOf(tlsHandshake(await options(silent.port, { signal: AbortSignal.abort() })));
    expect(early).toMatchObject({ kind: 'ABORTED', phase: 'tcp' });
    expect(silent.connections()).toBe(before);
  });

  it('passes a configuration mistake on as a plain error, closing the connection', async () => {
    let closed = false;
    const listener = await startTcpServer((socket) => socket.on('close', () => (closed = true)));
    cleanups.push(() => listener.close());
    const error = await rejectionOf(tlsHandshake(await options(listener.port, { ciphers: 'NO-SUCH-CIPHER' })));
    expect(error).toBeInstanceOf(Error);
    expect(error).not.toBeInstanceOf(TlsProbeError);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(closed).toBe(true);
  });

  it('refuses a hostname where an IP literal belongs, without connecting', async () => {
    await expect(tlsHandshake(await options(443, { ip: 'good.lab.test' }))).rejects.toThrow(TypeError);
  });
});

describe('client contexts', () => {
  it('one context per setting, shared by the handshakes', () => {
    const a = clientSecureContext({ minVersion: 'TLSv1.2', maxVersion: 'TLSv1.2' });
    expect(clientSecureContext({ minVersion: 'TLSv1.2', maxVersion: 'TLSv1.2' })).toBe(a);
    expect(clientSecureContext({ minVersion: 'TLSv1.3', maxVersion: 'TLSv1.3' })).not.toBe(a);
    expect(clientSecureContext({ minVersion: 'TLSv1.2', maxVersion: 'TLSv1.2', ca: 'x' })).not.toBe(a);
  });

  it('a shared context resumes no session: every probe is a full handshake, in TLS 1.2 and 1.3', async () => {
    for (const version of ['TLSv1.2', 'TLSv1.3'] as const) {
      const server = await goodServer({ minVersion: version, maxVersion: version });
      for (let i = 0; i < 3; i++) {
        const result = await tlsHandshake(await options(server.port, { minVersion: version, maxVersion: version }));
        expect(result.protocol).toBe(version);
      }
      // A TLS 1.3 client finishes first and closes at once: the server may record that as a reset.
      const seen = await server.handshakesSeen(3);
      expect(seen.filter((h) => h.resumed)).toEqual([]);
      if (version === 'TLSv1.2') expect(seen.map((h) => h.protocol)).toEqual([version, version, version]);
    }
  });

  it('a bad cipher list fails the handshake with its reason and is not kept', async () => {
    const server = await goodServer();
    await expect(tlsHandshake(await options(server.port, { ciphers: 'NO-SUCH-CIPHER' }))).rejects.toThrow(/cipher/i);
    expect((await tlsHandshake(await options(server.port))).authorized).toBe(true);
  });
});
