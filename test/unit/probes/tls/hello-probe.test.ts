/**
 * The hand-built ClientHello and its probe, against a fake server on loopback (test/lab/fake-hello-server.ts):
 * no local TLS library accepts SSLv3, RC4 or 3DES, so a fake that reads the ClientHello and answers a
 * ServerHello naming the chosen suite (then closes) stands in for such servers.
 */
import type { AddressInfo } from 'node:net';
import tls from 'node:tls';
import { afterEach, describe, expect, it } from 'vitest';
import { labPki } from '../../../lab/pki.js';
import {
  buildClientHello,
  buildServerHello,
  readClientHello,
  readServerAnswer,
} from '../../../../src/probes/tls/client-hello.js';
import { probeServerHello } from '../../../../src/probes/tls/hello-probe.js';
import { TargetRefusedError } from '../../../../src/errors.js';
import { startFakeHelloServer, type FakeHelloServer } from '../../../lab/fake-hello-server.js';

const RC4_SHA = 0x0005;
const TRIPLE_DES = 0x000a;
const AES128_SHA = 0x002f;

const servers: FakeHelloServer[] = [];
afterEach(async () => {
  while (servers.length > 0) await servers.pop()!.close();
});

async function fake(options: Parameters<typeof startFakeHelloServer>[0]): Promise<FakeHelloServer> {
  const server = await startFakeHelloServer(options);
  servers.push(server);
  return server;
}

function probe(port: number, hello: Parameters<typeof buildClientHello>[0], extra: object = {}) {
  return probeServerHello({ ip: '127.0.0.1', port, hello, timeoutMs: 1000, handshakeTimeoutMs: 500, ...extra });
}

describe('the ClientHello record', () => {
  it('carries the version, the suites with the renegotiation SCSV, SNI and the groups', () => {
    const record = buildClientHello({
      version: 'TLSv1.2',
      cipherSuites: [TRIPLE_DES, RC4_SHA],
      servername: 'good.lab.test',
      groups: [0x001d],
    });
    expect(record[0]).toBe(0x16);
    expect(record.readUInt16BE(1)).toBe(0x0301);
    expect(record.readUInt16BE(3)).toBe(record.length - 5);
    expect(readClientHello(record)).toEqual({
      version: 0x0303,
      cipherSuites: [TRIPLE_DES, RC4_SHA, 0x00ff],
      groups: [0x001d],
      servername: 'good.lab.test',
    });
  });

  it('an SSLv3 ClientHello has an SSLv3 record and no extensions (RFC 6101)', () => {
    const record = buildClientHello({ version: 'SSLv3', cipherSuites: [AES128_SHA], servername: 'x.test' });
    expect(record.readUInt16BE(1)).toBe(0x0300);
    expect(readClientHello(record)).toEqual({
      version: 0x0300,
      cipherSuites: [AES128_SHA, 0x00ff],
      groups: [],
      servername: null,
    });
  });

  it('a ServerHello split over two records, or cut short, is read once whole', () => {
    const hello = buildServerHello(0x0303, TRIPLE_DES);
    const body = hello.subarray(5);
    const split = Buffer.concat([
      Buffer.from([0x16, 0x03, 0x03, 0x00, 10]),
      body.subarray(0, 10),
      Buffer.from([0x16, 0x03, 0x03, 0x00, body.length - 10]),
      body.subarray(10),
    ]);
    expect(readServerAnswer(split.subarray(0, 20))).toBeNull();
    expect(readServerAnswer(split)).toEqual({
      kind: 'server-hello',
      version: 0x0303,
      cipherSuite: TRIPLE_DES,
      group: null,
    });
  });
});

describe('probeServerHello', () => {
  it('reads the suite a server picks (3DES with TLS 1.2), then closes', async () => {
    const server = await fake({ versions: [0x0303], suites: [TRIPLE_DES] });
    const answer = await probe(server.port, {
      version: 'TLSv1.2',
      cipherSuites: [RC4_SHA, TRIPLE_DES],
      servername: 'good.lab.test',
    });
    expect(answer).toEqual({ kind: 'server-hello', version: 0x0303, cipherSuite: TRIPLE_DES, group: null });
    expect(server.hellos[0]).toMatchObject({
      servername: 'good.lab.test',
      cipherSuites: [RC4_SHA, TRIPLE_DES, 0x00ff],
    });
  });

  it('an alert is the refusal, with its description', async () => {
    const server = await fake({ versions: [0x0303], suites: [AES128_SHA] });
    const answer = await probe(server.port, { version: 'TLSv1.2', cipherSuites: [RC4_SHA], servername: null });
    expect(answer).toEqual({ kind: 'alert', level: 2, description: 40 });
  });

  it('SSLv3: a server that speaks it answers an SSLv3 ServerHello; one that does not, protocol_version', async () => {
    const legacy = await fake({ versions: [0x0300, 0x0301], suites: [RC4_SHA] });
    expect(await probe(legacy.port, { version: 'SSLv3', cipherSuites: [RC4_SHA], servername: null })).toEqual({
      kind: 'server-hello',
      version: 0x0300,
      cipherSuite: RC4_SHA,
      group: null,
    });
    const modern = await fake({ versions: [0x0303], suites: [AES128_SHA] });
    expect(await probe(modern.port, { version: 'SSLv3', cipherSuites: [AES128_SHA], servername: null })).toEqual({
      kind: 'alert',
      level: 2,
      description: 70,
    });
  });

  it('a server that hangs up without answering is `closed`', async () => {
    const server = await fake({ versions: [0x0303], suites: [AES128_SHA], refuseByClosing: true });
    expect(await probe(server.port, { version: 'TLSv1.2', cipherSuites: [RC4_SHA], servername: null })).toEqual({
      kind: 'closed',
    });
  });

  it('a service that is not TLS is `not-tls`; broken records are MALFORMED', async () => {
    const http = await fake({ versions: [], suites: [], rawAnswer: Buffer.from('HTTP/1.1 400 Bad Request\r\n\r\n') });
    expect(await probe(http.port, { version: 'TLSv1.2', cipherSuites: [RC4_SHA], servername: null })).toEqual({
      kind: 'not-tls',
    });
    const broken = await fake({ versions: [], suites: [], rawAnswer: Buffer.from([0x16, 3, 3, 0, 4, 0x0e, 0, 0, 0]) });
    await expect(
      probe(broken.port, { version: 'TLSv1.2', cipherSuites: [RC4_SHA], servername: null }),
    ).rejects.toMatchObject({ kind: 'MALFORMED' });
  });

  it('a server that never answers is a TIMEOUT of the handshake phase', async () => {
    const server = await fake({ versions: [0x0303], suites: [], silent: true });
    await expect(
      probe(
        server.port,
        { version: 'TLSv1.2', cipherSuites: [RC4_SHA], servername: null },
        { handshakeTimeoutMs: 100 },
      ),
    ).rejects.toMatchObject({ kind: 'TIMEOUT', phase: 'handshake' });
  });

  it('the guard sees the remote address before a byte is sent', async () => {
    const server = await fake({ versions: [0x0303], suites: [RC4_SHA] });
    const refuse = (address: string) => {
      throw new TargetRefusedError('x.test', address, 'loopback');
    };
    await expect(
      probe(server.port, { version: 'TLSv1.2', cipherSuites: [RC4_SHA], servername: null }, { assertRemote: refuse }),
    ).rejects.toBeInstanceOf(TargetRefusedError);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(server.hellos).toEqual([]);
  });

  it('a closed port is REFUSED', async () => {
    const server = await fake({ versions: [0x0303], suites: [] });
    const port = server.port;
    await server.close();
    servers.length = 0;
    await expect(probe(port, { version: 'TLSv1.2', cipherSuites: [RC4_SHA], servername: null })).rejects.toMatchObject({
      kind: 'REFUSED',
    });
  });
});

describe('a TLS 1.3 ClientHello without a key share', () => {
  it('draws a HelloRetryRequest naming the group from a server that takes it, an alert from one that does not', async () => {
    const pki = await labPki();
    const server = tls.createServer({ cert: pki.good.chain, key: pki.good.key, ecdhCurve: 'P-384:X25519' });
    server.on('tlsClientError', () => {});
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    try {
      const ask = (group: number) =>
        probe(port, {
          version: 'TLSv1.3',
          cipherSuites: [0x1301, 0x1302],
          servername: 'good.lab.test',
          groups: [group],
        });
      expect(await ask(0x0018)).toEqual({ kind: 'server-hello', version: 0x0304, cipherSuite: 0x1302, group: 0x0018 });
      expect(await ask(0x001d)).toMatchObject({ kind: 'server-hello', version: 0x0304, group: 0x001d });
      expect(await ask(0x0017)).toMatchObject({ kind: 'alert', description: 40 });
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });
});
