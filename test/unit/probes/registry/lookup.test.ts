import { Agent } from 'undici';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { loadBootstrap } from '../../../../src/probes/registry/bootstrap.js';
import { lookupRegistration, type LookupDeps } from '../../../../src/probes/registry/lookup.js';
import { parseWhois } from '../../../../src/probes/registry/whois-parse.js';
import { InputError } from '../../../../src/errors.js';
import { ProbeError } from '../../../../src/probes/errors.js';
import { createRdapClient } from '../../../../src/probes/registry/rdap.js';
import { createWhoisClient } from '../../../../src/probes/registry/whois.js';
import { startRdapLab, type RdapBehaviour, type RdapLab } from '../../../lab/rdap-server.js';
import { closedPort, startWhoisLab, type WhoisLab, type WhoisLabRoutes } from '../../../lab/whois-server.js';

const IANA_COM = [
  '% IANA WHOIS server',
  '% for more information on IANA, visit http://www.iana.org',
  '% This query returned 1 object',
  '',
  'refer:        whois.verisign-grs.com',
  '',
  'domain:       COM',
  '',
  'organisation: VeriSign Global Registry Services',
  'nserver:      A.GTLD-SERVERS.NET 192.5.6.30 2001:503:a83e:0:0:0:2:30',
  '',
  'whois:        whois.verisign-grs.com',
  '',
  'status:       ACTIVE',
  'created:      1985-01-01',
  'changed:      2017-10-05',
  'source:       IANA',
  '',
].join('\n');

const registryAnswer = (referral: string) =>
  [
    '   Domain Name: EXAMPLE.COM',
    '   Registry Domain ID: 2336799_DOMAIN_COM-VRSN',
    `   Registrar WHOIS Server: ${referral}`,
    '   Registrar URL: http://www.registrar.test',
    '   Updated Date: 2024-08-14T07:01:34Z',
    '   Creation Date: 1995-08-14T04:00:00Z',
    '   Registry Expiry Date: 2025-08-13T04:00:00Z',
    '   Registrar: Registry Side Name Inc.',
    '   Registrar IANA ID: 376',
    '   Registrar Abuse Contact Email: abuse@registry-side.test',
    '   Registrar Abuse Contact Phone: +1.5555550100',
    '   Domain Status: clientDeleteProhibited https://icann.org/epp#clientDeleteProhibited',
    '   Name Server: A.IANA-SERVERS.NET',
    '   Name Server: B.IANA-SERVERS.NET',
    '   DNSSEC: signedDelegation',
    '>>> Last update of whois database: 2024-09-01T00:00:00Z <<<',
    '',
  ].join('\r\n');

const registrarAnswer = (referral: string) =>
  [
    'Domain Name: example.com',
    `Registrar WHOIS Server: ${referral}`,
    'Updated Date: 2024-08-15T10:00:00Z',
    'Creation Date: 1995-08-14T04:00:00Z',
    'Registrar Registration Expiration Date: 2025-08-13T04:00:00Z',
    'Registrar: Registrar Test, LLC',
    'Registrar Abuse Contact Email: abuse-desk@registrar.test',
    'Registrar Abuse Contact Phone: +1.5555550199',
    'Registrant Name: REDACTED FOR PRIVACY',
    '',
  ].join('\r\n');

const NO_MATCH = 'No match for "NOTHING.COM".\r\n>>> Last update of whois database: 2024-09-01T00:00:00Z <<<\r\n';
const QUOTA = 'WHOIS LIMIT EXCEEDED - SEE WWW.PIR.ORG/WHOIS FOR DETAILS\r\n';
const REDACTED_NOTE = 'Registrant contact data is redacted for privacy.';

/** IANA → Verisign → registrar for example.com; overrides replace or add servers. */
function chain(overrides: WhoisLabRoutes = {}): WhoisLabRoutes {
  return {
    'whois.iana.org': { 'example.com': IANA_COM, 'nothing.com': IANA_COM },
    'whois.verisign-grs.com': {
      'domain example.com': registryAnswer('whois.registrar.test'),
      'domain nothing.com': NO_MATCH,
    },
    'whois.registrar.test': { 'example.com': registrarAnswer('whois.registrar.test') },
    ...overrides,
  };
}

const rdapDomain = (extra: Record<string, unknown> = {}) => ({
  objectClassName: 'domain',
  ldhName: 'EXAMPLE.COM',
  status: ['client delete prohibited'],
  events: [
    { eventAction: 'registration', eventDate: '1995-08-14T04:00:00Z' },
    { eventAction: 'expiration', eventDate: '2025-08-13T04:00:00Z' },
    { eventAction: 'last changed', eventDate: '2024-08-14T07:01:34Z' },
  ],
  entities: [
    {
      objectClassName: 'entity',
      roles: ['registrar'],
      vcardArray: [
        'vcard',
        [
          ['version', {}, 'text', '4.0'],
          ['fn', {}, 'text', 'Registry Side Name Inc.'],
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
              ['tel', { type: 'voice' }, 'uri', 'tel:+1.5555550100'],
              ['email', {}, 'text', 'abuse@registry-side.test'],
            ],
          ],
        },
      ],
    },
  ],
  nameservers: [{ objectClassName: 'nameserver', ldhName: 'A.IANA-SERVERS.NET' }],
  ...extra,
});

let agent: Agent;
let whoisLab: WhoisLab | null = null;
let rdapLab: RdapLab | null = null;

beforeAll(() => {
  agent = new Agent({ keepAliveTimeout: 10 });
});
afterAll(async () => {
  await agent.close();
});
afterEach(async () => {
  await whoisLab?.close();
  await rdapLab?.close();
  whoisLab = null;
  rdapLab = null;
});

async function labs(whois: WhoisLabRoutes, rdap?: Record<string, RdapBehaviour>): Promise<LookupDeps> {
  whoisLab = await startWhoisLab(whois);
  let bootstrap = null;
  if (rdap) {
    rdapLab = await startRdapLab(rdap);
    bootstrap = loadBootstrap({ services: [[['com', 'org'], [`${rdapLab.url}registry/`]]] });
  }
  return {
    whois: createWhoisClient({ resolveHost: whoisLab.resolveHost }),
    rdap: rdap ? createRdapClient({ dispatcher: agent }) : null,
    bootstrap,
    whoisServer: 'whois.iana.org',
    whoisPort: whoisLab.port,
    timeoutMs: 2000,
    parseWhois,
  };
}

async function failure(p: Promise<unknown>): Promise<Error> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(Error);
  return err as Error;
}

describe('lookupRegistration over WHOIS', () => {
  it('follows IANA → registry → registrar and merges: the most specific answer wins per field', async () => {
    const deps = await labs(chain());
    const result = await lookupRegistration('www.example.com', deps);
    expect(result).toEqual({
      domain: 'www.example.com',
      matchedDomain: 'example.com',
      source: 'WHOIS',
      notFound: false,
      registrar: 'Registrar Test, LLC',
      creationDate: '1995-08-14T04:00:00.000Z',
      expiryDate: '2025-08-13T04:00:00.000Z',
      updatedDate: '2024-08-15T10:00:00.000Z',
      // the registrar lists none: the registry's
      nameServers: ['a.iana-servers.net', 'b.iana-servers.net'],
      abuseEmail: 'abuse-desk@registrar.test',
      abusePhone: '+1.5555550199',
      message: REDACTED_NOTE,
      raw: registrarAnswer('whois.registrar.test'),
      servers: ['whois.iana.org', 'whois.verisign-grs.com', 'whois.registrar.test'],
    });
    expect(whoisLab!.queries).toEqual([
      { server: 'whois.iana.org', line: 'example.com' },
      { server: 'whois.verisign-grs.com', line: 'domain example.com' },
      { server: 'whois.registrar.test', line: 'example.com' },
    ]);
    // cacheable as a plain object
    expect(JSON.parse(JSON.stringify(result))).toEqual(result);
  });

  it("keeps the registry's creation and expiry dates when the registrar prints its own", async () => {
    const ownDates = registrarAnswer('whois.registrar.test')
      .replace('Creation Date: 1995-08-14T04:00:00Z', 'Creation Date: 2019-03-01T00:00:00Z')
      .replace(
        'Registrar Registration Expiration Date: 2025-08-13T04:00:00Z',
        'Registrar Registration Expiration Date: 2026-03-01T00:00:00Z',
      );
    const deps = await labs(chain({ 'whois.registrar.test': { 'example.com': ownDates } }));
    const result = await lookupRegistration('example.com', deps);
    expect(result).toMatchObject({
      creationDate: '1995-08-14T04:00:00.000Z',
      expiryDate: '2025-08-13T04:00:00.000Z',
      // the more specific answer still gives the registrar, its contacts and its update
      registrar: 'Registrar Test, LLC',
      abuseEmail: 'abuse-desk@registrar.test',
      updatedDate: '2024-08-15T10:00:00.000Z',
    });
  });

  it('takes notFound from the registry and asks no further', async () => {
    const deps = await labs(chain());
    const result = await lookupRegistration('nothing.com', deps);
    expect(result).toMatchObject({
      notFound: true,
      source: 'WHOIS',
      registrar: null,
      nameServers: [],
      raw: NO_MATCH,
      servers: ['whois.iana.org', 'whois.verisign-grs.com'],
    });
  });

  it('fails naming the registry when the first server that knows the domain stalls', async () => {
    const deps = await labs(chain({ 'whois.verisign-grs.com': { '*': { stall: true } } }));
    const started = performance.now();
    const err = await failure(lookupRegistration('example.com', { ...deps, timeoutMs: 300 }));
    expect(err).toBeInstanceOf(ProbeError);
    expect((err as ProbeError).kind).toBe('TIMEOUT');
    expect((err as ProbeError).status).toBe(504);
    expect((err as ProbeError).upstream).toBe(`whois.verisign-grs.com:${deps.whoisPort}`);
    expect(performance.now() - started).toBeLessThan(600);
  });

  it('fails naming the root when it refuses the connection', async () => {
    const deps = await labs(chain());
    const port = await closedPort();
    const err = await failure(
      lookupRegistration('example.com', { ...deps, whoisServer: '127.0.0.1', whoisPort: port }),
    );
    expect((err as ProbeError).kind).toBe('REFUSED');
    expect((err as ProbeError).message).toContain(`127.0.0.1:${port}`);
  });

  it('returns the registry data with a message when the registrar fails', async () => {
    const deps = await labs(chain({ 'whois.registrar.test': { '*': { stall: true } } }));
    const result = await lookupRegistration('example.com', { ...deps, timeoutMs: 300 });
    expect(result).toMatchObject({
      notFound: false,
      registrar: 'Registry Side Name Inc.',
      updatedDate: '2024-08-14T07:01:34.000Z',
      abuseEmail: 'abuse@registry-side.test',
      raw: registryAnswer('whois.registrar.test'),
      servers: ['whois.iana.org', 'whois.verisign-grs.com', 'whois.registrar.test'],
    });
    expect(result.message).toContain(`whois.registrar.test:${deps.whoisPort} did not answer within 300 ms`);
    expect(result.message).toContain('the answer of whois.verisign-grs.com is shown');
  });

  it('refuses with a 502 when the registry rate-limits, and notes a rate-limiting registrar', async () => {
    let deps = await labs(chain({ 'whois.verisign-grs.com': { '*': QUOTA } }));
    const err = await failure(lookupRegistration('example.com', deps));
    expect((err as ProbeError).kind).toBe('REFUSED');
    expect((err as ProbeError).status).toBe(502);
    expect(err.message).toContain('rate limit');
    await whoisLab!.close();

    deps = await labs(chain({ 'whois.registrar.test': { '*': QUOTA } }));
    const result = await lookupRegistration('example.com', deps);
    expect(result.registrar).toBe('Registry Side Name Inc.');
    expect(result.message).toBe(
      'WHOIS server whois.registrar.test rate-limited the query; the answer of whois.verisign-grs.com is shown.',
    );
  });

  it('detects a referral loop', async () => {
    const deps = await labs(chain({ 'whois.registrar.test': { '*': registrarAnswer('whois.verisign-grs.com') } }));
    const result = await lookupRegistration('example.com', deps);
    expect(result.registrar).toBe('Registrar Test, LLC');
    expect(result.message).toContain(
      'WHOIS referral loop: whois.registrar.test refers back to whois.verisign-grs.com.',
    );
    expect(whoisLab!.queries).toHaveLength(3);
  });

  it(`stops after 3 servers`, async () => {
    const deps = await labs(
      chain({
        'whois.registrar.test': { '*': registrarAnswer('whois.reseller.test') },
        'whois.reseller.test': { '*': registrarAnswer('whois.reseller.test') },
      }),
    );
    const result = await lookupRegistration('example.com', deps);
    expect(result.servers).toEqual(['whois.iana.org', 'whois.verisign-grs.com', 'whois.registrar.test']);
    expect(result.message).toContain(
      'Stopped after 3 WHOIS servers; whois.registrar.test refers on to whois.reseller.test.',
    );
  });

  it('parses the first 256 KiB of a 2 MiB registrar answer and says it was cut', async () => {
    const huge =
      registrarAnswer('whois.registrar.test') + 'Remarks: padding padding padding padding\r\n'.repeat(50_000);
    expect(huge.length).toBeGreaterThan(2 * 1024 * 1024);
    const deps = await labs(chain({ 'whois.registrar.test': { '*': huge } }));
    const result = await lookupRegistration('example.com', deps);
    expect(result.registrar).toBe('Registrar Test, LLC');
    expect(Buffer.byteLength(result.raw)).toBe(256 * 1024);
    expect(result.message).toContain('The answer of whois.registrar.test was cut short (at most 256 KiB are read).');
  });

  it('says so when the root names no WHOIS server and does not pass the TLD facts off as the domain', async () => {
    const ianaNoWhois = IANA_COM.replace(/^refer:.*$/m, '').replace(/^whois:.*$/m, '');
    const deps = await labs({ 'whois.iana.org': { '*': ianaNoWhois } });
    const result = await lookupRegistration('example.com', deps);
    expect(result).toMatchObject({
      notFound: false,
      creationDate: null,
      nameServers: [],
      raw: ianaNoWhois,
      message: 'WHOIS server whois.iana.org names no WHOIS service for .com.',
    });
  });

  it('takes the root\'s "0 objects" for a TLD that does not exist as not found', async () => {
    const none = [
      '% IANA WHOIS server',
      '% This query returned 0 objects.',
      '%',
      '% You queried for example.zzz but this server does not have',
      '% any data for example.zzz.',
      '',
    ].join('\n');
    const deps = await labs({ 'whois.iana.org': { '*': none } });
    const result = await lookupRegistration('example.zzz', deps);
    expect(result).toMatchObject({
      notFound: true,
      source: 'WHOIS',
      raw: none,
      servers: ['whois.iana.org'],
      message: null,
    });
  });

  it('takes a root that answers about an IDN in U-labels as the registry (names compared as A-labels)', async () => {
    const answer = [
      'Domain Name: Bücher.example',
      'Registrar: Registrar Test, LLC',
      'Creation Date: 2020-01-01T00:00:00Z',
      'Registry Expiry Date: 2030-01-01T00:00:00Z',
      '',
    ].join('\n');
    const deps = await labs({ 'whois.nic.example': { '*': answer } });
    const result = await lookupRegistration('www.xn--bcher-kva.example', { ...deps, whoisServer: 'whois.nic.example' });
    expect(result).toMatchObject({
      matchedDomain: 'xn--bcher-kva.example',
      notFound: false,
      registrar: 'Registrar Test, LLC',
      creationDate: '2020-01-01T00:00:00.000Z',
      message: null,
      raw: answer,
      servers: ['whois.nic.example'],
    });
  });

  it('validates the name before anything is sent', async () => {
    const deps = await labs(chain());
    for (const bad of ['example.com\r\nhelp', 'exa mple.com', '', 'a..b']) {
      expect(await failure(lookupRegistration(bad, deps))).toBeInstanceOf(InputError);
    }
    expect(whoisLab!.queries).toHaveLength(0);
  });
});

describe('lookupRegistration over RDAP', () => {
  it('asks RDAP first and follows the registry link to the registrar record', async () => {
    const registrarRecord = rdapDomain({
      ldhName: 'example.com',
      events: [{ eventAction: 'last changed', eventDate: '2024-08-15T10:00:00Z' }],
      entities: [{ roles: ['registrar'], vcardArray: ['vcard', [['fn', {}, 'text', 'Registrar Test, LLC']]] }],
      remarks: [{ title: 'REDACTED FOR PRIVACY', type: 'object redacted due to authorization', description: [] }],
    });
    const deps = await labs(chain(), { '/registrar/domain/example.com': { json: registrarRecord } });
    // the related link points at the lab, whose address is known only now
    rdapLab!.route('/registry/domain/example.com', {
      json: rdapDomain({
        links: [{ rel: 'related', type: 'application/rdap+json', href: `${rdapLab!.url}registrar/domain/EXAMPLE.COM` }],
      }),
    });
    const result = await lookupRegistration('example.com', deps);
    expect(result).toEqual({
      domain: 'example.com',
      matchedDomain: 'example.com',
      source: 'RDAP',
      notFound: false,
      registrar: 'Registrar Test, LLC',
      creationDate: '1995-08-14T04:00:00.000Z',
      expiryDate: '2025-08-13T04:00:00.000Z',
      updatedDate: '2024-08-15T10:00:00.000Z',
      nameServers: ['a.iana-servers.net'],
      abuseEmail: 'abuse@registry-side.test',
      abusePhone: '+1.5555550100',
      message: REDACTED_NOTE,
      raw: JSON.stringify(registrarRecord, null, 2),
      servers: [`${rdapLab!.url}registry/domain/example.com`, `${rdapLab!.url}registrar/domain/example.com`],
    });
    expect(whoisLab!.queries).toHaveLength(0);
  });

  it('accepts a registrar record that names the IDN in U-labels only', async () => {
    const registrarRecord = rdapDomain({
      ldhName: undefined,
      unicodeName: 'Bücher.com',
      entities: [{ roles: ['registrar'], vcardArray: ['vcard', [['fn', {}, 'text', 'Registrar Test, LLC']]] }],
    });
    const deps = await labs(chain(), { '/registrar/domain/xn--bcher-kva.com': { json: registrarRecord } });
    rdapLab!.route('/registry/domain/xn--bcher-kva.com', {
      json: rdapDomain({
        ldhName: 'XN--BCHER-KVA.COM',
        links: [
          { rel: 'related', type: 'application/rdap+json', href: `${rdapLab!.url}registrar/domain/xn--bcher-kva.com` },
        ],
      }),
    });
    const result = await lookupRegistration('xn--bcher-kva.com', deps);
    expect(result).toMatchObject({ source: 'RDAP', registrar: 'Registrar Test, LLC', message: null });
    expect(result.raw).toBe(JSON.stringify(registrarRecord, null, 2));
  });

  it('keeps the registry record when the registrar link fails, and says so', async () => {
    const deps = await labs(chain(), { '/registrar/domain/example.com': { status: 500 } });
    rdapLab!.route('/registry/domain/example.com', {
      json: rdapDomain({
        links: [{ rel: 'related', type: 'application/rdap+json', href: `${rdapLab!.url}registrar/domain/example.com` }],
      }),
    });
    const result = await lookupRegistration('example.com', deps);
    expect(result).toMatchObject({
      source: 'RDAP',
      registrar: 'Registry Side Name Inc.',
      updatedDate: '2024-08-14T07:01:34.000Z',
    });
    expect(result.message).toBe(
      `RDAP server ${new URL(rdapLab!.url).host} answered HTTP 500; the registry's data is shown.`,
    );
    expect(result.raw).toContain('Registry Side Name Inc.');
  });

  it('reports an RDAP 404 as notFound without asking WHOIS', async () => {
    const deps = await labs(chain(), {});
    const result = await lookupRegistration('nothing.com', deps);
    expect(result).toMatchObject({ source: 'RDAP', notFound: true, registrar: null, message: null });
    expect(whoisLab!.queries).toHaveLength(0);
  });

  it.each([
    ['429', { status: 429 } as RdapBehaviour, 'rate-limited the query (429)'],
    ['malformed JSON', { malformed: true } as RdapBehaviour, 'malformed JSON'],
    [
      'a non-domain object',
      { json: { objectClassName: 'entity', handle: 'X' } } as RdapBehaviour,
      'other than a domain',
    ],
  ])('falls back to WHOIS after RDAP %s and says why', async (_what, behaviour, why) => {
    const deps = await labs(chain(), { '/registry/domain/example.com': behaviour });
    const result = await lookupRegistration('example.com', deps);
    expect(result.source).toBe('WHOIS');
    expect(result.registrar).toBe('Registrar Test, LLC');
    expect(result.message).toContain(why);
    expect(result.message).toContain('the data comes from WHOIS instead');
    expect(result.servers).toEqual([
      `${rdapLab!.url}registry/domain/example.com`,
      'whois.iana.org',
      'whois.verisign-grs.com',
      'whois.registrar.test',
    ]);
  });

  it('fails with the WHOIS error, mentioning RDAP, when both fail', async () => {
    const deps = await labs(
      { 'whois.iana.org': { '*': { closeEarly: true } } },
      { '/registry/domain/example.com': { status: 503 } },
    );
    const err = await failure(lookupRegistration('example.com', deps));
    expect((err as ProbeError).kind).toBe('MALFORMED');
    expect(err.message).toContain('closed the connection without an answer');
    expect(err.message).toContain('RDAP had failed too');
  });

  it('does not fall back when the caller cancels', async () => {
    const deps = await labs(chain(), { '/registry/domain/example.com': { stall: true } });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const err = await failure(lookupRegistration('example.com', { ...deps, signal: controller.signal }));
    expect((err as ProbeError).kind).toBe('ABORTED');
    expect(whoisLab!.queries).toHaveLength(0);
  });

  it('uses WHOIS when RDAP is disabled or the TLD has no RDAP service', async () => {
    const deps = await labs(chain(), { '/registry/domain/example.com': { json: rdapDomain() } });
    expect((await lookupRegistration('example.com', { ...deps, rdap: null })).source).toBe('WHOIS');
    const noCom = loadBootstrap({ services: [[['org'], [rdapLab!.url]]] });
    expect((await lookupRegistration('example.com', { ...deps, bootstrap: noCom })).source).toBe('WHOIS');
    expect(rdapLab!.requests).toHaveLength(0);
  });
});
