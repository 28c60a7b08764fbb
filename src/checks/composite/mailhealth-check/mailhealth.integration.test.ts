/**
 * mailhealth-check end to end, against a loopback DNS lab as the system resolver (playing the
 * domains, their providers and the block lists) and loopback SMTP servers playing the MX hosts: a
 * healthy domain, a broken one, a null-MX domain, failing and slow parts, and each distinct DNS
 * question asked once per request.
 *
 * The MX hosts have addresses in 127.0.0.0/29, which `targets.allow` treats as public (so the block
 * lists are asked about them and the SMTP parts connect to them); 127.0.0.10 stands for an address
 * the target rules refuse.
 *
 * Run alone (vitest.config.ts): its slow parts are judged against the composite's bound, and a machine
 * busy with other test files makes the others late too.
 */
import { setMaxListeners } from 'node:events';
import { validate } from 'graphql';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createCheckContext } from '../../../loaders/context.js';
import { runMailHealth } from './run.js';
import { checkOfField } from '../../../graphql/check-declaration.js';
import { schema } from '../../../graphql-server/schema.js';
import { restRoutes } from '../../../rest/routes.js';
import { createTestApp, graphql, type TestApp } from '../../../../test/helpers/app.js';
import { openApiMismatches } from '../../../../test/helpers/openapi.js';
import { rr, startDnsLab, type DnsLab } from '../../../../test/lab/dns-server.js';
import { TINY_PS_LOGO } from '../../../../test/lab/bimi-logo.js';
import { startDocumentServer, type DocumentServer } from '../../../../test/lab/document-server.js';
import { labLeafFor, labPki } from '../../../../test/lab/pki.js';
import { startSmtpServer, type LabSmtpServer } from '../../../../test/lab/smtp-server.js';

const META = { tool: 'mailhealth-check', version: 'v1' };
const ED25519 = 'v=DKIM1; k=ed25519; p=11qYAYKxCrfVS/7TyWQHOg7hcvPapiMlrwIaaPcHURo=';

let lab: DnsLab;
let t: TestApp;
const smtp: LabSmtpServer[] = [];
/** healthy.test's MTA-STS policy and BIMI logo */
let web: DocumentServer;
const POLICY = 'version: STSv1\r\nmode: enforce\r\nmx: *.lab.test\r\nmax_age: 1209600\r\n';
/** the port every lab MX host listens on: the app's SMTP port (the smtpPort seam) */
let smtpPort: number;
/** the app's configuration (the allowing app of one test adds to it) */
let appConfig: Record<string, any>;
let appOverrides: Record<string, any>;

beforeAll(async () => {
  const pki = await labPki();
  const tls = { cert: pki.good.chain, key: pki.good.key };
  // mx1/mx2.lab.test: STARTTLS with a certificate valid for *.lab.test; mx.broken.test: no STARTTLS
  smtp.push(await startSmtpServer({ behaviour: 'starttls', tls, host: '127.0.0.4' }));
  smtpPort = smtp[0]!.port;
  smtp.push(await startSmtpServer({ behaviour: 'starttls', tls, host: '127.0.0.5', port: smtpPort }));
  smtp.push(await startSmtpServer({ behaviour: 'plain', host: '127.0.0.7', port: smtpPort }));
  const webLeaf = await labLeafFor(['mta-sts.healthy.test', 'logos.healthy.test']);
  web = await startDocumentServer(
    { cert: webLeaf.chain, key: webLeaf.key },
    {
      'mta-sts.healthy.test/.well-known/mta-sts.txt': { headers: { 'content-type': 'text/plain' }, body: POLICY },
      'logos.healthy.test/logo.svg': { headers: { 'content-type': 'image/svg+xml' }, body: TINY_PS_LOGO },
    },
  );
  lab = await startDnsLab({
    authoritative: false,
    records: [
      // healthy.test: two MX hosts sharing an address, SPF with an include, DMARC reject, a DKIM key at a configured selector
      rr.mx('healthy.test', 10, 'mx1.lab.test'),
      rr.mx('healthy.test', 20, 'mx2.lab.test'),
      rr.a('mx1.lab.test', '127.0.0.4'),
      rr.a('mx2.lab.test', '127.0.0.5'),
      rr.a('mx2.lab.test', '127.0.0.4'),
      rr.txt('_smtp._tls.healthy.test', 'v=TLSRPTv1; rua=mailto:tls@healthy.test'),
      rr.txt('_mta-sts.healthy.test', 'v=STSv1; id=20261124'),
      rr.a('mta-sts.healthy.test', '127.0.0.1'),
      rr.txt('default._bimi.healthy.test', 'v=BIMI1; l=https://logos.healthy.test/logo.svg'),
      rr.a('logos.healthy.test', '127.0.0.1'),
      rr.txt('healthy.test', 'v=spf1 mx include:_spf.provider.test -all'),
      rr.txt('healthy.test', 'site-verification=abc'),
      rr.txt('_spf.provider.test', 'v=spf1 ip4:198.51.100.0/24 ~all'),
      rr.txt('_dmarc.healthy.test', 'v=DMARC1; p=reject; rua=mailto:dmarc@healthy.test'),
      rr.txt('s1._domainkey.healthy.test', ED25519),
      // broken.test: two SPF records (one including Google's), no DMARC, a listed MX address, a key at Google's selector
      rr.mx('broken.test', 10, 'mx.broken.test'),
      rr.a('mx.broken.test', '127.0.0.7'),
      rr.txt('broken.test', 'v=spf1 include:_spf.google.com ~all'),
      rr.txt('broken.test', 'v=spf1 mx -all'),
      rr.txt('_spf.google.com', 'v=spf1 ip4:35.190.247.0/24 ~all'),
      rr.txt('google._domainkey.broken.test', ED25519),
      rr.a('7.0.0.127.bl.test', '127.0.0.2'),
      rr.txt('7.0.0.127.bl.test', 'Listed: spam source'),
      // nullmx.test: takes no mail and says so everywhere
      rr.mx('nullmx.test', 0, '.'),
      rr.txt('nullmx.test', 'v=spf1 -all'),
      rr.txt('_dmarc.nullmx.test', 'v=DMARC1; p=reject'),
      // nomx.test: no MX records at all (a web-only name)
      rr.a('nomx.test', '127.0.0.1'),
      rr.txt('nomx.test', 'v=spf1 -all'),
      // partial.test: the second MX host's address question fails; the first has a private address too
      rr.mx('partial.test', 10, 'mx1.partial.test'),
      rr.mx('partial.test', 20, 'mx2.partial.test'),
      rr.mx('partial.test', 30, 'internal.partial.test'),
      rr.a('mx1.partial.test', '127.0.0.6'),
      rr.aaaa('mx1.partial.test', '2001:4860::6'),
      rr.a('mx2.partial.test', '127.0.0.3'),
      rr.a('internal.partial.test', '127.0.0.10'),
      rr.txt('partial.test', 'v=spf1 mx -all'),
      rr.txt('_dmarc.partial.test', 'v=DMARC1; p=quarantine'),
    ],
  });
  appConfig = {
    dns: { system: [`127.0.0.1:${lab.port}`], timeoutMs: 1000 },
    // 127.0.0.1 is the MTA-STS and BIMI web server
    targets: { allow: ['127.0.0.0/29'] },
    dnsbl: {
      zones: [
        { zone: 'bl.test', name: 'Lab BL' },
        { zone: 'spam.test', name: 'Spam List' },
      ],
    },
    dkim: { selectors: ['default', 's1'] },
  };
  appOverrides = {
    connections: { tlsCa: pki.root.cert, connectTimeoutMs: 1000, handshakeTimeoutMs: 1000 },
    smtpPort,
    webPorts: { http: 9, https: web.port },
  };
  t = await createTestApp(appConfig, appOverrides);
});
afterAll(async () => {
  await t.close();
  await lab.close();
  await Promise.all(smtp.map((s) => s.close()));
  await web.close();
});
beforeEach(() => {
  lab.clearQueries();
  lab.clearBehaviours();
  t.services.dnsCache.clear();
});

const rest = async (domain: string) => {
  const res = await t.get(`/api/v1/mailhealth-check?domain=${encodeURIComponent(domain)}`);
  return { status: res.status, body: await res.json(), headers: res.headers };
};
const checkOf = (body: any, id: string) => body.data.checks.find((c: any) => c.id === id);
const questions = () => lab.queries.map((q) => `${q.type} ${q.name}`);

describe('mailhealth-check', () => {
  it('a healthy domain: every check ok, exact shape, each DNS question asked once, 3 credits', async () => {
    const { status, body, headers } = await rest('Healthy.TEST.');
    expect(status).toBe(200);
    expect(body).toEqual({
      ok: true,
      meta: META,
      data: {
        domain: 'healthy.test',
        verdict: {
          status: 'ok',
          headline: 'All 12 checks passed, with 2 notes',
          summary:
            'No problems found; worth knowing: ' +
            'DANE on mx1.lab.test: mx1.lab.test publishes no TLSA records: DANE is not in use for it (it needs a DNSSEC-signed zone). ' +
            'DANE on mx2.lab.test: mx2.lab.test publishes no TLSA records: DANE is not in use for it (it needs a DNSSEC-signed zone).',
        },
        checks: [
          {
            id: 'mx',
            host: null,
            label: 'MX records',
            status: 'ok',
            summary: '2 MX hosts with addresses; mail goes first to mx1.lab.test, priority 10.',
            error: null,
            details: {
              hosts: [
                {
                  priority: 10,
                  exchange: 'mx1.lab.test',
                  ip: '127.0.0.4',
                  addresses: ['127.0.0.4'],
                  omittedAddresses: 0,
                  provider: null,
                },
                {
                  priority: 20,
                  exchange: 'mx2.lab.test',
                  ip: '127.0.0.5',
                  addresses: ['127.0.0.5', '127.0.0.4'],
                  omittedAddresses: 0,
                  provider: null,
                },
              ],
              total: 2,
              omittedExchanges: 0,
              nullMx: false,
              rcode: 'NOERROR',
            },
          },
          {
            id: 'spf',
            host: null,
            label: 'SPF record',
            status: 'ok',
            summary: 'One valid SPF record ending in "-all", using 2 of 10 DNS lookups.',
            error: null,
            details: {
              record: 'v=spf1 mx include:_spf.provider.test -all',
              recordCount: 1,
              mechanismCount: 3,
              evaluation: 'ok',
              lookupCount: 2,
              lookupLimit: 10,
            },
          },
          {
            id: 'dmarc',
            host: null,
            label: 'DMARC policy',
            status: 'ok',
            summary: 'The DMARC policy is reject.',
            error: null,
            details: {
              record: 'v=DMARC1; p=reject; rua=mailto:dmarc@healthy.test',
              policy: 'reject',
              found: true,
              inherited: false,
              queriedName: '_dmarc.healthy.test',
            },
          },
          {
            id: 'dkim',
            host: null,
            label: 'DKIM keys',
            status: 'ok',
            summary: 'DKIM key found for s1 among the 2 selectors checked (default and s1).',
            error: null,
            details: {
              selectorsFound: ['s1'],
              selectorsChecked: ['default', 's1'],
              providers: [],
              failedSelectors: [],
            },
          },
          {
            id: 'blacklist',
            host: null,
            label: 'Blacklists',
            status: 'ok',
            summary: 'No listing found for 2 addresses on 2 lists.',
            error: null,
            details: {
              checkedIps: 2,
              listedIps: 0,
              cleanIps: 2,
              results: [
                {
                  ip: '127.0.0.4',
                  listed: false,
                  listedOn: [],
                  hosts: ['mx1.lab.test', 'mx2.lab.test'],
                  failedLists: [],
                },
                { ip: '127.0.0.5', listed: false, listedOn: [], hosts: ['mx2.lab.test'], failedLists: [] },
              ],
              listCount: 2,
              skipped: [],
              omittedExchanges: 0,
              omittedAddresses: 0,
            },
          },
          {
            id: 'mta-sts',
            host: null,
            label: 'MTA-STS policy',
            status: 'ok',
            summary: 'The MTA-STS policy is enforced.',
            error: null,
            details: {
              domain: 'healthy.test',
              found: true,
              record: 'v=STSv1; id=20261124',
              id: '20261124',
              policyUrl: 'https://mta-sts.healthy.test/.well-known/mta-sts.txt',
              policy: { version: 'STSv1', mode: 'enforce', mx: ['*.lab.test'], maxAge: 1209600 },
              fetch: { status: 200, error: null },
              mxMatches: [
                { exchange: 'mx1.lab.test', matches: true },
                { exchange: 'mx2.lab.test', matches: true },
              ],
              omittedExchanges: 0,
              status: 'enforce',
              errors: [],
              warnings: [],
            },
          },
          {
            id: 'tls-rpt',
            host: null,
            label: 'TLS reporting',
            status: 'ok',
            summary: 'TLS failures are reported to mailto:tls@healthy.test.',
            error: null,
            details: {
              domain: 'healthy.test',
              found: true,
              record: 'v=TLSRPTv1; rua=mailto:tls@healthy.test',
              multiple: false,
              rua: ['mailto:tls@healthy.test'],
              valid: true,
              errors: [],
            },
          },
          ...['mx1.lab.test', 'mx2.lab.test'].map((host, i) => ({
            id: 'starttls',
            host,
            label: `STARTTLS on ${host}`,
            status: 'ok',
            summary: `${host} offers STARTTLS with a valid certificate.`,
            error: null,
            details: {
              host,
              ip: `127.0.0.${4 + i}`,
              port: smtpPort,
              banner: 'mx.lab.test ESMTP lab',
              ehlo: ['SIZE 10240000', '8BITMIME', 'STARTTLS', 'SMTPUTF8'],
              starttls: 'offered',
              tls: {
                version: 'TLSv1.3',
                cipher: expect.any(String),
                certificate: {
                  subject: 'good.lab.test',
                  issuer: 'Netdiag Lab Intermediate CA',
                  validTo: expect.any(String),
                  daysRemaining: expect.any(Number),
                  status: 'valid',
                },
              },
              status: 'ok',
              error: null,
              responseTimeMs: expect.any(Number),
            },
          })),
          ...['mx1.lab.test', 'mx2.lab.test'].map((host) => ({
            id: 'dane',
            host,
            label: `DANE on ${host}`,
            status: 'info',
            summary: `${host} publishes no TLSA records: DANE is not in use for it (it needs a DNSSEC-signed zone).`,
            error: null,
            details: {
              host,
              port: smtpPort,
              name: `_${smtpPort}._tcp.${host}`,
              tlsa: [],
              dnssec: 'insecure',
              status: 'no-tlsa',
              error: null,
            },
          })),
          {
            id: 'bimi',
            host: null,
            label: 'BIMI logo',
            status: 'ok',
            summary: 'A BIMI logo is published and the DMARC policy makes it eligible.',
            error: null,
            details: {
              domain: 'healthy.test',
              selector: 'default',
              found: true,
              record: 'v=BIMI1; l=https://logos.healthy.test/logo.svg',
              queriedName: 'default._bimi.healthy.test',
              location: 'https://logos.healthy.test/logo.svg',
              authority: '',
              svg: {
                status: 200,
                contentType: 'image/svg+xml',
                bytes: TINY_PS_LOGO.length,
                tinyPs: true,
                errors: [],
              },
              dmarcEligible: true,
              status: 'valid',
              errors: [],
            },
          },
        ],
      },
    });
    expect(openApiMismatches('mailhealth-check', 200, body)).toEqual([]);
    expect(headers.get('ratelimit-remaining')).toBe('297');
    // every part's questions, each once: MX is shared by mx, blacklist, dkim, SPF's "mx" and the transport
    // parts, the exchanges' addresses by mx, blacklist and starttls, 127.0.0.4 (two exchanges) is asked
    // about once per list
    expect(questions().sort()).toEqual(
      [
        'MX healthy.test',
        'A mx1.lab.test',
        'AAAA mx1.lab.test',
        'A mx2.lab.test',
        'AAAA mx2.lab.test',
        'TXT healthy.test',
        'TXT _spf.provider.test',
        'TXT _dmarc.healthy.test',
        'TXT default._domainkey.healthy.test',
        'TXT s1._domainkey.healthy.test',
        'A 4.0.0.127.bl.test',
        'A 4.0.0.127.spam.test',
        'A 5.0.0.127.bl.test',
        'A 5.0.0.127.spam.test',
        'TXT _smtp._tls.healthy.test',
        'TXT _mta-sts.healthy.test',
        'A mta-sts.healthy.test',
        'AAAA mta-sts.healthy.test',
        'TXT default._bimi.healthy.test',
        'A logos.healthy.test',
        'AAAA logos.healthy.test',
        `TLSA _${smtpPort}._tcp.mx1.lab.test`,
        `TLSA _${smtpPort}._tcp.mx2.lab.test`,
      ].sort(),
    );
    // one SMTP session per MX address served both starttls and dane
    expect(smtp[0]!.connections() + smtp[1]!.connections()).toBe(2);
  });

  it('a broken domain: two SPF records and a listed MX address are critical, no DMARC a warning; DKIM found at the selector of the provider in SPF', async () => {
    const { status, body } = await rest('broken.test');
    expect(status).toBe(200);
    expect(openApiMismatches('mailhealth-check', 200, body)).toEqual([]);
    expect(body.data.checks.map((c: any) => [c.id, c.status])).toEqual([
      ['mx', 'ok'],
      ['spf', 'critical'],
      ['dmarc', 'warning'],
      ['dkim', 'ok'],
      ['blacklist', 'critical'],
      ['mta-sts', 'info'],
      ['tls-rpt', 'info'],
      ['starttls', 'critical'],
      ['dane', 'info'],
      ['bimi', 'info'],
    ]);
    expect(checkOf(body, 'starttls')).toMatchObject({
      host: 'mx.broken.test',
      label: 'STARTTLS on mx.broken.test',
      summary:
        'mx.broken.test does not offer STARTTLS, so mail to it travels in clear text; enable STARTTLS with a valid certificate.',
      details: { host: 'mx.broken.test', starttls: 'not-offered', tls: null, status: 'no-starttls' },
    });
    expect(checkOf(body, 'spf')).toMatchObject({
      summary:
        'The domain publishes 2 SPF records, so receivers treat SPF as an error (permerror, RFC 7208 §4.5), as if there were none; merge them into one record.',
      details: {
        record: 'v=spf1 include:_spf.google.com ~all',
        recordCount: 2,
        mechanismCount: 2,
        evaluation: 'permerror',
      },
    });
    expect(checkOf(body, 'dmarc')).toMatchObject({
      summary: expect.stringMatching(
        /^No DMARC record, so receivers apply no policy .* publish one at _dmarc\.broken\.test/,
      ),
      details: { record: '', policy: null, found: false, inherited: false, queriedName: '_dmarc.broken.test' },
    });
    expect(checkOf(body, 'dkim').details).toEqual({
      selectorsFound: ['google'],
      selectorsChecked: ['default', 's1', 'google'],
      providers: ['Google Workspace'],
      failedSelectors: [],
    });
    expect(checkOf(body, 'blacklist')).toMatchObject({
      summary:
        '127.0.0.7 (mx.broken.test) on Lab BL: receivers using that list reject or junk mail from it; find the cause (an open relay, a compromised account) and request delisting from each list.',
      details: {
        checkedIps: 1,
        listedIps: 1,
        cleanIps: 0,
        results: [{ ip: '127.0.0.7', listed: true, listedOn: ['Lab BL'], hosts: ['mx.broken.test'], failedLists: [] }],
      },
    });
    expect(body.data.verdict).toEqual({
      status: 'critical',
      headline:
        '3 critical problems (SPF record, Blacklists and STARTTLS on mx.broken.test) and 1 warning (DMARC policy)',
      summary: expect.stringMatching(
        /^SPF record: The domain publishes 2 SPF records.* Blacklists: 127\.0\.0\.7 .* STARTTLS on mx\.broken\.test: mx\.broken\.test does not offer STARTTLS/,
      ),
    });
    const asked = questions();
    expect(new Set(asked).size).toBe(asked.length);
    // the listing's explanation is asked for (dns-blacklist-checker's rule), the clean list's is not
    expect(asked).toContain('TXT 7.0.0.127.bl.test');
    expect(asked).not.toContain('TXT 7.0.0.127.spam.test');
  });

  it('a null-MX domain: mx, dkim and blacklist are info, nothing is asked about mail hosts', async () => {
    const { status, body } = await rest('nullmx.test');
    expect(status).toBe(200);
    expect(openApiMismatches('mailhealth-check', 200, body)).toEqual([]);
    expect(body.data.checks.map((c: any) => [c.id, c.status])).toEqual([
      ['mx', 'info'],
      ['spf', 'ok'],
      ['dmarc', 'ok'],
      ['dkim', 'info'],
      ['blacklist', 'info'],
      ['mta-sts', 'info'],
      ['tls-rpt', 'info'],
      ['starttls', 'info'],
      ['dane', 'info'],
      ['bimi', 'info'],
    ]);
    // no MX host to test: one check about the domain
    expect(checkOf(body, 'starttls')).toEqual({
      id: 'starttls',
      host: null,
      label: 'STARTTLS',
      status: 'info',
      summary: 'The domain accepts no mail (null MX): there is no mail server to test.',
      error: null,
      // api-v1.md: details is an object, here saying why nothing was tested
      details: { tested: false, reason: 'null-mx', untestedHosts: [] },
    });
    expect(checkOf(body, 'dane')).toMatchObject({
      host: null,
      status: 'info',
      details: { tested: false, reason: 'null-mx', untestedHosts: [] },
    });
    expect(checkOf(body, 'mx').details).toEqual({
      hosts: [],
      total: 0,
      omittedExchanges: 0,
      nullMx: true,
      rcode: 'NOERROR',
    });
    expect(checkOf(body, 'blacklist')).toMatchObject({
      summary: 'The domain takes no mail (null MX), so there is no mail server address to check.',
      details: { checkedIps: 0, listedIps: 0, cleanIps: 0, results: [], skipped: [] },
    });
    expect(body.data.verdict.status).toBe('ok');
    expect(body.data.verdict.headline).toBe('All 10 checks passed, with 8 notes');
    expect(questions().sort()).toEqual(
      [
        'MX nullmx.test',
        'TXT _smtp._tls.nullmx.test',
        'TXT _mta-sts.nullmx.test',
        'TXT default._bimi.nullmx.test',
        'TXT nullmx.test',
        'TXT _dmarc.nullmx.test',
        'TXT default._domainkey.nullmx.test',
        'TXT s1._domainkey.nullmx.test',
      ].sort(),
    );
  });

  it('a domain without MX records: starttls and dane are one info check each whose details say there is no MX host', async () => {
    const { status, body } = await rest('nomx.test');
    expect(status).toBe(200);
    expect(openApiMismatches('mailhealth-check', 200, body)).toEqual([]);
    expect(checkOf(body, 'mx').details).toMatchObject({ hosts: [], total: 0, nullMx: false });
    for (const id of ['starttls', 'dane'])
      expect(body.data.checks.filter((c: any) => c.id === id)).toEqual([
        expect.objectContaining({
          host: null,
          status: 'info',
          summary: 'The domain has no MX host to test (see the MX check).',
          details: { tested: false, reason: 'no-mx-hosts', untestedHosts: [] },
        }),
      ]);
    // api-v1.md: every check's details is an object
    for (const check of body.data.checks) expect(check.details).toEqual(expect.any(Object));
  });

  it('through GraphQL, a part without data of its own has MailPartNotTested details (null MX, no MX)', async () => {
    for (const [domain, reason] of [
      ['nullmx.test', 'null-mx'],
      ['nomx.test', 'no-mx-hosts'],
    ]) {
      const res = await graphql(
        t,
        `query ($d: String!) { mailhealthCheck(domain: $d) { checks { id host details {
          __typename
          ... on MailPartNotTested { tested reason untestedHosts }
        } } } }`,
        { d: domain },
      );
      expect(res.body.errors).toBeUndefined();
      const parts = res.body.data.mailhealthCheck.checks.filter((c: any) => c.id === 'starttls' || c.id === 'dane');
      expect(parts).toEqual(
        ['starttls', 'dane'].map((id) => ({
          id,
          host: null,
          details: { __typename: 'MailPartNotTested', tested: false, reason, untestedHosts: [] },
        })),
      );
    }
  });

  it('a part that fails is error naming the upstream; the others still report, and the verdict counts it as a warning', async () => {
    lab.setBehaviour('_dmarc.healthy.test', { servfail: true }, 'TXT');
    const { status, body } = await rest('healthy.test');
    expect(status).toBe(200);
    expect(openApiMismatches('mailhealth-check', 200, body)).toEqual([]);
    expect(body.data.checks.map((c: any) => [c.id, c.status])).toEqual([
      ['mx', 'ok'],
      ['spf', 'ok'],
      ['dmarc', 'error'],
      ['dkim', 'ok'],
      ['blacklist', 'ok'],
      ['mta-sts', 'ok'],
      ['tls-rpt', 'ok'],
      ['starttls', 'ok'],
      ['starttls', 'ok'],
      ['dane', 'info'],
      ['dane', 'info'],
      ['bimi', 'error'],
    ]);
    const dmarc = checkOf(body, 'dmarc');
    // the service's own resolver is named, not located (its address is inside the operator's network)
    expect(dmarc.error).toBe("the service's resolver answered TXT _dmarc.healthy.test with rcode SERVFAIL");
    expect(dmarc.summary).toMatch(
      /^This check could not run \(the service's resolver answered TXT _dmarc\.healthy\.test with rcode SERVFAIL\)/,
    );
    expect(dmarc.details).toEqual({ record: null, policy: null, found: null, inherited: null, queriedName: null });
    // BIMI's eligibility is DMARC's policy: unknown, so that part could not run either
    expect(checkOf(body, 'bimi')).toMatchObject({
      status: 'error',
      details: { tested: false, reason: 'could-not-run', untestedHosts: [] },
    });
    expect(body.data.verdict).toMatchObject({
      status: 'warning',
      headline: '2 checks could not run (DMARC policy and BIMI logo)',
    });
  });

  it('when not one part can run (the resolver fails everything), the check could not be done: 502 naming the resolver', async () => {
    lab.setBehaviour(/healthy\.test$/, { servfail: true });
    const { status, body } = await rest('healthy.test');
    expect(status).toBe(502);
    expect(body.ok).toBe(false);
    expect(body.error).toMatch(/^the service's resolver answered .* with rcode SERVFAIL/);
  });

  it('an MX host that cannot be resolved fails the mx part; blacklist checks the rest and says what it skipped', async () => {
    lab.setBehaviour('mx2.partial.test', { servfail: true }, 'A');
    const { body } = await rest('partial.test');
    expect(checkOf(body, 'mx')).toMatchObject({
      status: 'error',
      error: expect.stringMatching(/answered A mx2\.partial\.test with rcode SERVFAIL/),
    });
    const blacklist = checkOf(body, 'blacklist');
    expect(blacklist.status).toBe('info');
    expect(blacklist.summary).toMatch(
      /^No listing found for 1 address on 2 lists, but mx2\.partial\.test could not be resolved\.$/,
    );
    expect(blacklist.details.results.map((r: any) => r.ip)).toEqual(['127.0.0.6']);
    expect(blacklist.details.skipped).toEqual([
      {
        target: '2001:4860::6',
        reason: 'IPv6 address of mx1.partial.test: block lists are checked for IPv4 addresses',
      },
      { target: 'mx2.partial.test', reason: expect.stringMatching(/SERVFAIL/) },
      {
        target: '127.0.0.10',
        reason: expect.stringMatching(
          /^loopback[^:]* address of internal\.partial\.test: public block lists do not list it$/,
        ),
      },
    ]);
    // nothing is asked about the refused address
    expect(questions().filter((q) => q.includes('10.0.0.127.'))).toEqual([]);
    // one check per MX host: nothing listens at mx1 (unreachable: its smtp-starttls data stays); mx2 has
    // no address and the refused address is not connected to (no data)
    const starttls = body.data.checks.filter((c: any) => c.id === 'starttls');
    expect(starttls).toMatchObject([
      {
        host: 'mx1.partial.test',
        status: 'error',
        error: expect.stringMatching(/127\.0\.0\.6/),
        details: { host: 'mx1.partial.test', status: 'unreachable' },
      },
      {
        host: 'mx2.partial.test',
        status: 'error',
        error: expect.stringMatching(/SERVFAIL/),
        details: { tested: false, reason: 'host-not-testable', untestedHosts: ['mx2.partial.test'] },
      },
      {
        host: 'internal.partial.test',
        status: 'error',
        error: expect.stringMatching(/127\.0\.0\.10, a loopback address/),
        details: { tested: false, reason: 'host-not-testable', untestedHosts: ['internal.partial.test'] },
      },
    ]);
    expect(openApiMismatches('mailhealth-check', 200, body)).toEqual([]);
  });

  it('a special-purpose MX address is a warning of the mx check', async () => {
    const { body } = await rest('partial.test');
    expect(checkOf(body, 'mx')).toMatchObject({
      status: 'warning',
      summary: expect.stringMatching(
        /^internal\.partial\.test \(127\.0\.0\.10, loopback[^)]*\) is not reachable from the Internet/,
      ),
    });
  });

  it('an MX address that targets.allow treats as public is checked on the lists and is no mx warning', async () => {
    const allowing = await createTestApp(
      { ...appConfig, targets: { allow: ['127.0.0.0/8'] }, dnsbl: { zones: [{ zone: 'bl.test', name: 'Lab BL' }] } },
      appOverrides,
    );
    try {
      const res = await allowing.get('/api/v1/mailhealth-check?domain=partial.test');
      const body = await res.json();
      expect(checkOf(body, 'mx').status).toBe('ok');
      const blacklist = checkOf(body, 'blacklist');
      expect(blacklist.details.results.map((r: any) => r.ip)).toEqual(['127.0.0.6', '127.0.0.3', '127.0.0.10']);
      expect(blacklist.details.skipped.map((s: any) => s.target)).toEqual(['2001:4860::6']);
      expect(questions()).toContain('A 10.0.0.127.bl.test');
    } finally {
      await allowing.close();
    }
  });

  it('a part still running at its bound is error; the others report in time', async () => {
    // under dns.timeoutMs (1000), so the question itself does not fail: only the part's bound ends it
    lab.setBehaviour('_dmarc.healthy.test', { delayMs: 900 }, 'TXT');
    const signal = AbortSignal.timeout(10_000);
    setMaxListeners(100, signal);
    const started = performance.now();
    const ctx = createCheckContext(t.services, signal);
    const result = await runMailHealth(ctx, 'healthy.test', { partBoundMs: 300 });
    expect(performance.now() - started).toBeLessThan(900);
    expect(result.checks.map((c) => [c.id, c.status])).toEqual([
      ['mx', 'ok'],
      ['spf', 'ok'],
      ['dmarc', 'error'],
      ['dkim', 'ok'],
      ['blacklist', 'ok'],
      ['mta-sts', 'ok'],
      ['tls-rpt', 'ok'],
      ['starttls', 'ok'],
      ['starttls', 'ok'],
      ['dane', 'info'],
      ['dane', 'info'],
      ['bimi', 'error'],
    ]);
    expect(result.checks[2]!.error).toMatch(/did not finish within 0\.3 s$/);
    expect(result.verdict.status).toBe('warning');
    // let the straggler (and its re-send) finish here, not in the next test's question counts
    await ctx.resolve('_dmarc.healthy.test', 'TXT');
  });

  it('with SMTP probes turned off (smtp.enabled false): starttls is info, nothing connects to the MX hosts', async () => {
    const off = await createTestApp({ ...appConfig, smtp: { enabled: false } }, appOverrides);
    try {
      const before = smtp.map((s) => s.connections());
      const body = await (await off.get('/api/v1/mailhealth-check?domain=healthy.test')).json();
      expect(body.data.checks.filter((c: any) => c.id === 'starttls')).toEqual(
        ['mx1.lab.test', 'mx2.lab.test'].map((host) => ({
          id: 'starttls',
          host,
          label: `STARTTLS on ${host}`,
          status: 'info',
          summary: `${host} was not tested: SMTP probes are turned off on this instance (smtp.enabled).`,
          error: null,
          details: { tested: false, reason: 'smtp-probes-off', untestedHosts: [host] },
        })),
      );
      expect(body.data.checks.filter((c: any) => c.id === 'dane').map((c: any) => c.status)).toEqual(['info', 'info']);
      expect(body.data.verdict.status).toBe('ok');
      expect(smtp.map((s) => s.connections())).toEqual(before);
    } finally {
      await off.close();
    }
  });

  it("the transport parts' REST details are their single checks' REST data (starttls and dane: per MX host)", async () => {
    const { body } = await rest('healthy.test');
    const dataOf = async (path: string) => {
      const res = await t.get(path);
      expect(res.status, path).toBe(200);
      return (await res.json()).data;
    };
    const checksOf = (id: string) => body.data.checks.filter((c: any) => c.id === id);
    expect(checkOf(body, 'mta-sts').details).toEqual(await dataOf('/api/v1/mta-sts?domain=healthy.test'));
    expect(checkOf(body, 'tls-rpt').details).toEqual(await dataOf('/api/v1/tls-rpt?domain=healthy.test'));
    expect(checkOf(body, 'bimi').details).toEqual(await dataOf('/api/v1/bimi?domain=healthy.test'));
    const hosts = ['mx1.lab.test', 'mx2.lab.test'];
    expect(checksOf('starttls').map((c: any) => c.host)).toEqual(hosts);
    expect(checksOf('dane').map((c: any) => c.host)).toEqual(hosts);
    for (const host of hosts) {
      const starttls = await dataOf(`/api/v1/smtp-starttls?host=${host}&port=${smtpPort}`);
      // two SMTP sessions: only their timing differs
      expect(checksOf('starttls').find((c: any) => c.host === host).details).toEqual({
        ...starttls,
        responseTimeMs: expect.any(Number),
      });
      expect(checksOf('dane').find((c: any) => c.host === host).details).toEqual(
        await dataOf(`/api/v1/dane?host=${host}&port=${smtpPort}`),
      );
    }
  });

  it("runs its REST document as plain GraphQL: the REST-only @flatten marks are the route's, not the document's", () => {
    const route = restRoutes.get('mailhealth-check')!;
    expect(validate(schema, route.document)).toEqual([]);
    expect(route.flatten.map((path) => path.join('.'))).toEqual([
      'checks.details.mtaSts',
      'checks.details.tlsRpt',
      'checks.details.starttls',
      'checks.details.dane',
      'checks.details.bimi',
    ]);
  });

  it('through GraphQL too, priced as one composite check', async () => {
    expect(checkOfField('mailhealthCheck')).toMatchObject({ tool: 'mailhealth-check', composite: true });
    const res = await graphql(
      t,
      `query ($d: String!) { mailhealthCheck(domain: $d) { domain verdict { status } checks { id host status error details {
        __typename
        ... on MailDkimDetails { selectorsFound }
        ... on MailStarttlsDetails { starttls { host status } }
        ... on MailDaneDetails { dane { host status } }
      } } } }`,
      { d: 'healthy.test' },
    );
    expect(res.status).toBe(200);
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.mailhealthCheck).toEqual({
      domain: 'healthy.test',
      verdict: { status: 'ok' },
      checks: [
        { id: 'mx', host: null, status: 'ok', error: null, details: { __typename: 'MailMxDetails' } },
        { id: 'spf', host: null, status: 'ok', error: null, details: { __typename: 'MailSpfDetails' } },
        { id: 'dmarc', host: null, status: 'ok', error: null, details: { __typename: 'MailDmarcDetails' } },
        {
          id: 'dkim',
          host: null,
          status: 'ok',
          error: null,
          details: { __typename: 'MailDkimDetails', selectorsFound: ['s1'] },
        },
        { id: 'blacklist', host: null, status: 'ok', error: null, details: { __typename: 'MailBlacklistDetails' } },
        { id: 'mta-sts', host: null, status: 'ok', error: null, details: { __typename: 'MailMtaStsDetails' } },
        { id: 'tls-rpt', host: null, status: 'ok', error: null, details: { __typename: 'MailTlsRptDetails' } },
        ...['mx1.lab.test', 'mx2.lab.test'].map((host) => ({
          id: 'starttls',
          host,
          status: 'ok',
          error: null,
          details: { __typename: 'MailStarttlsDetails', starttls: { host, status: 'ok' } },
        })),
        ...['mx1.lab.test', 'mx2.lab.test'].map((host) => ({
          id: 'dane',
          host,
          status: 'info',
          error: null,
          details: { __typename: 'MailDaneDetails', dane: { host, status: 'no-tlsa' } },
        })),
        { id: 'bimi', host: null, status: 'ok', error: null, details: { __typename: 'MailBimiDetails' } },
      ],
    });
  });

  it('rejects a missing or invalid domain with a 400 naming the parameter, asks nothing and charges nothing', async () => {
    const fresh = await createTestApp({ dns: { system: [`127.0.0.1:${lab.port}`] } });
    try {
      const missing = await fresh.get('/api/v1/mailhealth-check');
      expect(missing.status).toBe(400);
      expect(await missing.json()).toEqual({ ok: false, error: 'domain: missing required parameter', meta: META });
      for (const domain of ['localhost', '1.2.3.4', 'exa mple.test']) {
        const res = await fresh.get(`/api/v1/mailhealth-check?domain=${encodeURIComponent(domain)}`);
        expect(res.status).toBe(400);
        expect((await res.json()).error).toMatch(/^domain: /);
      }
      expect(lab.queries).toHaveLength(0);
      const ok = await fresh.get('/api/v1/mailhealth-check?domain=nullmx.test');
      expect(ok.headers.get('ratelimit-remaining')).toBe('297');
    } finally {
      await fresh.close();
    }
  });
});
