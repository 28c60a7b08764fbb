/**
 * whois and abuse-contact-lookup end to end, through app.fetch, against loopback labs only:
 * a WHOIS lab playing root, registry and registrar servers on 127.0.0.1–6 (one port), a DNS lab as
 * the system resolver mapping their names to those addresses, and an RDAP lab named by a
 * bootstrap file written to a temporary directory (TLD "rdaptest").
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { PARTIAL_TTL_MS, REGISTRY_TTL_MS } from '../../../loaders/registry-cache.js';
import { createTestApp, graphql, type TestApp } from '../../../../test/helpers/app.js';
import { openApiMismatches } from '../../../../test/helpers/openapi.js';
import { rr, startDnsLab, type DnsLab } from '../../../../test/lab/dns-server.js';
import { startRdapLab, type RdapLab } from '../../../../test/lab/rdap-server.js';
import { startWhoisLab, type WhoisLab } from '../../../../test/lab/whois-server.js';

const ROOT = 'whois.root.test';
const REGISTRY = 'whois.registry.test';
const REGISTRAR = 'whois.registrar.test';
const STALL = 'whois.stall.test';
const LIMITED = 'whois.limited.test';
const WHOIS_TIMEOUT_MS = 500;
const NOW = Date.parse('2025-01-01T00:00:00Z');
const REDACTED_NOTE = 'Registrant contact data is redacted for privacy.';
const QUOTA = 'WHOIS LIMIT EXCEEDED - SEE WWW.REGISTRY.TEST/WHOIS FOR DETAILS\r\n';

/** What an IANA-style root says about a TLD: the registry's WHOIS server. */
const rootAnswer = (tld: string, registry: string): string =>
  [
    '% IANA WHOIS server',
    '% This query returned 1 object',
    '',
    `refer:        ${registry}`,
    '',
    `domain:       ${tld.toUpperCase()}`,
    'organisation: Test Registry Services',
    '',
    `whois:        ${registry}`,
    '',
    'status:       ACTIVE',
    'created:      1985-01-01',
    'source:       IANA',
    '',
  ].join('\n');

function registryAnswer(domain: string, options: { referral?: string; abuse?: boolean } = {}): string {
  return [
    `   Domain Name: ${domain.toUpperCase()}`,
    ...(options.referral ? [`   Registrar WHOIS Server: ${options.referral}`] : []),
    '   Updated Date: 2024-08-14T07:01:34Z',
    '   Creation Date: 1995-08-14T04:00:00Z',
    '   Registry Expiry Date: 2025-08-13T04:00:00Z',
    '   Registrar: Registry Side Name Inc.',
    ...(options.abuse === false
      ? []
      : [
          '   Registrar Abuse Contact Email: abuse@registry-side.test',
          '   Registrar Abuse Contact Phone: +1.5555550100',
        ]),
    '   Name Server: NS1.EXAMPLE.NET',
    '   Name Server: ns2.example.net.',
    '   Name Server: NS1.EXAMPLE.NET',
    '>>> Last update of whois database: 2024-09-01T00:00:00Z <<<',
    '',
  ].join('\r\n');
}

const registrarAnswer = (domain: string): string =>
  [
    `Domain Name: ${domain}`,
    'Updated Date: 2024-08-15T10:00:00Z',
    'Creation Date: 1995-08-14T04:00:00Z',
    'Registrar Registration Expiration Date: 2025-08-13T04:00:00Z',
    'Registrar: Registrar Test, LLC',
    'Registrar Abuse Contact Email: abuse-desk@registrar.test',
    'Registrar Abuse Contact Phone: +1.5555550199',
    'Registrant Name: REDACTED FOR PRIVACY',
    '',
  ].join('\r\n');

const NO_MATCH = 'No match for "NOTHING.WHOISTEST".\r\n>>> Last update of whois database: 2024-09-01T00:00:00Z <<<\r\n';

const rdapRecord = {
  objectClassName: 'domain',
  ldhName: 'EXAMPLE.RDAPTEST',
  events: [
    { eventAction: 'registration', eventDate: '2001-02-03T04:05:06Z' },
    { eventAction: 'expiration', eventDate: '2030-02-03T04:05:06Z' },
    { eventAction: 'last changed', eventDate: '2024-05-06T07:08:09Z' },
  ],
  entities: [
    {
      objectClassName: 'entity',
      roles: ['registrar'],
      vcardArray: [
        'vcard',
        [
          ['version', {}, 'text', '4.0'],
          ['fn', {}, 'text', 'RDAP Registrar Ltd'],
        ],
      ],
      entities: [
        {
          objectClassName: 'entity',
          roles: ['abuse'],
          vcardArray: [
            'vcard',
            [
              ['version', {}, 'text', '4.0'],
              ['email', {}, 'text', 'abuse@rdap-registrar.test'],
              ['tel', { type: 'voice' }, 'uri', 'tel:+44.2071234567'],
            ],
          ],
        },
      ],
    },
  ],
  nameservers: [
    { objectClassName: 'nameserver', ldhName: 'NS1.EXAMPLE.RDAPTEST.' },
    { objectClassName: 'nameserver', ldhName: 'ns1.example.rdaptest' },
    { objectClassName: 'nameserver', ldhName: 'ns2.example.rdaptest' },
  ],
};

let whoisLab: WhoisLab;
let rdapLab: RdapLab;
let dnsLab: DnsLab;
let bootstrapFile: string;
let t: TestApp;
let clock = NOW;
const extraApps: TestApp[] = [];

beforeAll(async () => {
  whoisLab = await startWhoisLab({
    [ROOT]: {
      'example.stalltest': rootAnswer('stalltest', STALL),
      'example.limitedtest': rootAnswer('limitedtest', LIMITED),
      '*': rootAnswer('whoistest', REGISTRY),
    },
    [REGISTRY]: {
      'example.whoistest': registryAnswer('example.whoistest', { referral: REGISTRAR }),
      'shared.whoistest': registryAnswer('shared.whoistest', { referral: REGISTRAR }),
      'cached.whoistest': registryAnswer('cached.whoistest', { referral: REGISTRAR }),
      'nothing.whoistest': NO_MATCH,
      'partial.whoistest': registryAnswer('partial.whoistest', { referral: STALL }),
      'limitedreg.whoistest': registryAnswer('limitedreg.whoistest', { referral: LIMITED }),
      'refused.whoistest': registryAnswer('refused.whoistest', { referral: REGISTRAR }),
      'ghost.whoistest': registryAnswer('ghost.whoistest', { referral: 'whois.ghost.test' }),
      'noabuse.whoistest': registryAnswer('noabuse.whoistest', { abuse: false }),
      'xn--bcher-kva.whoistest': registryAnswer('xn--bcher-kva.whoistest'),
      'broken.rdaptest': registryAnswer('broken.rdaptest'),
    },
    [REGISTRAR]: {
      'example.whoistest': registrarAnswer('example.whoistest'),
      'shared.whoistest': registrarAnswer('shared.whoistest'),
      'cached.whoistest': registrarAnswer('cached.whoistest'),
      'refused.whoistest': registrarAnswer('refused.whoistest'),
    },
    [STALL]: { '*': { stall: true } },
    [LIMITED]: { '*': QUOTA },
  });
  dnsLab = await startDnsLab({
    authoritative: false,
    records: [...whoisLab.addresses].map(([name, address]) => rr.a(name, address)),
  });
  rdapLab = await startRdapLab({
    '/registry/domain/example.rdaptest': { json: rdapRecord },
    '/registry/domain/broken.rdaptest': { status: 500 },
  });
  const dir = mkdtempSync(join(tmpdir(), 'netdiag-rdap-'));
  bootstrapFile = join(dir, 'dns.json');
  writeFileSync(
    bootstrapFile,
    JSON.stringify({
      version: '1.0',
      publication: '2025-01-01T00:00:00Z',
      services: [[['rdaptest'], [`${rdapLab.url}registry/`]]],
    }),
  );
  t = await app();
});
afterAll(async () => {
  await t.close();
  await whoisLab.close();
  await rdapLab.close();
  await dnsLab.close();
});
afterEach(async () => {
  whoisLab.queries.length = 0;
  rdapLab.requests.length = 0;
  clock = NOW;
  while (extraApps.length > 0) await extraApps.pop()!.close();
});

function config(targets: { allow: string[] } = { allow: ['127.0.0.0/8'] }): Record<string, unknown> {
  return {
    dns: { system: [`127.0.0.1:${dnsLab.port}`], timeoutMs: 1000 },
    whois: { server: ROOT, port: whoisLab.port, timeoutMs: WHOIS_TIMEOUT_MS },
    rdap: { bootstrapFile },
    targets,
  };
}

async function app(targets?: { allow: string[] }): Promise<TestApp> {
  return createTestApp(config(targets), { now: () => clock });
}

async function extraApp(targets?: { allow: string[] }): Promise<TestApp> {
  const created = await app(targets);
  extraApps.push(created);
  return created;
}

async function call(
  tool: 'whois' | 'abuse-contact-lookup',
  domain: string,
  on = t,
): Promise<{ status: number; body: any }> {
  const res = await on.get(`/api/v1/${tool}?domain=${encodeURIComponent(domain)}`);
  const body = await res.json();
  expect(openApiMismatches(tool, res.status, body)).toEqual([]);
  return { status: res.status, body };
}

const queriesOf = (server: string) => whoisLab.queries.filter((q) => q.server === server).map((q) => q.line);

describe('whois', () => {
  it('follows root → registry → registrar and merges: the most specific answer wins per field', async () => {
    const { status, body } = await call('whois', 'WWW.Example.WhoisTest.');
    expect(status).toBe(200);
    expect(body).toEqual({
      ok: true,
      data: {
        domain: 'www.example.whoistest',
        notFound: false,
        source: 'WHOIS',
        matchedDomain: 'example.whoistest',
        registrar: 'Registrar Test, LLC',
        creationDate: '1995-08-14T04:00:00.000Z',
        expiryDate: '2025-08-13T04:00:00.000Z',
        updatedDate: '2024-08-15T10:00:00.000Z',
        // the registrar lists none: the registry's, lower-cased and de-duplicated
        nameServers: ['ns1.example.net', 'ns2.example.net'],
        daysUntilExpiry: 224,
        message: REDACTED_NOTE,
        raw: registrarAnswer('example.whoistest'),
        servers: [ROOT, REGISTRY, REGISTRAR],
        fetchedAt: '2025-01-01T00:00:00.000Z',
      },
      meta: { tool: 'whois', version: 'v1' },
    });
    // the registrable domain is what every server is asked about
    expect(whoisLab.queries).toEqual([
      { server: ROOT, line: 'example.whoistest' },
      { server: REGISTRY, line: 'example.whoistest' },
      { server: REGISTRAR, line: 'example.whoistest' },
    ]);
  });

  it('asks RDAP first where the bootstrap names a service, and WHOIS not at all', async () => {
    const { body } = await call('whois', 'example.rdaptest');
    expect(body.data).toEqual({
      domain: 'example.rdaptest',
      notFound: false,
      source: 'RDAP',
      matchedDomain: 'example.rdaptest',
      registrar: 'RDAP Registrar Ltd',
      creationDate: '2001-02-03T04:05:06.000Z',
      expiryDate: '2030-02-03T04:05:06.000Z',
      updatedDate: '2024-05-06T07:08:09.000Z',
      nameServers: ['ns1.example.rdaptest', 'ns2.example.rdaptest'],
      daysUntilExpiry: 1859,
      message: null,
      raw: JSON.stringify(rdapRecord, null, 2),
      servers: [`${rdapLab.url}registry/domain/example.rdaptest`],
      fetchedAt: '2025-01-01T00:00:00.000Z',
    });
    expect(rdapLab.requests.map((r) => r.path)).toEqual(['/registry/domain/example.rdaptest']);
    expect(whoisLab.queries).toEqual([]);
  });

  it('counts days down to a negative number once the domain has expired', async () => {
    clock = Date.parse('2025-08-14T00:00:00Z');
    expect((await call('whois', 'example.whoistest')).body.data.daysUntilExpiry).toBe(-1);
  });

  it('reports an unregistered domain as notFound, from WHOIS and from RDAP (a 200, not an error)', async () => {
    const whois = await call('whois', 'nothing.whoistest');
    expect(whois.body.data).toEqual({
      domain: 'nothing.whoistest',
      notFound: true,
      source: 'WHOIS',
      matchedDomain: 'nothing.whoistest',
      registrar: '',
      creationDate: null,
      expiryDate: null,
      updatedDate: null,
      nameServers: [],
      daysUntilExpiry: null,
      message: null,
      raw: NO_MATCH,
      servers: [ROOT, REGISTRY],
      fetchedAt: '2025-01-01T00:00:00.000Z',
    });
    const rdap = await call('whois', 'nothing.rdaptest');
    expect(rdap.body.data).toMatchObject({ notFound: true, source: 'RDAP', registrar: '', expiryDate: null, raw: '' });
  });

  it('falls back to WHOIS when RDAP fails, and says so', async () => {
    const { body } = await call('whois', 'broken.rdaptest');
    expect(body.data).toMatchObject({ source: 'WHOIS', notFound: false, registrar: 'Registry Side Name Inc.' });
    expect(body.data.message).toBe(
      `RDAP failed (RDAP server ${new URL(rdapLab.url).host} answered HTTP 500); the data comes from WHOIS instead.`,
    );
    expect(body.data.servers).toEqual([`${rdapLab.url}registry/domain/broken.rdaptest`, ROOT, REGISTRY]);
  });

  it('is a 502 naming the registry when it rate-limits the query', async () => {
    const { status, body } = await call('whois', 'example.limitedtest');
    expect(status).toBe(502);
    expect(body).toEqual({
      ok: false,
      error: `WHOIS server ${LIMITED}:${whoisLab.port} refused the query: rate limit reached`,
      meta: { tool: 'whois', version: 'v1' },
    });
  });

  it('is a 504 naming the registry when it stalls, within the WHOIS bound', async () => {
    const started = performance.now();
    const { status, body } = await call('whois', 'example.stalltest');
    expect(status).toBe(504);
    expect(body.error).toBe(`WHOIS server ${STALL}:${whoisLab.port} did not answer within ${WHOIS_TIMEOUT_MS} ms`);
    expect(performance.now() - started).toBeLessThan(2 * WHOIS_TIMEOUT_MS);
  });

  it('returns what a partial chain learned, marked in message', async () => {
    const stalled = await call('whois', 'partial.whoistest');
    expect(stalled.status).toBe(200);
    expect(stalled.body.data).toMatchObject({
      notFound: false,
      registrar: 'Registry Side Name Inc.',
      expiryDate: '2025-08-13T04:00:00.000Z',
      raw: registryAnswer('partial.whoistest', { referral: STALL }),
      servers: [ROOT, REGISTRY, STALL],
      message: `WHOIS server ${STALL}:${whoisLab.port} did not answer within ${WHOIS_TIMEOUT_MS} ms; the answer of ${REGISTRY} is shown.`,
    });
    const limited = await call('whois', 'limitedreg.whoistest');
    expect(limited.body.data.message).toBe(
      `WHOIS server ${LIMITED} rate-limited the query; the answer of ${REGISTRY} is shown.`,
    );
    const ghost = await call('whois', 'ghost.whoistest');
    expect(ghost.body.data.registrar).toBe('Registry Side Name Inc.');
    expect(ghost.body.data.message).toBe(
      `WHOIS server name whois.ghost.test has no address (no A or AAAA record); the answer of ${REGISTRY} is shown.`,
    );
  });

  it('asks in A-labels about an internationalised name', async () => {
    const { body } = await call('whois', 'www.Bücher.whoistest');
    expect(body.data).toMatchObject({
      domain: 'www.xn--bcher-kva.whoistest',
      matchedDomain: 'xn--bcher-kva.whoistest',
      notFound: false,
    });
    expect(queriesOf(REGISTRY)).toEqual(['xn--bcher-kva.whoistest']);
  });

  it('rejects bad input with a 400 naming the parameter, before anything is sent', async () => {
    for (const [domain, message] of [
      ['co.uk', /^domain: co\.uk is a public suffix .*such as example\.co\.uk$/],
      ['whoistest', /^domain: .*single label/],
      ['exa mple.whoistest', /^domain: .*contains " "/],
      ['192.0.2.1', /^domain: /],
    ] as const) {
      const { status, body } = await call('whois', domain);
      expect({ domain, status }).toEqual({ domain, status: 400 });
      expect(body.error).toMatch(message);
    }
    const missing = await t.get('/api/v1/whois');
    expect(missing.status).toBe(400);
    expect((await missing.json()).error).toBe('domain: missing required parameter');
    expect(whoisLab.queries).toEqual([]);
    expect(rdapLab.requests).toEqual([]);
  });
});

describe('WHOIS servers and the target rules', () => {
  it('does not follow a referral to a refused address: the registry answer, with a message, and no connection', async () => {
    // root and registry allowed; the registrar's 127.0.0.3 is not
    const restricted = await extraApp({ allow: ['127.0.0.1/32', '127.0.0.2/32'] });
    const byName = await call('whois', 'refused.whoistest', restricted);
    expect(byName.status).toBe(200);
    expect(byName.body.data).toMatchObject({
      registrar: 'Registry Side Name Inc.',
      servers: [ROOT, REGISTRY, REGISTRAR],
      message:
        `WHOIS server ${REGISTRAR}:${whoisLab.port} resolves to 127.0.0.3, a loopback address; it was not contacted ` +
        `(private and internal addresses are refused); the answer of ${REGISTRY} is shown.`,
    });
    expect(queriesOf(REGISTRAR)).toEqual([]);
  });

  it('is a 502 naming the root when the root itself is refused (no allow list), and connects to nothing', async () => {
    const strict = await extraApp({ allow: [] });
    const { status, body } = await call('whois', 'example.whoistest', strict);
    expect(status).toBe(502);
    expect(body.error).toBe(
      `WHOIS server ${ROOT}:${whoisLab.port} resolves to 127.0.0.1, a loopback address; it was not contacted (private and internal addresses are refused)`,
    );
    expect(whoisLab.queries).toEqual([]);
  });

  it('checks a root given as an IP literal the same way', async () => {
    const strict = await createTestApp({
      ...config({ allow: [] }),
      whois: { server: '127.0.0.1', port: whoisLab.port },
    });
    extraApps.push(strict);
    const { status, body } = await call('whois', 'example.whoistest', strict);
    expect(status).toBe(502);
    expect(body.error).toBe(
      `WHOIS server 127.0.0.1:${whoisLab.port} is a loopback address; it was not contacted (private and internal addresses are refused)`,
    );
    expect(whoisLab.queries).toEqual([]);
  });
});

describe('abuse-contact-lookup', () => {
  it("gives the registrar's abuse contact, from the most specific answer", async () => {
    const { status, body } = await call('abuse-contact-lookup', 'mail.example.whoistest');
    expect(status).toBe(200);
    expect(body).toEqual({
      ok: true,
      data: {
        domain: 'mail.example.whoistest',
        matchedDomain: 'example.whoistest',
        registrar: 'Registrar Test, LLC',
        email: 'abuse-desk@registrar.test',
        phone: '+1.5555550199',
        found: true,
        source: 'WHOIS',
        message: REDACTED_NOTE,
      },
      meta: { tool: 'abuse-contact-lookup', version: 'v1' },
    });
  });

  it("reads RDAP's abuse entity of the registrar", async () => {
    const { body } = await call('abuse-contact-lookup', 'example.rdaptest');
    expect(body.data).toEqual({
      domain: 'example.rdaptest',
      matchedDomain: 'example.rdaptest',
      registrar: 'RDAP Registrar Ltd',
      email: 'abuse@rdap-registrar.test',
      phone: '+44.2071234567',
      found: true,
      source: 'RDAP',
      message: null,
    });
  });

  it('says why when there is no contact: none published, or the domain is not registered', async () => {
    const none = await call('abuse-contact-lookup', 'noabuse.whoistest');
    expect(none.body.data).toEqual({
      domain: 'noabuse.whoistest',
      matchedDomain: 'noabuse.whoistest',
      registrar: 'Registry Side Name Inc.',
      email: '',
      phone: '',
      found: false,
      source: 'WHOIS',
      message:
        'The registrar of noabuse.whoistest (Registry Side Name Inc.) publishes no abuse contact in the registration data.',
    });
    const unregistered = await call('abuse-contact-lookup', 'nothing.whoistest');
    expect(unregistered.body.data).toMatchObject({
      registrar: '',
      found: false,
      message: 'nothing.whoistest is not registered, so it has no registrar abuse contact.',
    });
  });

  it('fails like whois when the registry fails', async () => {
    const { status, body } = await call('abuse-contact-lookup', 'example.stalltest');
    expect(status).toBe(504);
    expect(body.error).toContain(`${STALL}:${whoisLab.port}`);
  });
});

describe('sharing and caching', () => {
  it('asks once when one GraphQL operation selects whois and abuseContactLookup (and another name of the domain)', async () => {
    const res = await graphql(
      t,
      `query ($d: String!, $www: String!) {
        whois(domain: $d) { registrar source expiryDate }
        abuseContactLookup(domain: $www) { domain email found }
        again: whois(domain: $www) { matchedDomain }
      }`,
      { d: 'shared.whoistest', www: 'www.shared.whoistest' },
    );
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      data: {
        whois: { registrar: 'Registrar Test, LLC', source: 'WHOIS', expiryDate: '2025-08-13T04:00:00.000Z' },
        abuseContactLookup: { domain: 'www.shared.whoistest', email: 'abuse-desk@registrar.test', found: true },
        again: { matchedDomain: 'shared.whoistest' },
      },
    });
    expect(whoisLab.queries).toEqual([
      { server: ROOT, line: 'shared.whoistest' },
      { server: REGISTRY, line: 'shared.whoistest' },
      { server: REGISTRAR, line: 'shared.whoistest' },
    ]);
  });

  it('serves a complete answer from the cache for an hour, then asks again', async () => {
    // 24.5 hours before the expiry: one whole day left, none an hour later
    const start = Date.parse('2025-08-12T03:30:00Z');
    clock = start;
    const fresh = await extraApp();
    const first = await call('whois', 'cached.whoistest', fresh);
    expect(first.body.data.daysUntilExpiry).toBe(1);
    expect(whoisLab.queries).toHaveLength(3);
    clock = start + REGISTRY_TTL_MS - 1000;
    const second = await call('whois', 'www.cached.whoistest', fresh);
    const abuse = await call('abuse-contact-lookup', 'cached.whoistest', fresh);
    expect(whoisLab.queries).toHaveLength(3);
    expect(second.body.data).toEqual({
      ...first.body.data,
      domain: 'www.cached.whoistest',
      // computed per request, from the cached expiry date
      daysUntilExpiry: 0,
      fetchedAt: '2025-08-12T03:30:00.000Z',
    });
    expect(abuse.body.data.email).toBe('abuse-desk@registrar.test');
    clock = start + REGISTRY_TTL_MS + 1000;
    const third = await call('whois', 'cached.whoistest', fresh);
    expect(whoisLab.queries).toHaveLength(6);
    expect(third.body.data.fetchedAt).toBe(new Date(clock).toISOString());
  });

  it('keeps a partial answer for five minutes only, and a failure not at all', async () => {
    const fresh = await extraApp();
    await call('whois', 'limitedreg.whoistest', fresh);
    expect(queriesOf(LIMITED)).toHaveLength(1);
    clock = NOW + PARTIAL_TTL_MS - 1000;
    await call('whois', 'limitedreg.whoistest', fresh);
    expect(queriesOf(LIMITED)).toHaveLength(1);
    clock = NOW + PARTIAL_TTL_MS + 1000;
    await call('whois', 'limitedreg.whoistest', fresh);
    expect(queriesOf(LIMITED)).toHaveLength(2);

    expect((await call('whois', 'example.limitedtest', fresh)).status).toBe(502);
    expect((await call('whois', 'example.limitedtest', fresh)).status).toBe(502);
    expect(queriesOf(LIMITED)).toHaveLength(4);
  });

  it('keeps a WHOIS answer that stood in for a failed RDAP for five minutes only', async () => {
    const fresh = await extraApp();
    await call('whois', 'broken.rdaptest', fresh);
    clock = NOW + PARTIAL_TTL_MS - 1000;
    await call('whois', 'broken.rdaptest', fresh);
    expect(rdapLab.requests).toHaveLength(1);
    clock = NOW + PARTIAL_TTL_MS + 1000;
    await call('whois', 'broken.rdaptest', fresh);
    expect(rdapLab.requests).toHaveLength(2);
  });
});

describe('the RDAP bootstrap file', () => {
  it('is read at start: a missing or invalid file refuses to start, naming the path', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'netdiag-rdap-bad-'));
    const missing = join(dir, 'missing.json');
    await expect(createTestApp({ rdap: { bootstrapFile: missing } })).rejects.toThrow(missing);
    const invalid = join(dir, 'invalid.json');
    writeFileSync(invalid, JSON.stringify({ services: 'none' }));
    await expect(createTestApp({ rdap: { bootstrapFile: invalid } })).rejects.toThrow(
      `${invalid}: expected an object with a "services" array`,
    );
  });

  it('is not needed when RDAP is disabled: everything goes to WHOIS', async () => {
    const noRdap = await createTestApp(
      { ...config(), rdap: { enabled: false, bootstrapFile: '/nonexistent/dns.json' } },
      { now: () => clock },
    );
    extraApps.push(noRdap);
    const { body } = await call('whois', 'broken.rdaptest', noRdap);
    expect(body.data).toMatchObject({ source: 'WHOIS', message: null, servers: [ROOT, REGISTRY] });
    expect(rdapLab.requests).toEqual([]);
  });
});
