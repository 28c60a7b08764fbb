/** tls-rpt end to end (REST and GraphQL), against a loopback DNS lab as the system resolver. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rr, startDnsLab, type DnsLab } from '../../../../test/lab/dns-server.js';
import { createTestApp, graphql, type TestApp } from '../../../../test/helpers/app.js';

let lab: DnsLab;
let t: TestApp;

beforeAll(async () => {
  lab = await startDnsLab({
    authoritative: false,
    records: [
      rr.txt('_smtp._tls.rpt.test', 'v=TLSRPTv1; rua=mailto:tls@rpt.test,https://reports.rpt.test/tlsrpt'),
      rr.txt('_smtp._tls.bad.test', 'v=TLSRPTv1; rua=ftp://reports.bad.test/'),
      rr.a('none.test', '192.0.2.1'),
    ],
  });
  t = await createTestApp({ dns: { system: [`127.0.0.1:${lab.port}`], timeoutMs: 500 } });
});
afterAll(async () => {
  await t.close();
  await lab.close();
});

describe('tls-rpt', () => {
  it('answers the record and its report URIs in the v1 envelope, for 3 credits', async () => {
    const res = await t.get('/api/v1/tls-rpt?domain=RPT.test.');
    expect(res.status).toBe(200);
    expect(res.headers.get('ratelimit-remaining')).toBe(String(300 - 3));
    expect(await res.json()).toEqual({
      ok: true,
      data: {
        domain: 'rpt.test',
        found: true,
        record: 'v=TLSRPTv1; rua=mailto:tls@rpt.test,https://reports.rpt.test/tlsrpt',
        multiple: false,
        rua: ['mailto:tls@rpt.test', 'https://reports.rpt.test/tlsrpt'],
        valid: true,
        errors: [],
      },
      meta: { tool: 'tls-rpt', version: 'v1' },
    });
  });

  it('reports an invalid record and a missing one as findings (200)', async () => {
    const bad = await (await t.get('/api/v1/tls-rpt?domain=bad.test')).json();
    expect(bad.data).toMatchObject({ found: true, valid: false, rua: ['ftp://reports.bad.test/'] });
    expect(bad.data.errors).toEqual(['rua URI "ftp://reports.bad.test/" must use mailto: or https: (RFC 8460 §3)']);
    const none = await (await t.get('/api/v1/tls-rpt?domain=none.test')).json();
    expect(none.data).toMatchObject({ found: false, record: '', valid: false, errors: [] });
  });

  it('refuses a bad domain with 400 and a resolver that fails with 504', async () => {
    const bad = await t.get('/api/v1/tls-rpt?domain=not_a_domain');
    expect(bad.status).toBe(400);
    lab.setBehaviour('_smtp._tls.slow.test', { drop: true });
    const slow = await t.get('/api/v1/tls-rpt?domain=slow.test');
    expect(slow.status).toBe(504);
    lab.clearBehaviours();
  });

  it('composes in GraphQL beside another check', async () => {
    const { status, body } = await graphql(
      t,
      '{ tlsRpt(domain: "rpt.test") { found rua } mxLookup(domain: "none.test") { domain } }',
    );
    expect(status).toBe(200);
    expect(body.data.tlsRpt).toEqual({ found: true, rua: ['mailto:tls@rpt.test', 'https://reports.rpt.test/tlsrpt'] });
    expect(body.data.mxLookup).toEqual({ domain: 'none.test' });
  });
});
