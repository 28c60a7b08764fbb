import { afterEach, describe, expect, it } from 'vitest';
import { portCheckerData, portStateFromConnectError } from '../../../../src/probes/tcp/port-state.js';
import { ProbeError } from '../../../../src/probes/errors.js';
import { probeTcpPort } from '../../../../src/probes/tcp/connect.js';
import { startBlackhole, startTcpServer, unusedPort } from '../../../lab/tcp-server.js';
import { rejectionOf } from '../../../helpers/tls-probe.js';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

describe('probeTcpPort', () => {
  it('open when the handshake completes, sending nothing', async () => {
    let bytes = 0;
    const server = await startTcpServer((socket) => socket.on('data', (chunk: Buffer) => (bytes += chunk.length)));
    cleanups.push(() => server.close());
    const result = await probeTcpPort({ ip: '127.0.0.1', port: server.port, timeoutMs: 2000 });
    expect(result.state).toBe('open');
    expect(result.error).toBeNull();
    expect(result.responseTimeMs).toBeGreaterThanOrEqual(0);
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(server.connections()).toBe(1);
    expect(bytes).toBe(0);
  });

  it('open over IPv6 loopback', async () => {
    const server = await startTcpServer(undefined, '::1');
    cleanups.push(() => server.close());
    expect((await probeTcpPort({ ip: '::1', port: server.port, timeoutMs: 2000 })).state).toBe('open');
  });

  it('closed when refused', async () => {
    const result = await probeTcpPort({ ip: '127.0.0.1', port: await unusedPort(), timeoutMs: 2000 });
    expect(result).toMatchObject({ state: 'closed', error: null });
  });

  it('filtered when the SYN goes unanswered, after about the time-out', async () => {
    const blackhole = await startBlackhole();
    cleanups.push(() => blackhole.close());
    const result = await probeTcpPort({ ip: '127.0.0.1', port: blackhole.port, timeoutMs: 300 });
    expect(result.state).toBe('filtered');
    expect(result.error).toBe('no answer within 300 ms');
    expect(result.responseTimeMs).toBeGreaterThanOrEqual(290);
    expect(result.responseTimeMs).toBeLessThan(600);
  });

  it('ABORTED when the signal fires while waiting, or fired before', async () => {
    const blackhole = await startBlackhole();
    cleanups.push(() => blackhole.close());
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const error = await rejectionOf(
      probeTcpPort({ ip: '127.0.0.1', port: blackhole.port, timeoutMs: 5000, signal: controller.signal }),
    );
    expect(error).toBeInstanceOf(ProbeError);
    expect(error).toMatchObject({ kind: 'ABORTED', status: 504 });
    await expect(
      probeTcpPort({ ip: '127.0.0.1', port: blackhole.port, timeoutMs: 5000, signal: AbortSignal.abort() }),
    ).rejects.toMatchObject({
      kind: 'ABORTED',
    });
  });

  it('refuses names and bad ports: a probe never resolves', async () => {
    await expect(probeTcpPort({ ip: 'localhost', port: 80, timeoutMs: 100 })).rejects.toThrow(TypeError);
    await expect(probeTcpPort({ ip: '127.0.0.1', port: 0, timeoutMs: 100 })).rejects.toThrow(TypeError);
    await expect(probeTcpPort({ ip: '127.0.0.1', port: 65536, timeoutMs: 100 })).rejects.toThrow(TypeError);
  });
});

describe('port state mapping (pure)', () => {
  it('maps connect errors to states, and others to "no verdict"', () => {
    expect(portStateFromConnectError('ECONNREFUSED')).toBe('closed');
    expect(portStateFromConnectError('EHOSTUNREACH')).toBe('filtered');
    expect(portStateFromConnectError('ENETUNREACH')).toBe('filtered');
    expect(portStateFromConnectError('ETIMEDOUT')).toBe('filtered');
    expect(portStateFromConnectError('EADDRNOTAVAIL')).toBeNull();
    expect(portStateFromConnectError(undefined)).toBeNull();
  });

  it('shapes the port-checker result', () => {
    expect(portCheckerData('example.com', 443, { state: 'open', responseTimeMs: 12.5 })).toEqual({
      host: 'example.com',
      port: 443,
      status: 'open',
      responseTime: 12.5,
    });
  });
});
