import { X509Certificate } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { tlsConfigurationData, type TlsConfigurationParts } from './configuration.js';
import type { ProtocolVerdict } from '../../../probes/tls/protocols.js';
import { tlsHandshake, type HandshakeFacts, type TlsHandshakeOptions } from '../../../probes/tls/prober.js';
import { LAB_HOST, labPki } from '../../../../test/lab/pki.js';
import { unusedPort } from '../../../../test/lab/tcp-server.js';
import { startTlsServer, type LabTlsServerOptions } from '../../../../test/lab/tls-server.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

const PROTOCOLS: ProtocolVerdict[] = [
  { version: 'TLSv1.3', result: 'supported' },
  { version: 'TLSv1.2', result: 'supported' },
  { version: 'TLSv1.1', result: 'not-supported' },
  { version: 'TLSv1', result: 'unable-to-test' },
];

async function server(extra: Partial<LabTlsServerOptions> = {}) {
  const pki = await labPki();
  const started = await startTlsServer({ cert: pki.good.chain, key: pki.good.key, alpn: ['h2', 'http/1.1'], ...extra });
  cleanups.push(() => started.close());
  return started;
}

function settle(options: TlsHandshakeOptions): Promise<PromiseSettledResult<HandshakeFacts>> {
  return Promise.allSettled([tlsHandshake(options)]).then(([outcome]) => outcome!);
}

/** What a run.ts does: main handshake with SNI and ALPN, the same without SNI, in parallel. */
async function assemble(
  domain: string,
  port: number,
  ip = '127.0.0.1',
): Promise<ReturnType<typeof tlsConfigurationData>> {
  const pki = await labPki();
  const base = { ip, port, timeoutMs: 2000, ca: pki.root.cert, alpn: ['h2', 'http/1.1'] };
  const sniSent = domain !== '127.0.0.1';
  const [primary, withoutSni] = await Promise.all([
    settle({ ...base, servername: sniSent ? domain : null }),
    sniSent ? settle({ ...base, servername: null }) : Promise.resolve(null),
  ]);
  const parts: TlsConfigurationParts = {
    domain,
    ip,
    primary,
    sniSent,
    withoutSni,
    families: [{ family: 4, ip, outcome: primary }],
    protocols: PROTOCOLS,
    now: new Date(),
  };
  return tlsConfigurationData(parts);
}

describe('tls-configuration assembly', () => {
  it('fills every block from a good handshake', async () => {
    const pki = await labPki();
    const lab = await server();
    const data = await assemble(LAB_HOST, lab.port);
    expect(data).toMatchObject({
      domain: LAB_HOST,
      ip: '127.0.0.1',
      protocols: PROTOCOLS,
      negotiated: { version: 'TLSv1.3', alpn: 'h2', http2: true },
      sni: { sent: true, required: false },
      certificate: {
        ok: true,
        subject: LAB_HOST,
        issuer: 'Netdiag Lab Intermediate CA',
        daysRemaining: 89,
        hostnameMatch: true,
        hostnameMismatchReason: null,
        chainLength: 3,
        trusted: true,
        trustError: null,
      },
      connectionError: null,
    });
    expect(data.negotiated?.cipher).toMatch(/^TLS_/);
    expect(data.families).toEqual([
      {
        family: 4,
        ip: '127.0.0.1',
        status: 'ok',
        version: 'TLSv1.3',
        cipher: data.negotiated?.cipher,
        alpn: 'h2',
        certFingerprint: new X509Certificate(pki.good.cert).fingerprint256,
        totalMs: data.timing?.totalMs,
        error: null,
      },
    ]);
    expect(data.timing!.totalMs).toBeGreaterThanOrEqual(data.timing!.tcpMs);
    expect(data.timing!.tlsHandshakeMs).toBeGreaterThan(0);
  });

  it('sni.required when the server fails handshakes without SNI', async () => {
    const lab = await server({ withoutSni: 'fail' });
    const data = await assemble(LAB_HOST, lab.port);
    expect(data.sni).toEqual({ sent: true, required: true });
    expect(data.certificate?.ok).toBe(true);
  });

  it('sni.required when the server shows another certificate without SNI', async () => {
    const pki = await labPki();
    const lab = await server({ withoutSni: { cert: pki.wrongHost.chain, key: pki.wrongHost.key } });
    const data = await assemble(LAB_HOST, lab.port);
    expect(data.sni).toEqual({ sent: true, required: true });
    expect(data.certificate?.subject).toBe(LAB_HOST);
  });

  it('an IP literal sends no SNI and is checked against IP SANs', async () => {
    const lab = await server();
    const data = await assemble('127.0.0.1', lab.port);
    expect(data.sni).toEqual({ sent: false, required: false });
    expect(data.certificate).toMatchObject({ hostnameMatch: true, ok: true });
    expect((await lab.handshakesSeen(1)).map((h) => h.servername)).toEqual([null]);
  });

  it('a failed connection is a finding: connectionError, families[].error, no negotiated block', async () => {
    const port = await unusedPort();
    const data = await assemble(LAB_HOST, port);
    expect(data.connectionError).toContain('ECONNREFUSED');
    expect(data).toMatchObject({
      negotiated: null,
      certificate: null,
      timing: null,
      sni: { sent: true, required: false },
    });
    expect(data.families).toEqual([
      {
        family: 4,
        ip: '127.0.0.1',
        status: 'error',
        version: null,
        cipher: null,
        alpn: null,
        certFingerprint: null,
        totalMs: null,
        error: data.connectionError,
      },
    ]);
  });

  it('reports one entry per family, each on its own', async () => {
    const lab = await server();
    const pki = await labPki();
    const v4 = await settle({
      ip: '127.0.0.1',
      port: lab.port,
      servername: LAB_HOST,
      timeoutMs: 2000,
      ca: pki.root.cert,
    });
    const v6 = await settle({
      ip: '::1',
      port: await unusedPort('::1'),
      servername: LAB_HOST,
      timeoutMs: 2000,
      ca: pki.root.cert,
    });
    const data = tlsConfigurationData({
      domain: LAB_HOST,
      ip: '127.0.0.1',
      primary: v4,
      sniSent: true,
      withoutSni: v4,
      families: [
        { family: 4, ip: '127.0.0.1', outcome: v4 },
        { family: 6, ip: '::1', outcome: v6 },
      ],
      protocols: PROTOCOLS,
      now: new Date(),
    });
    expect(data.families.map((f) => [f.family, f.status])).toEqual([
      [4, 'ok'],
      [6, 'error'],
    ]);
    expect(data.families[1]!.error).toMatch(/^TCP connect to \[::1\]:\d+ failed/);
    expect(data.negotiated?.alpn).toBeNull();
    expect(data.negotiated?.http2).toBe(false);
  });
});
