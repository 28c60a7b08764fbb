/**
 * caa end to end against the DNS lab as the system resolver: REST over a real socket and GraphQL, every
 * finding, the climb to a parent, a CNAME followed, a resolver failure; and the check's part of
 * website-health-check, run on the same lab.
 */
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createHttpServer } from '../../../http-server.js';
import { createCheckContext } from '../../../loaders/context.js';
import { websiteParts, type WebsiteSite } from '../../composite/website-health-check/parts.js';
import { createTestApp, graphql, TEST_KEY, type TestApp } from '../../../../test/helpers/app.js';
import { openApiMismatches } from '../../../../test/helpers/openapi.js';
import { rr, startDnsLab, type DnsLab } from '../../../../test/lab/dns-server.js';

let lab: DnsLab;
let t: TestApp;
let server: Server;
let base: string;

beforeAll(async () => {
  lab = await startDnsLab({
    authoritative: false,
    records: [
      rr.caa('ok.caa.test', 'issue', 'letsencrypt.org'),
      rr.caa('ok.caa.test', 'issuewild', ';'),
      rr.caa('ok.caa.test', 'iodef', 'mailto:security@ok.caa.test'),
      rr.caa('inherit.caa.test', 'issue', 'pki.goog; validationmethods=dns-01'),
      rr.a('www.sub.inherit.caa.test', '192.0.2.1'),
      rr.cname('alias.caa.test', 'target.caa.test'),
      rr.caa('target.caa.test', 'issue', 'sectigo.com'),
      rr.a('none.caa.test', '192.0.2.2'),
      rr.caa('broken.caa.test', 'issue', 'not a domain!'),
      rr.caa('broken.caa.test', 'iodef', 'ftp://broken.caa.test/'),
      rr.caa('critical.caa.test', 'issue', 'letsencrypt.org'),
      rr.caa('critical.caa.test', 'futuretag', 'x', 128),
      rr.caa('closed.caa.test', 'issue', ';'),
      rr.a('failing.caa.test', '192.0.2.3'),
    ],
  });
  t = await createTestApp({ dns: { system: [`127.0.0.1:${lab.port}`], timeoutMs: 500 } });
  server = createHttpServer(t.app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  if (server) await new Promise((resolve) => server.close(resolve));
  await t?.close();
  await lab?.close();
});
beforeEach(() => {
  lab.clearQueries();
  lab.clearBehaviours();
});

/** GET /api/v1/caa over the real socket. */
async function caa(domain: string): Promise<{ status: number; body: any }> {
  const res = await fetch(`${base}/api/v1/caa?domain=${encodeURIComponent(domain)}`, {
    headers: { 'x-api-key': TEST_KEY },
  });
  return { status: res.status, body: await res.json() };
}

describe('caa', () => {
  it('reads the set at the name: who may issue, for wildcards, where reports go; 3 credits; no finding', async () => {
    const res = await fetch(`${base}/api/v1/caa?domain=OK.caa.test.`, { headers: { 'x-api-key': TEST_KEY } });
    expect(res.status).toBe(200);
    expect(res.headers.get('ratelimit-remaining')).toBe('297');
    const body = await res.json();
    expect(body.meta).toEqual({ tool: 'caa', version: 'v1' });
    expect(openApiMismatches('caa', 200, body)).toEqual([]);
    expect(body.data).toEqual({
      domain: 'ok.caa.test',
      foundAt: 'ok.caa.test',
      aliases: [],
      checkedNames: ['ok.caa.test'],
      records: [
        { flags: 0, critical: false, tag: 'issue', value: 'letsencrypt.org', malformed: null },
        { flags: 0, critical: false, tag: 'issuewild', value: ';', malformed: null },
        { flags: 0, critical: false, tag: 'iodef', value: 'mailto:security@ok.caa.test', malformed: null },
      ],
      issue: [{ issuer: 'letsencrypt.org', parameters: [], value: 'letsencrypt.org' }],
      issuewild: [{ issuer: null, parameters: [], value: ';' }],
      iodef: ['mailto:security@ok.caa.test'],
      mayIssue: { restricted: true, issuers: ['letsencrypt.org'] },
      mayIssueWildcard: { restricted: true, issuers: [] },
      findings: [],
    });
    // in process, the same answer (and the example the OpenAPI document shows)
    expect(await (await t.get('/api/v1/caa?domain=ok.caa.test')).json()).toEqual(body);
  });

  it('climbs to the nearest parent with a set, asking each name once', async () => {
    const { status, body } = await caa('www.sub.inherit.caa.test');
    expect(status).toBe(200);
    expect(body.data).toMatchObject({
      foundAt: 'inherit.caa.test',
      checkedNames: ['www.sub.inherit.caa.test', 'sub.inherit.caa.test', 'inherit.caa.test'],
      issue: [
        {
          issuer: 'pki.goog',
          parameters: [{ key: 'validationmethods', value: 'dns-01' }],
          value: 'pki.goog; validationmethods=dns-01',
        },
      ],
      mayIssue: { restricted: true, issuers: ['pki.goog'] },
      findings: [],
    });
    // the parents above it too, unless another request's answer is still in the TTL cache
    // by message ID: a resend of a question a busy machine answered late is the same question
    const questions = lab.queries.filter((q) => q.type === 'CAA');
    const asked = [...new Map(questions.map((q) => [`${q.id} ${q.name}`, q.name])).values()];
    expect(asked).toEqual(
      expect.arrayContaining(['www.sub.inherit.caa.test', 'sub.inherit.caa.test', 'inherit.caa.test']),
    );
    expect(new Set(asked).size).toBe(asked.length);
  });

  it('follows a CNAME to the set of its target', async () => {
    const { body } = await caa('alias.caa.test');
    expect(body.data).toMatchObject({
      foundAt: 'alias.caa.test',
      aliases: ['target.caa.test'],
      mayIssue: { restricted: true, issuers: ['sectigo.com'] },
    });
  });

  it('no-caa: nothing up to the top-level domain, any CA may issue', async () => {
    const { status, body } = await caa('none.caa.test');
    expect(status).toBe(200);
    expect(body.data).toMatchObject({
      foundAt: null,
      checkedNames: ['none.caa.test', 'caa.test', 'test'],
      records: [],
      mayIssue: { restricted: false, issuers: [] },
      mayIssueWildcard: { restricted: false, issuers: [] },
      findings: [
        {
          code: 'no-caa',
          severity: 'info',
          message: 'No CAA record at none.caa.test or above it: any CA may issue certificates for it.',
        },
      ],
    });
  });

  it('malformed: the issue value and the iodef URL, each named; the set still restricts', async () => {
    const { body } = await caa('broken.caa.test');
    expect(body.data.findings).toEqual([
      {
        code: 'malformed',
        severity: 'warning',
        message:
          'The CAA property issue "not a domain!" is malformed: "not a domain!" is not a CA\'s domain name; it authorizes no CA.',
      },
      {
        code: 'malformed',
        severity: 'warning',
        message:
          'The CAA property iodef "ftp://broken.caa.test/" is malformed: ftp: is not a scheme CAs report to (mailto:, http: or https:).',
      },
      {
        code: 'no-ca-allowed',
        severity: 'info',
        message: 'The CAA records at broken.caa.test name no CA: no CA may issue certificates for broken.caa.test.',
      },
    ]);
    expect(body.data.mayIssue).toEqual({ restricted: true, issuers: [] });
  });

  it('unknown-critical: a critical tag CAs do not know forbids every CA', async () => {
    const { body } = await caa('critical.caa.test');
    expect(body.data.records[1]).toEqual({ flags: 128, critical: true, tag: 'futuretag', value: 'x', malformed: null });
    expect(body.data.findings).toEqual([
      {
        code: 'unknown-critical',
        severity: 'critical',
        message:
          'The CAA property futuretag is marked critical and is not one CAs know: every CA must refuse to issue for critical.caa.test.',
      },
    ]);
    expect(body.data.mayIssue).toEqual({ restricted: true, issuers: [] });
  });

  it('no-ca-allowed: issue ";" names no CA', async () => {
    const { body } = await caa('closed.caa.test');
    expect(body.data.findings.map((f: { code: string }) => f.code)).toEqual(['no-ca-allowed']);
  });

  it('a question that fails below the set is a 502 naming the resolver; one above a set found is not needed', async () => {
    lab.setBehaviour('failing.caa.test', { servfail: true }, 'CAA');
    const failed = await caa('failing.caa.test');
    expect(failed.status).toBe(502);
    expect(failed.body).toMatchObject({
      ok: false,
      error: "the service's resolver answered CAA failing.caa.test with rcode SERVFAIL",
    });

    lab.setBehaviour('caa.test', { servfail: true }, 'CAA');
    expect((await caa('ok.caa.test')).status).toBe(200);
  });

  it('refuses what is no host name with a 400 naming the parameter, asking nothing', async () => {
    const { status, body } = await caa('not a name');
    expect(status).toBe(400);
    expect(body.error).toMatch(/domain/);
    expect(lab.queries).toEqual([]);
  });

  it('through GraphQL: the same answer', async () => {
    const res = await graphql(
      t,
      `query { caa(domain: "ok.caa.test") { foundAt mayIssue { restricted issuers } mayIssueWildcard { issuers } iodef findings { code } } }`,
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.caa).toEqual({
      foundAt: 'ok.caa.test',
      mayIssue: { restricted: true, issuers: ['letsencrypt.org'] },
      mayIssueWildcard: { issuers: [] },
      iodef: ['mailto:security@ok.caa.test'],
      findings: [],
    });
  });
});

describe("caa's part of website-health-check", () => {
  it('joined from its declaration, judged on the same questions', async () => {
    const part = websiteParts.partOf('caa');
    expect(part).toMatchObject({ field: 'caa', check: { tool: 'caa' } });
    const run = async (hostname: string) => {
      const checks = createCheckContext(t.services, AbortSignal.timeout(10_000));
      return part!.spec.run({ checks, hostname } as WebsiteSite);
    };
    expect(await run('ok.caa.test')).toMatchObject({
      status: 'ok',
      summary: 'Only letsencrypt.org may issue certificates for ok.caa.test (CAA at ok.caa.test).',
    });
    expect((await run('none.caa.test')).status).toBe('info');
    expect((await run('broken.caa.test')).status).toBe('warning');
    expect((await run('closed.caa.test')).status).toBe('warning');
    expect((await run('critical.caa.test')).status).toBe('critical');
  });
});
