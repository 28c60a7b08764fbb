/**
 * bimi end to end (REST and GraphQL): the lab DNS as the system resolver (BIMI and DMARC records), a
 * loopback HTTPS server answering for the logo hosts (the webPorts seam points port 443 at it), the lab
 * root as trust anchor.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, graphql, type TestApp } from '../../../../test/helpers/app.js';
import { TINY_PS_LOGO } from '../../../../test/lab/bimi-logo.js';
import { rr, startDnsLab, type DnsLab } from '../../../../test/lab/dns-server.js';
import { startDocumentServer, type DocumentServer } from '../../../../test/lab/document-server.js';
import { labLeafFor, labPki } from '../../../../test/lab/pki.js';

const svg = (body: string) => ({ headers: { 'content-type': 'image/svg+xml' }, body });

let dns: DnsLab;
let web: DocumentServer;
let t: TestApp;

beforeAll(async () => {
  const pki = await labPki();
  const leaf = await labLeafFor(['logos.brand.test']);
  web = await startDocumentServer(
    { cert: leaf.chain, key: leaf.key },
    {
      'logos.brand.test/good.svg': svg(TINY_PS_LOGO),
      'logos.brand.test/script.svg': svg(TINY_PS_LOGO.replace('</svg>', '<script>alert(1)</script></svg>')),
      'logos.brand.test/external.svg': svg(TINY_PS_LOGO.replace('#c', 'https://tracker.test/p.svg')),
      'logos.brand.test/huge.svg': svg(TINY_PS_LOGO.replace('</svg>', `<desc>${'x'.repeat(40 * 1024)}</desc></svg>`)),
      'logos.brand.test/logo.png': { headers: { 'content-type': 'image/png' }, body: Buffer.alloc(100) },
    },
  );
  const bimi = (domain: string, path: string) =>
    rr.txt(`default._bimi.${domain}`, `v=BIMI1; l=https://logos.brand.test/${path}; a=`);
  dns = await startDnsLab({
    authoritative: false,
    records: [
      rr.a('logos.brand.test', '127.0.0.1'),
      bimi('good.brand.test', 'good.svg'),
      bimi('script.brand.test', 'script.svg'),
      bimi('external.brand.test', 'external.svg'),
      bimi('huge.brand.test', 'huge.svg'),
      bimi('png.brand.test', 'logo.png'),
      bimi('missing.brand.test', 'gone.svg'),
      bimi('weak.brand.test', 'good.svg'),
      rr.txt('spring._bimi.good.brand.test', 'v=BIMI1; l=https://logos.brand.test/good.svg'),
      // the organisational domain's DMARC applies to every subdomain but weak.brand.test
      rr.txt('_dmarc.brand.test', 'v=DMARC1; p=reject'),
      rr.txt('_dmarc.weak.brand.test', 'v=DMARC1; p=none'),
      rr.txt('declined.brand.test', 'v=spf1 -all'),
      rr.txt('default._bimi.declined.brand.test', 'v=BIMI1; l=; a=;'),
    ],
  });
  t = await createTestApp(
    { dns: { system: [`127.0.0.1:${dns.port}`], timeoutMs: 500 }, targets: { allow: ['127.0.0.0/8'] } },
    {
      connections: { tlsCa: pki.root.cert, connectTimeoutMs: 1000, handshakeTimeoutMs: 1000 },
      webPorts: { http: 9, https: web.port },
    },
  );
});

afterAll(async () => {
  await Promise.all([t.close(), dns.close(), web.close()]);
});

const check = async (query: string) => {
  const res = await t.get(`/api/v1/bimi?${query}`);
  return { status: res.status, body: await res.json(), headers: res.headers };
};

describe('bimi', () => {
  it('valid: the record, a tiny-ps logo and DMARC reject inherited from the organisational domain, for 3 credits', async () => {
    const { status, body, headers } = await check('domain=Good.Brand.test.');
    expect(status).toBe(200);
    expect(headers.get('ratelimit-remaining')).toBe(String(300 - 3));
    expect(body).toEqual({
      ok: true,
      data: {
        domain: 'good.brand.test',
        selector: 'default',
        found: true,
        record: 'v=BIMI1; l=https://logos.brand.test/good.svg; a=',
        queriedName: 'default._bimi.good.brand.test',
        location: 'https://logos.brand.test/good.svg',
        authority: '',
        svg: { status: 200, contentType: 'image/svg+xml', bytes: TINY_PS_LOGO.length, tinyPs: true, errors: [] },
        dmarcEligible: true,
        status: 'valid',
        errors: [],
      },
      meta: { tool: 'bimi', version: 'v1' },
    });
  });

  it('reads another selector', async () => {
    const { body } = await check('domain=good.brand.test&selector=spring');
    expect(body.data).toMatchObject({
      selector: 'spring',
      queriedName: 'spring._bimi.good.brand.test',
      status: 'valid',
    });
  });

  it('invalid, saying why: a script, an external reference, over 32 KiB, not SVG, a 404, DMARC not enforced', async () => {
    const reasons: Record<string, RegExp> = {
      script: /has a <script> element/,
      external: /references "https:\/\/tracker\.test\/p\.svg" outside itself/,
      huge: /larger than 32 KiB/,
      png: /served as image\/png, not image\/svg\+xml/,
      missing: /the logo URL answered 404/,
      weak: /the DMARC policy is none; BIMI needs quarantine or reject/,
    };
    for (const [name, reason] of Object.entries(reasons)) {
      const { status, body } = await check(`domain=${name}.brand.test`);
      expect(status).toBe(200);
      expect(body.data.status, name).toBe('invalid');
      expect(body.data.errors.join(' | '), name).toMatch(reason);
    }
    expect((await check('domain=weak.brand.test')).body.data.dmarcEligible).toBe(false);
  });

  it('not configured without a record, or with one declining BIMI; nothing fetched', async () => {
    const before = web.requests.length;
    expect((await check('domain=nothing.brand.test')).body.data).toMatchObject({
      found: false,
      status: 'not-configured',
      svg: null,
    });
    expect((await check('domain=declined.brand.test')).body.data).toMatchObject({
      found: true,
      status: 'not-configured',
    });
    expect(web.requests.length).toBe(before);
  });

  it('400 for a bad domain or selector; composes in GraphQL beside dmarc-checker', async () => {
    expect((await check('domain=not_a_domain')).status).toBe(400);
    expect((await check('domain=good.brand.test&selector=bad%20selector')).status).toBe(400);
    const { status, body } = await graphql(
      t,
      '{ bimi(domain: "good.brand.test") { status svg { tinyPs } } dmarcChecker(domain: "good.brand.test") { found } }',
    );
    expect(status).toBe(200);
    expect(body.data).toEqual({ bimi: { status: 'valid', svg: { tinyPs: true } }, dmarcChecker: { found: true } });
  });
});
