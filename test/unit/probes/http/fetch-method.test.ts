/** The guarded fetcher's method and extra request fields (http-rating's CORS preflight). */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TargetGuard } from '../../../../src/probes/guard.js';
import { fetchGuarded } from '../../../../src/probes/http/fetcher.js';
import { startHttpLab, type HttpLab } from '../../../lab/http-server.js';

/** Every name is 127.0.0.1; nothing is refused. */
const guard: TargetGuard = {
  async check(target) {
    const input = target.kind === 'ip' ? target.ip : target.hostname;
    return {
      input,
      hostname: target.kind === 'ip' ? null : target.hostname,
      addresses: [{ address: '127.0.0.1', family: 4 }],
    };
  },
  assertAllowed() {},
};

let lab: HttpLab;

beforeAll(async () => {
  lab = await startHttpLab({
    pages: {
      '/see-other': { status: 303, headers: { location: '/end' } },
      '/moved': { status: 308, headers: { location: '/end' } },
      '/end': { headers: { 'access-control-allow-origin': '*' } },
    },
  });
});

afterAll(async () => {
  await lab.close();
});

const fetchWith = (path: string) =>
  fetchGuarded({
    url: new URL(lab.url(path, 'site.lab.test')),
    guard,
    timeoutMs: 2000,
    maxRedirects: 5,
    maxBodyBytes: 1024,
    readBody: false,
    method: 'OPTIONS',
    requestHeaders: { Origin: 'https://a.invalid', 'access-control-request-method': 'GET' },
  });

describe('the fetch method', () => {
  it('keeps OPTIONS and the extra fields across a 308, on every hop', async () => {
    const before = lab.requests.length;
    const result = await fetchWith('/moved');
    expect(result.final.headers['access-control-allow-origin']).toBe('*');
    const sent = lab.requests.slice(before);
    expect(sent.map((r) => `${r.method} ${r.path}`)).toEqual(['OPTIONS /moved', 'OPTIONS /end']);
    for (const r of sent) {
      expect(r.headers.origin).toBe('https://a.invalid');
      expect(r.headers['access-control-request-method']).toBe('GET');
    }
  });

  it('turns into GET after a 303 (RFC 9110 §15.4.4)', async () => {
    const before = lab.requests.length;
    await fetchWith('/see-other');
    expect(lab.requests.slice(before).map((r) => r.method)).toEqual(['OPTIONS', 'GET']);
  });

  it('is GET without the option', async () => {
    const before = lab.requests.length;
    await fetchGuarded({
      url: new URL(lab.url('/end', 'site.lab.test')),
      guard,
      timeoutMs: 2000,
      maxRedirects: 0,
      maxBodyBytes: 1024,
      readBody: false,
    });
    expect(lab.requests.slice(before).map((r) => r.method)).toEqual(['GET']);
    expect(net.isIP(lab.host)).toBe(4);
  });
});
