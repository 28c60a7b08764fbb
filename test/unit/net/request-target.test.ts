/** The absolute-form request target read as RFC 9112 §3.2.2 says (src/net/request-target.ts). */
import type { IncomingHttpHeaders } from 'node:http';
import { describe, expect, it } from 'vitest';
import { toOriginForm } from '../../../src/net/request-target.js';

function read(url: string, headers: IncomingHttpHeaders = { host: 'sent.test' }) {
  const request = { url, headers: { ...headers } };
  toOriginForm(request);
  return { url: request.url, host: request.headers.host };
}

describe('the request target', () => {
  it('takes the path and query of the absolute form, and the host from it instead of the Host field', () => {
    expect(read('http://x/healthz')).toEqual({ url: '/healthz', host: 'x' });
    expect(read('HTTP://Example.TEST:8080/api/v1/my-ip?api_key=k&a=1')).toEqual({
      url: '/api/v1/my-ip?api_key=k&a=1',
      host: 'example.test:8080',
    });
    expect(read('https://[::1]:8443')).toEqual({ url: '/', host: '[::1]:8443' });
    expect(read('http://x/healthz', {})).toEqual({ url: '/healthz', host: 'x' });
  });

  it('leaves the origin form, the asterisk form and what is no http URL as they are', () => {
    expect(read('/healthz')).toEqual({ url: '/healthz', host: 'sent.test' });
    expect(read('//x/healthz')).toEqual({ url: '//x/healthz', host: 'sent.test' });
    expect(read('*')).toEqual({ url: '*', host: 'sent.test' });
    expect(read('ftp://x/healthz')).toEqual({ url: 'ftp://x/healthz', host: 'sent.test' });
    expect(read('http://[bad/healthz')).toEqual({ url: 'http://[bad/healthz', host: 'sent.test' });
  });
});
