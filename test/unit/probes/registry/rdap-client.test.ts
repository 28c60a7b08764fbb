import { Agent } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ProbeError } from '../../../../src/probes/errors.js';
import { createRdapClient, rdapDomainUrl, RDAP_MAX_REDIRECTS } from '../../../../src/probes/registry/rdap.js';
import { startRdapLab, type RdapLab } from '../../../lab/rdap-server.js';
import { closedPort } from '../../../lab/whois-server.js';

const DOMAIN = { objectClassName: 'domain', ldhName: 'example.com' };

let agent: Agent;
let lab: RdapLab;

beforeAll(() => {
  agent = new Agent({ keepAliveTimeout: 10 });
});
afterAll(async () => {
  await agent.close();
});
afterEach(async () => {
  await lab?.close();
});

const rdap = () => createRdapClient({ dispatcher: agent });

async function failure(p: Promise<unknown>): Promise<ProbeError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ProbeError);
  return err as ProbeError;
}

describe('RDAP client', () => {
  it('asks <base>domain/<name> for application/rdap+json and returns the parsed body', async () => {
    lab = await startRdapLab({ '/rdap/domain/example.com': { json: DOMAIN } });
    const answer = await rdap().getDomain(`${lab.url}rdap/`, 'example.com', { timeoutMs: 2000 });
    expect(answer).toEqual({ url: `${lab.url}rdap/domain/example.com`, status: 200, json: DOMAIN });
    expect(lab.requests).toHaveLength(1);
    expect(lab.requests[0]!.accept).toContain('application/rdap+json');
  });

  it('adds the slash a base URL lacks', async () => {
    expect(rdapDomainUrl('https://rdap.example/v1', 'a.example').href).toBe('https://rdap.example/v1/domain/a.example');
    expect(rdapDomainUrl('https://rdap.example/v1/', 'a.example').href).toBe(
      'https://rdap.example/v1/domain/a.example',
    );
    lab = await startRdapLab({ '/rdap/domain/example.com': { json: DOMAIN } });
    const answer = await rdap().getDomain(`${lab.url}rdap`, 'example.com', { timeoutMs: 2000 });
    expect(answer.json).toEqual(DOMAIN);
  });

  it('returns json null for 404: the domain is not registered', async () => {
    lab = await startRdapLab();
    const answer = await rdap().getDomain(lab.url, 'nothing.example', { timeoutMs: 2000 });
    expect(answer).toEqual({ url: `${lab.url}domain/nothing.example`, status: 404, json: null });
  });

  it('reports 429 as a rate limit and other error statuses as HTTP_STATUS', async () => {
    lab = await startRdapLab({ '/domain/limited.example': { status: 429 }, '/domain/broken.example': { status: 503 } });
    const limited = await failure(rdap().getDomain(lab.url, 'limited.example', { timeoutMs: 2000 }));
    expect(limited.kind).toBe('HTTP_STATUS');
    expect(limited.status).toBe(502);
    expect(limited.message).toBe(`RDAP server ${new URL(lab.url).host} rate-limited the query (429)`);
    const broken = await failure(rdap().getDomain(lab.url, 'broken.example', { timeoutMs: 2000 }));
    expect(broken.kind).toBe('HTTP_STATUS');
    expect(broken.message).toContain('HTTP 503');
  });

  it('reports malformed JSON as MALFORMED', async () => {
    lab = await startRdapLab({ '/domain/example.com': { malformed: true } });
    const err = await failure(rdap().getDomain(lab.url, 'example.com', { timeoutMs: 2000 }));
    expect(err.kind).toBe('MALFORMED');
  });

  it('ends a stalled server with TIMEOUT within the bound', async () => {
    lab = await startRdapLab({ '/domain/example.com': { stall: true } });
    const started = performance.now();
    const err = await failure(rdap().getDomain(lab.url, 'example.com', { timeoutMs: 300 }));
    expect(err.kind).toBe('TIMEOUT');
    expect(err.status).toBe(504);
    expect(err.message).toBe(`RDAP server ${new URL(lab.url).host} did not answer within 300 ms`);
    expect(performance.now() - started).toBeLessThan(600);
  });

  it('ends with ABORTED when the caller cancels', async () => {
    lab = await startRdapLab({ '/domain/example.com': { stall: true } });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const err = await failure(rdap().getDomain(lab.url, 'example.com', { timeoutMs: 5000, signal: controller.signal }));
    expect(err.kind).toBe('ABORTED');
  });

  it(`follows up to ${RDAP_MAX_REDIRECTS} redirects, relative or absolute`, async () => {
    lab = await startRdapLab();
    lab.route('/domain/example.com', { redirect: '/hop1/domain/example.com', status: 301 });
    lab.route('/hop1/domain/example.com', { redirect: `${lab.url}hop2/domain/example.com`, status: 307 });
    lab.route('/hop2/domain/example.com', { redirect: '../../registrar/domain/example.com' });
    lab.route('/registrar/domain/example.com', { json: DOMAIN });
    const answer = await rdap().getDomain(lab.url, 'example.com', { timeoutMs: 2000 });
    expect(answer.url).toBe(`${lab.url}registrar/domain/example.com`);
    expect(answer.json).toEqual(DOMAIN);
    expect(lab.requests.map((r) => r.path)).toEqual([
      '/domain/example.com',
      '/hop1/domain/example.com',
      '/hop2/domain/example.com',
      '/registrar/domain/example.com',
    ]);
  });

  it('gives up after too many redirects, and on a redirect to another scheme', async () => {
    lab = await startRdapLab();
    for (let i = 0; i <= RDAP_MAX_REDIRECTS + 1; i++)
      lab.route(`/r${i}/domain/example.com`, { redirect: `/r${i + 1}/domain/example.com` });
    const tooMany = await failure(rdap().getDomain(`${lab.url}r0/`, 'example.com', { timeoutMs: 2000 }));
    expect(tooMany.kind).toBe('HTTP_STATUS');
    expect(tooMany.message).toContain('redirected more than 3 times');
    expect(lab.requests).toHaveLength(RDAP_MAX_REDIRECTS + 1);

    lab.route('/ftp/domain/example.com', { redirect: 'ftp://127.0.0.1/x' });
    const ftp = await failure(rdap().getDomain(`${lab.url}ftp/`, 'example.com', { timeoutMs: 2000 }));
    expect(ftp.kind).toBe('MALFORMED');
  });

  it('stops reading a body past the byte bound', async () => {
    lab = await startRdapLab({ '/domain/example.com': { huge: 2 * 1024 * 1024 } });
    const err = await failure(rdap().getDomain(lab.url, 'example.com', { timeoutMs: 5000 }));
    expect(err.kind).toBe('TOO_LARGE');
    const small = await failure(rdap().getDomain(lab.url, 'example.com', { timeoutMs: 5000, maxBytes: 1000 }));
    expect(small.kind).toBe('TOO_LARGE');
  });

  it('reports a refused connection as REFUSED', async () => {
    const port = await closedPort();
    const err = await failure(rdap().getDomain(`http://127.0.0.1:${port}/`, 'example.com', { timeoutMs: 2000 }));
    expect(err.kind).toBe('REFUSED');
    expect(err.upstream).toBe(`127.0.0.1:${port}`);
  });

  it('refuses invalid names and non-http base URLs without a request', async () => {
    lab = await startRdapLab();
    for (const name of ['example.com/../../admin', 'example.com?x=1', 'a b.com', 'ex\r\nample.com']) {
      expect((await failure(rdap().getDomain(lab.url, name, { timeoutMs: 2000 }))).kind).toBe('MALFORMED');
    }
    expect((await failure(rdap().getDomain('file:///etc/', 'example.com', { timeoutMs: 2000 }))).kind).toBe(
      'MALFORMED',
    );
    expect((await failure(rdap().getDomain('not a url', 'example.com', { timeoutMs: 2000 }))).kind).toBe('MALFORMED');
    expect(lab.requests).toHaveLength(0);
  });
});
