/**
 * A server the host has no route to (an IPv6 resolver on an IPv4-only host, a dead network): Node's
 * dgram calls connect's callback with ENETUNREACH. That must end the question as UNREACHABLE, not
 * throw from inside a socket callback (which would take the whole service down). The socket is a
 * stand-in: nothing is sent anywhere.
 */
import dgram from 'node:dgram';
import { EventEmitter } from 'node:events';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createDnsClient } from '../../../../src/probes/dns/client.js';
import { ProbeError } from '../../../../src/probes/errors.js';

class UnroutableSocket extends EventEmitter {
  sent = 0;
  connect(_port: number, _address: string, callback: (error?: Error) => void): void {
    const error = Object.assign(new Error('connect ENETUNREACH'), { code: 'ENETUNREACH' });
    queueMicrotask(() => callback(error));
  }
  send(): void {
    this.sent++;
    throw Object.assign(new RangeError('Port should be > 0 and < 65536'), { code: 'ERR_SOCKET_BAD_PORT' });
  }
  close(): void {}
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('DNS over UDP to an unroutable server', () => {
  it('ends as UNREACHABLE naming the server, sending nothing', async () => {
    const socket = new UnroutableSocket();
    vi.spyOn(dgram, 'createSocket').mockReturnValue(socket as unknown as dgram.Socket);
    const client = createDnsClient({ timeoutMs: 500 });
    const outcome = client.query({ name: 'example.test', type: 'A', server: { host: '192.0.2.53', port: 53 } });
    await expect(outcome).rejects.toBeInstanceOf(ProbeError);
    await expect(outcome).rejects.toMatchObject({ kind: 'UNREACHABLE', upstream: '192.0.2.53:53' });
    await expect(outcome).rejects.toThrow(/ENETUNREACH/);
    expect(socket.sent).toBe(0);
  });
});
