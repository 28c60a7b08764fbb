import type { SecureVersion } from 'node:tls';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ProbeError } from '../../../../src/probes/errors.js';
import {
  TLS_PROTOCOL_VERSIONS,
  protocolVerdict,
  protocolVerdicts,
  type TlsProtocolVersion,
} from '../../../../src/probes/tls/protocols.js';
import { TlsProbeError, clientCanOffer, localTlsSupport, tlsHandshake } from '../../../../src/probes/tls/prober.js';
import { LAB_HOST, labPki } from '../../../lab/pki.js';
import { startTcpServer, type LabTcpServer } from '../../../lab/tcp-server.js';
import { startTlsServer, type LabTlsServer } from '../../../lab/tls-server.js';

const rejected = (reason: unknown): PromiseSettledResult<{ protocol: string }> => ({ status: 'rejected', reason });
const tlsFailure = (reason: string | null, kind: 'TLS' | 'UNREACHABLE' | 'TIMEOUT' = 'TLS') =>
  rejected(new TlsProbeError(kind, '192.0.2.1:443', 'handshake', reason, 'x'));

describe('protocolVerdict (pure)', () => {
  it('supported only when the pinned version was negotiated', () => {
    expect(protocolVerdict('TLSv1.2', true, { status: 'fulfilled', value: { protocol: 'TLSv1.2' } })).toBe('supported');
    expect(protocolVerdict('TLSv1.2', true, { status: 'fulfilled', value: { protocol: 'TLSv1.3' } })).toBe(
      'unable-to-test',
    );
  });

  it('not-supported only on a clean refusal from the server', () => {
    for (const reason of [
      'ERR_SSL_TLSV1_ALERT_PROTOCOL_VERSION',
      'ERR_SSL_SSLV3_ALERT_HANDSHAKE_FAILURE',
      'ERR_SSL_SSL/TLS_ALERT_HANDSHAKE_FAILURE',
      'ERR_SSL_UNSUPPORTED_PROTOCOL',
    ]) {
      expect(protocolVerdict('TLSv1', true, tlsFailure(reason))).toBe('not-supported');
    }
  });

  it('unable-to-test for ambiguous outcomes and for what this side cannot offer', () => {
    const ambiguous = [
      tlsFailure('ECONNRESET', 'UNREACHABLE'),
      tlsFailure(null, 'TIMEOUT'),
      tlsFailure('ERR_SSL_TLSV1_ALERT_INTERNAL_ERROR'),
      tlsFailure('ERR_SSL_WRONG_VERSION_NUMBER'),
      tlsFailure('ERR_SSL_NO_PROTOCOLS_AVAILABLE'),
      tlsFailure('ERR_SSL_LEGACY_SIGALG_DISALLOWED_OR_UNSUPPORTED'),
      rejected(new ProbeError('TIMEOUT', '192.0.2.1:443', 'x')),
      rejected('not an error object'),
    ];
    for (const outcome of ambiguous) expect(protocolVerdict('TLSv1.1', true, outcome)).toBe('unable-to-test');
    expect(protocolVerdict('TLSv1', false, { status: 'fulfilled', value: { protocol: 'TLSv1' } })).toBe(
      'unable-to-test',
    );
    expect(protocolVerdict('TLSv1', true, null)).toBe('unable-to-test');
  });

  it('lists all four versions newest first, a missing outcome being unable-to-test', () => {
    const local = { 'TLSv1.3': true, 'TLSv1.2': true, 'TLSv1.1': true, TLSv1: false };
    expect(
      protocolVerdicts(local, {
        'TLSv1.3': { status: 'fulfilled', value: { protocol: 'TLSv1.3' } },
        'TLSv1.2': tlsFailure('ERR_SSL_TLSV1_ALERT_PROTOCOL_VERSION'),
      }),
    ).toEqual([
      { version: 'TLSv1.3', result: 'supported' },
      { version: 'TLSv1.2', result: 'not-supported' },
      { version: 'TLSv1.1', result: 'unable-to-test' },
      { version: 'TLSv1', result: 'unable-to-test' },
    ]);
  });
});

describe('what this side can offer', () => {
  it('offers all four versions here, TLS 1.0/1.1 thanks to SECLEVEL 0', async () => {
    expect(await localTlsSupport()).toEqual({ 'TLSv1.3': true, 'TLSv1.2': true, 'TLSv1.1': true, TLSv1: true });
  });

  it('sees OpenSSL refuse a version its security level forbids', async () => {
    // Security level 3 forbids TLS 1.0 outright ("no protocols available").
    expect(await clientCanOffer('TLSv1', 'DEFAULT:@SECLEVEL=3')).toBe(false);
    expect(await clientCanOffer('TLSv1.3', 'DEFAULT:@SECLEVEL=3')).toBe(true);
  });
});

describe('verdicts against servers pinned to one version', () => {
  const servers = new Map<TlsProtocolVersion, LabTlsServer>();
  let root = '';

  beforeAll(async () => {
    const pki = await labPki();
    root = pki.root.cert;
    for (const version of TLS_PROTOCOL_VERSIONS) {
      servers.set(
        version,
        await startTlsServer({ cert: pki.good.chain, key: pki.good.key, minVersion: version, maxVersion: version }),
      );
    }
  });
  afterAll(async () => {
    for (const server of servers.values()) await server.close();
  });

  async function verdicts(port: number): Promise<Record<TlsProtocolVersion, string>> {
    const local = await localTlsSupport();
    const outcomes = await Promise.all(
      TLS_PROTOCOL_VERSIONS.map((version) =>
        Promise.allSettled([
          tlsHandshake({
            ip: '127.0.0.1',
            port,
            servername: LAB_HOST,
            minVersion: version as SecureVersion,
            maxVersion: version as SecureVersion,
            timeoutMs: 2000,
            ca: root,
          }),
        ]).then(([outcome]) => [version, outcome!] as const),
      ),
    );
    const result = protocolVerdicts(local, Object.fromEntries(outcomes));
    return Object.fromEntries(result.map((v) => [v.version, v.result])) as Record<TlsProtocolVersion, string>;
  }

  for (const pinned of TLS_PROTOCOL_VERSIONS) {
    it(`a ${pinned}-only server: supported for ${pinned}, not-supported for the others`, async () => {
      const expected = Object.fromEntries(
        TLS_PROTOCOL_VERSIONS.map((v) => [v, v === pinned ? 'supported' : 'not-supported']),
      );
      expect(await verdicts(servers.get(pinned)!.port)).toEqual(expected);
    });
  }

  it('a server with TLS 1.0 enabled but no cipher for it answers handshake_failure: not-supported', async () => {
    const pki = await labPki();
    const server = await startTlsServer({
      cert: pki.good.chain,
      key: pki.good.key,
      minVersion: 'TLSv1',
      maxVersion: 'TLSv1.2',
      ciphers: 'ECDHE-ECDSA-AES128-GCM-SHA256:@SECLEVEL=0',
    });
    try {
      const result = await verdicts(server.port);
      expect(result.TLSv1).toBe('not-supported');
      expect(result['TLSv1.2']).toBe('supported');
    } finally {
      await server.close();
    }
  });

  it('a server that resets every connection: unable-to-test throughout', async () => {
    let resetting: LabTcpServer | undefined;
    try {
      resetting = await startTcpServer((socket) => socket.once('data', () => socket.resetAndDestroy()));
      expect(Object.values(await verdicts(resetting.port))).toEqual([
        'unable-to-test',
        'unable-to-test',
        'unable-to-test',
        'unable-to-test',
      ]);
    } finally {
      await resetting?.close();
    }
  });
});
