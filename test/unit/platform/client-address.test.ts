/** The client address rule (decisions §5), and the bounded memo of its answers. */
import { describe, expect, it } from 'vitest';
import { clientAddress, connectionClientAddress } from '../../../src/platform/client-address.js';

describe('client address', () => {
  it('is the peer, or the address a trusted proxy appended to X-Forwarded-For', () => {
    const trusted = ['127.0.0.1/32'];
    expect(clientAddress('93.184.216.34', '198.51.100.7', trusted)).toEqual({ ip: '93.184.216.34', version: 'IPv4' });
    expect(clientAddress('127.0.0.1', '198.51.100.7, 93.184.216.34', trusted)).toEqual({
      ip: '93.184.216.34',
      version: 'IPv4',
    });
    expect(clientAddress('::ffff:93.184.216.34', null, trusted)).toEqual({ ip: '93.184.216.34', version: 'IPv4' });
  });

  it('answers the same inputs from memory, and keeps telling a private address apart every time', () => {
    const trusted = ['127.0.0.1/32'];
    const first = clientAddress('127.0.0.1', '93.184.216.34', trusted);
    expect(clientAddress('127.0.0.1', '93.184.216.34', trusted)).toBe(first);
    expect(connectionClientAddress('127.0.0.1', '93.184.216.34', trusted)).toBe(first);
    // another trusted list is another memo: the same headers name another client there
    const untrusted = ['10.0.0.0/8'];
    expect(connectionClientAddress('127.0.0.1', '93.184.216.34', untrusted)).toEqual({
      ip: '127.0.0.1',
      version: 'IPv4',
    });
    expect(() => clientAddress('127.0.0.1', '93.184.216.34', untrusted)).toThrow(/127\.0\.0\.1 is a loopback address/);
    for (let i = 0; i < 2; i++) {
      expect(() => clientAddress('127.0.0.1', '10.1.2.3', trusted)).toThrow(
        /the client address 10\.1\.2\.3 is a private[ -].*not a public one/,
      );
      expect(connectionClientAddress('127.0.0.1', '10.1.2.3', trusted)).toEqual({ ip: '10.1.2.3', version: 'IPv4' });
    }
  });

  it('keeps nothing for malformed input (it is refused each time) or a long X-Forwarded-For', () => {
    const trusted = ['127.0.0.1/32'];
    for (let i = 0; i < 2; i++)
      expect(() => clientAddress('127.0.0.1', 'not-an-address', trusted)).toThrow(/is malformed/);
    const long = `${Array.from({ length: 40 }, (_, i) => `192.0.2.${i}`).join(', ')}, 93.184.216.34`;
    expect(long.length).toBeGreaterThan(256);
    const first = clientAddress('127.0.0.1', long, trusted);
    expect(first).toEqual({ ip: '93.184.216.34', version: 'IPv4' });
    expect(clientAddress('127.0.0.1', long, trusted)).not.toBe(first);
  });

  it('holds a bounded number of answers, the least recently used leaving first', () => {
    const trusted = ['127.0.0.1/32'];
    const first = connectionClientAddress('127.0.0.1', '198.51.100.1', trusted);
    expect(connectionClientAddress('127.0.0.1', '198.51.100.1', trusted)).toBe(first);
    for (let i = 0; i < 1024; i++) connectionClientAddress('127.0.0.1', `93.184.${i >> 8}.${i % 256}`, trusted);
    const again = connectionClientAddress('127.0.0.1', '198.51.100.1', trusted);
    expect(again).toEqual(first);
    expect(again).not.toBe(first);
  });
});
