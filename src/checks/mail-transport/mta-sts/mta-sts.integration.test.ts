/**
 * mta-sts end to end (REST, GraphQL, a real listening socket): the lab DNS as the system resolver, a
 * loopback HTTPS server answering for every mta-sts.<domain> host (the webPorts seam points the
 * policy URL's port 443 at it), the lab root as trust anchor.
 */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpServer } from '../../../http-server.js';
import { createTestApp, graphql, TEST_KEY, type TestApp } from '../../../../test/helpers/app.js';
import { rr, startDnsLab, type DnsLab } from '../../../../test/lab/dns-server.js';
import { startDocumentServer, type DocumentServer } from '../../../../test/lab/document-server.js';
import { labLeafFor, labPki } from '../../../../test/lab/pki.js';

const DOMAINS = ['good', 'testing', 'badsyntax', 'missing', 'moved', 'html', 'huge', 'unmatched', 'wrongcert'].map(
  (d) => `${d}.sts.test`,
);
const POLICY = 'version: STSv1\r\nmode: enforce\r\nmx: mx.sts.test\r\nmx: *.mail.sts.test\r\nmax_age: 1209600\r\n';
const WELL_KNOWN = '/.well-known/mta-sts.txt';
const text = (body: string) => ({ headers: { 'content-type': 'text/plain; charset=utf-8' }, body });

let dns: DnsLab;
let web: DocumentServer;
let t: TestApp;
let refusing: TestApp;

beforeAll(async () => {
  const pki = await labPki();
  // every policy host but wrongcert's is on the certificate
  const leaf = await labLeafFor(DOMAINS.filter((d) => !d.startsWith('wrongcert')).map((d) => `mta-sts.${d}`));
  web = await startDocumentServer(
    { cert: leaf.chain, key: leaf.key },
    {
      [`mta-sts.good.sts.test${WELL_KNOWN}`]: text(POLICY),
      [`mta-sts.testing.sts.test${WELL_KNOWN}`]: text(POLICY.replace('enforce', 'testing')),
      [`mta-sts.badsyntax.sts.test${WELL_KNOWN}`]: text('version: STSv1\nmode: strict\n'),
      [`mta-sts.moved.sts.test${WELL_KNOWN}`]: { status: 301, headers: { location: 'https://elsewhere.sts.test/' } },
      [`mta-sts.html.sts.test${WELL_KNOWN}`]: { headers: { 'content-type': 'text/html' }, body: '<html></html>' },
      [`mta-sts.huge.sts.test${WELL_KNOWN}`]: text(POLICY + '#'.repeat(70 * 1024)),
      [`mta-sts.unmatched.sts.test${WELL_KNOWN}`]: text(POLICY),
      [`mta-sts.wrongcert.sts.test${WELL_KNOWN}`]: text(POLICY),
    },
  );
  dns = await startDnsLab({
    authoritative: false,
    records: [
      ...DOMAINS.flatMap((d) => [
        rr.txt(`_mta-sts.${d}`, 'v=STSv1; id=20261124T000000'),
        rr.a(`mta-sts.${d}`, '127.0.0.1'),
        rr.mx(d, 10, 'mx.sts.test'),
        rr.mx(d, 20, 'b.mail.sts.test'),
      ]),
      rr.mx('unmatched.sts.test', 30, 'backup.other.test'),
      rr.txt('_mta-sts.twice.sts.test', 'v=STSv1; id=1'),
      rr.txt('_mta-sts.twice.sts.test', 'v=STSv1; id=2'),
      rr.txt('none.sts.test', 'v=spf1 -all'),
    ],
  });
  const config = {
    dns: { system: [`127.0.0.1:${dns.port}`], timeoutMs: 500 },
    targets: { allow: ['127.0.0.0/8'] },
  };
  const overrides = {
    connections: { tlsCa: pki.root.cert, connectTimeoutMs: 1000, handshakeTimeoutMs: 1000 },
    webPorts: { http: 9, https: web.port },
  };
  t = await createTestApp(config, overrides);
  refusing = await createTestApp({ dns: config.dns }, overrides);
});

afterAll(async () => {
  await Promise.all([t.close(), refusing.close(), dns.close(), web.close()]);
});

const check = async (domain: string, app = t) => {
  const res = await app.get(`/api/v1/mta-sts?domain=${domain}`);
  return { status: res.status, body: await res.json(), headers: res.headers };
};

describe('mta-sts', () => {
  it('enforce: the record, the policy and every MX host matched, in the v1 envelope, for 3 credits', async () => {
    const { status, body, headers } = await check('Good.STS.test.');
    expect(status).toBe(200);
    expect(headers.get('ratelimit-remaining')).toBe(String(300 - 3));
    expect(body).toEqual({
      ok: true,
      data: {
        domain: 'good.sts.test',
        found: true,
        record: 'v=STSv1; id=20261124T000000',
        id: '20261124T000000',
        policyUrl: 'https://mta-sts.good.sts.test/.well-known/mta-sts.txt',
        policy: { version: 'STSv1', mode: 'enforce', mx: ['mx.sts.test', '*.mail.sts.test'], maxAge: 1209600 },
        fetch: { status: 200, error: null },
        mxMatches: [
          { exchange: 'mx.sts.test', matches: true },
          { exchange: 'b.mail.sts.test', matches: true },
        ],
        omittedExchanges: 0,
        status: 'enforce',
        errors: [],
        warnings: [],
      },
      meta: { tool: 'mta-sts', version: 'v1' },
    });
    expect(web.requests).toContain(`mta-sts.good.sts.test ${WELL_KNOWN}`);
  });

  it('testing mode, no record, and several records', async () => {
    expect((await check('testing.sts.test')).body.data).toMatchObject({
      status: 'testing',
      policy: { mode: 'testing' },
    });
    const none = (await check('none.sts.test')).body.data;
    expect(none).toMatchObject({
      found: false,
      record: '',
      status: 'not-configured',
      fetch: { status: null, error: null },
    });
    const twice = (await check('twice.sts.test')).body.data;
    expect(twice).toMatchObject({ found: true, record: '', status: 'invalid' });
    expect(twice.errors[0]).toMatch(/^2 MTA-STS records at _mta-sts\.twice\.sts\.test/);
  });

  it('invalid, saying why: bad syntax, a 404, a redirect, not text/plain, over 64 KiB, a certificate for other names', async () => {
    const reasons: Record<string, RegExp> = {
      badsyntax: /mode "strict" is not enforce, testing or none/,
      missing: /answered 404 for the policy/,
      moved: /answered 301 \(a redirect\): policy fetches do not follow redirects/,
      html: /served as text\/html, not text\/plain/,
      huge: /larger than 64 KiB/,
      wrongcert: /certificate of mta-sts\.wrongcert\.sts\.test is not valid for it \(ERR_TLS_CERT_ALTNAME_INVALID\)/,
    };
    for (const [name, reason] of Object.entries(reasons)) {
      const { status, body } = await check(`${name}.sts.test`);
      expect(status).toBe(200);
      expect(body.data.status, name).toBe('invalid');
      expect(body.data.errors.join(' | '), name).toMatch(reason);
    }
    expect(web.requests).not.toContain(`elsewhere.sts.test /`);
  });

  it('an MX host outside the patterns makes an enforced policy invalid', async () => {
    const { body } = await check('unmatched.sts.test');
    expect(body.data.status).toBe('invalid');
    expect(body.data.mxMatches).toContainEqual({ exchange: 'backup.other.test', matches: false });
  });

  it('refuses a policy host on a private address as other checks do: invalid, nothing fetched', async () => {
    const before = web.requests.length;
    const { status, body } = await check('good.sts.test', refusing);
    expect(status).toBe(200);
    expect(body.data.status).toBe('invalid');
    expect(body.data.fetch.error).toMatch(/loopback address; checks of private or internal addresses are refused/);
    expect(web.requests.length).toBe(before);
  });

  it('400 for a bad domain; 504 when the resolver drops the question', async () => {
    expect((await check('not_a_domain')).status).toBe(400);
    dns.setBehaviour('_mta-sts.slow.sts.test', { drop: true });
    expect((await check('slow.sts.test')).status).toBe(504);
    dns.clearBehaviours();
  });

  it('composes in GraphQL beside another check, and answers over a real socket', async () => {
    const { status, body } = await graphql(
      t,
      '{ mtaSts(domain: "good.sts.test") { status } tlsRpt(domain: "good.sts.test") { found } }',
    );
    expect(status).toBe(200);
    expect(body.data).toEqual({ mtaSts: { status: 'enforce' }, tlsRpt: { found: false } });
    const server: Server = createHttpServer(t.app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const res = await fetch(`http://127.0.0.1:${port}/api/v1/mta-sts?domain=testing.sts.test`, {
        headers: { 'x-api-key': TEST_KEY },
      });
      expect((await res.json()).data.status).toBe('testing');
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
