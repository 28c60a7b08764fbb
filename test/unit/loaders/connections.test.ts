import { afterEach, describe, expect, it } from 'vitest';
import { ConnectionBudgetError, createConnectionBudget } from '../../../src/loaders/connection-budget.js';
import {
  createConnectionLoaders,
  tcpQuestionKey,
  tlsQuestionKey,
  type TlsQuestion,
} from '../../../src/loaders/connections.js';
import { firstAddressPerFamily } from '../../../src/checks/tls-http/shared/main-handshake.js';
import { connectionSettings } from '../../../src/probes/tls/settings.js';
import { TargetRefusedError } from '../../../src/errors.js';
import { TlsProbeError } from '../../../src/probes/tls/prober.js';
import { LAB_HOST, labPki } from '../../lab/pki.js';
import { startTcpServer } from '../../lab/tcp-server.js';
import { startTlsServer, type LabTlsServer } from '../../lab/tls-server.js';
import { rejectionOf } from '../../helpers/tls-probe.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

async function goodServer(): Promise<LabTlsServer> {
  const pki = await labPki();
  const server = await startTlsServer({ cert: pki.good.chain, key: pki.good.key, alpn: ['h2', 'http/1.1'] });
  cleanups.push(() => server.close());
  return server;
}

async function loaders(
  assertAllowed: (address: string, target: string) => void = () => {},
  signal = new AbortController().signal,
) {
  const pki = await labPki();
  return createConnectionLoaders(
    connectionSettings({ tlsCa: pki.root.cert, connectTimeoutMs: 1000, handshakeTimeoutMs: 1000 }),
    assertAllowed,
    signal,
    createConnectionBudget(1000),
  );
}

const question = (port: number, extra: Partial<TlsQuestion> = {}): TlsQuestion => ({
  ip: '127.0.0.1',
  port,
  servername: LAB_HOST,
  target: LAB_HOST,
  ...extra,
});

describe('question keys', () => {
  it('tell handshakes apart by everything the server may answer differently, but not by the target named', () => {
    const base = question(443);
    const keys = [
      base,
      { ...base, ip: '::1' },
      { ...base, port: 8443 },
      { ...base, servername: null },
      { ...base, minVersion: 'TLSv1.2' as const },
      { ...base, maxVersion: 'TLSv1.2' as const },
      { ...base, alpn: ['h2'] },
      { ...base, alpn: ['h2', 'http/1.1'] },
    ].map(tlsQuestionKey);
    expect(new Set(keys).size).toBe(keys.length);
    expect(tlsQuestionKey({ ...base, target: '127.0.0.1' })).toBe(tlsQuestionKey(base));
    expect(tcpQuestionKey({ ip: '127.0.0.1', port: 80, target: 'a.test' })).toBe(
      tcpQuestionKey({ ip: '127.0.0.1', port: 80, target: 'b.test' }),
    );
    expect(tcpQuestionKey({ ip: '127.0.0.1', port: 80, target: 'a.test' })).not.toBe(
      tcpQuestionKey({ ip: '127.0.0.1', port: 81, target: 'a.test' }),
    );
  });
});

describe('createConnectionLoaders', () => {
  it('runs one handshake per distinct question, with the injected trust anchor', async () => {
    const server = await goodServer();
    const l = await loaders();
    const [a, b, c] = await Promise.all([
      l.tlsHandshake(question(server.port, { alpn: ['h2', 'http/1.1'] })),
      l.tlsHandshake(question(server.port, { alpn: ['h2', 'http/1.1'], target: 'another name for it' })),
      l.tlsHandshake(question(server.port)),
    ]);
    expect(a).toBe(b);
    expect(a.alpn).toBe('h2');
    expect(c.alpn).toBeNull();
    expect(a.authorized).toBe(true);
    expect(server.tcpConnections()).toBe(2);
  });

  it("spends one connection of the request's budget per distinct question, and refuses past it before connecting", async () => {
    const server = await goodServer();
    const pki = await labPki();
    const budget = createConnectionBudget(2);
    const l = createConnectionLoaders(
      connectionSettings({ tlsCa: pki.root.cert, connectTimeoutMs: 1000, handshakeTimeoutMs: 1000 }),
      () => {},
      new AbortController().signal,
      budget,
    );
    await Promise.all([l.tlsHandshake(question(server.port)), l.tlsHandshake(question(server.port))]);
    await l.tcpProbe({ ip: '127.0.0.1', port: server.port, target: LAB_HOST });
    expect(budget.used).toBe(2);
    const refused = await rejectionOf(l.tlsHandshake(question(server.port, { alpn: ['h2'] })));
    expect(refused).toBeInstanceOf(ConnectionBudgetError);
    expect(server.tcpConnections()).toBe(2);
  });

  it('keeps a failure for the question: asked again, it is not retried', async () => {
    const silent = await startTcpServer();
    cleanups.push(() => silent.close());
    const l = await loaders();
    const first = await rejectionOf(l.tlsHandshake(question(silent.port)));
    const second = await rejectionOf(l.tlsHandshake(question(silent.port)));
    expect(first).toBeInstanceOf(TlsProbeError);
    expect(first).toMatchObject({ kind: 'TIMEOUT', phase: 'handshake' });
    expect(second).toBe(first);
    expect(silent.connections()).toBe(1);
  });

  it('re-checks the remote address with the guard before any TLS byte, passing its refusal on', async () => {
    const server = await goodServer();
    const seen: [string, string][] = [];
    const l = await loaders((address, target) => {
      seen.push([address, target]);
      throw new TargetRefusedError(target, address, 'loopback');
    });
    const error = await rejectionOf(l.tlsHandshake(question(server.port)));
    expect(error).toBeInstanceOf(TargetRefusedError);
    expect(seen).toEqual([['127.0.0.1', LAB_HOST]]);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(server.tcpConnections()).toBe(1);
    // no ClientHello reached the server: it never learnt the name
    expect(server.handshakes.filter((h) => h.servername !== null)).toEqual([]);
  });

  it('tests a TCP port once per (address, port), re-checking the remote address', async () => {
    const server = await startTcpServer();
    cleanups.push(() => server.close());
    const seen: string[] = [];
    const l = await loaders((address) => seen.push(address));
    const [a, b] = await Promise.all([
      l.tcpProbe({ ip: '127.0.0.1', port: server.port, target: '127.0.0.1' }),
      l.tcpProbe({ ip: '127.0.0.1', port: server.port, target: LAB_HOST }),
    ]);
    expect(a).toBe(b);
    expect(a.state).toBe('open');
    expect(seen).toEqual(['127.0.0.1']);

    const refusing = await loaders((address, target) => {
      throw new TargetRefusedError(target, address, 'loopback');
    });
    expect(
      await rejectionOf(refusing.tcpProbe({ ip: '127.0.0.1', port: server.port, target: 'x.test' })),
    ).toBeInstanceOf(TargetRefusedError);
  });

  it('ends every probe with ABORTED when the request signal fires', async () => {
    const silent = await startTcpServer();
    cleanups.push(() => silent.close());
    const controller = new AbortController();
    const l = await loaders(undefined, controller.signal);
    const pending = rejectionOf(l.tlsHandshake(question(silent.port)));
    setTimeout(() => controller.abort(), 20);
    expect(await pending).toMatchObject({ kind: 'ABORTED' });
  });
});

describe('firstAddressPerFamily', () => {
  it('keeps the first address of each family, IPv4 first', () => {
    expect(
      firstAddressPerFamily([
        { address: '2001:db8::1', family: 6 },
        { address: '192.0.2.1', family: 4 },
        { address: '2001:db8::2', family: 6 },
        { address: '192.0.2.2', family: 4 },
      ]),
    ).toEqual([
      { address: '192.0.2.1', family: 4 },
      { address: '2001:db8::1', family: 6 },
    ]);
    expect(firstAddressPerFamily([{ address: '2001:db8::1', family: 6 }])).toEqual([
      { address: '2001:db8::1', family: 6 },
    ]);
  });
});
