/** Which first bytes the primary answers itself (src/cluster/liveness-probe.ts); all else goes to a worker. */
import { describe, expect, it } from 'vitest';
import { isLivenessProbe } from '../../../src/cluster/liveness-probe.js';

const probe = (text: string) => isLivenessProbe(Buffer.from(text, 'latin1'));

describe('isLivenessProbe', () => {
  it('takes GET and HEAD /healthz, with or without a query, on HTTP/1.0 and 1.1', () => {
    expect(probe('GET /healthz HTTP/1.1\r\nHost: a\r\n\r\n')).toBe(true);
    expect(probe('HEAD /healthz HTTP/1.1\r\n')).toBe(true);
    expect(probe('GET /healthz?from=kubelet HTTP/1.0\r\n\r\n')).toBe(true);
  });

  it('takes the absolute form of the target too (RFC 9112 §3.2.2)', () => {
    expect(probe('GET http://a/healthz HTTP/1.1\r\n')).toBe(true);
    expect(probe('HEAD HTTPS://a.example:8080/healthz?x=1 HTTP/1.1\r\n')).toBe(true);
  });

  it('leaves everything else to a worker', () => {
    for (const text of [
      '', // nothing sent yet
      'GET /healthz', // a request line cut across two reads
      'GET /healthz HTTP/1.1', // no line end yet
      'POST /healthz HTTP/1.1\r\n',
      'GET /healthz/ HTTP/1.1\r\n',
      'GET /healthzz HTTP/1.1\r\n',
      'GET /readyz HTTP/1.1\r\n',
      'GET http://a/healthz/ HTTP/1.1\r\n',
      'GET http://a/b/healthz HTTP/1.1\r\n',
      'GET ftp://a/healthz HTTP/1.1\r\n',
      'get /healthz HTTP/1.1\r\n',
      'GET /healthz HTTP/2.0\r\n',
      '\x16\x03\x01\x02\x00\x01', // a TLS ClientHello
    ])
      expect(probe(text), JSON.stringify(text)).toBe(false);
  });
});
