/**
 * Every real RDAP answer in the shared fixtures, parsed, with the facts read by
 * hand from each JSON file. Skipped when the shared fixtures are not beside the
 * repository (set NETDIAG_SHARED_FIXTURES to point elsewhere).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseRdapDomain, type RegistryFacts } from '../../src/probes/registry/rdap-parse.js';
import { sharedFixturesDir } from './shared-dir.js';

const fixtures = sharedFixturesDir();
const dir = fixtures && existsSync(join(fixtures, 'rdap')) ? join(fixtures, 'rdap') : null;

const MARKMONITOR_ABUSE = 'abusecomplaints@markmonitor.com';
const GOOGLE_NS = ['ns1.google.com', 'ns2.google.com', 'ns3.google.com', 'ns4.google.com'];
const COMLAUDE_NS = ['nsgbr.comlaude.co.uk', 'nssui.comlaude.ch', 'nsusa.comlaude.net'];
const EPP_LOCKS = ['client update prohibited', 'client transfer prohibited', 'client delete prohibited'];
const SERVER_LOCKS = ['server update prohibited', 'server transfer prohibited', 'server delete prohibited'];

const expected: Record<string, RegistryFacts> = {
  // registrar (Com Laude): trailing-dot names, abuse nested in the registrar, redacted contacts
  'rdap__comlaude__amazon.cyou.json': {
    domainName: 'amazon.cyou',
    registrar: 'NOM-IQ Ltd dba Com Laude',
    creationDate: '2020-05-14T00:00:00.000Z',
    updatedDate: '2021-03-29T22:55:53.000Z',
    expiryDate: '2021-05-14T00:00:00.000Z',
    nameServers: COMLAUDE_NS,
    abuseEmail: 'abuse@comlaude.com',
    abusePhone: '+44.2074218250',
    status: ['client delete prohibited', 'client update prohibited'],
    redacted: true,
    registrarRdapUrl: null,
  },
  'rdap__comlaude__amazon.ooo.json': {
    domainName: 'amazon.ooo',
    registrar: 'NOM-IQ Ltd dba Com Laude',
    creationDate: '2014-10-23T00:00:00.000Z',
    updatedDate: '2021-03-29T22:55:53.000Z',
    expiryDate: '2021-10-23T00:00:00.000Z',
    nameServers: COMLAUDE_NS,
    abuseEmail: 'abuse@comlaude.com',
    abusePhone: '+44.2074218250',
    status: ['client delete prohibited', 'client transfer prohibited', 'client update prohibited'],
    redacted: true,
    registrarRdapUrl: null,
  },
  // registry (CZ.NIC FRED): registrar entity has only a handle, no abuse contact, "transfer" event ignored
  'rdap__cznic__example.cz.json': {
    domainName: 'example.cz',
    registrar: 'REG-INTERNET-CZ',
    creationDate: '2004-08-30T22:55:00.000Z',
    updatedDate: null,
    expiryDate: '2019-08-30T12:00:00.000Z',
    nameServers: ['ns2.pipni.cz', 'ns3.pipni.cz', 'ns.pipni.cz'],
    abuseEmail: null,
    abusePhone: null,
    status: ['active'],
    redacted: false,
    registrarRdapUrl: null,
  },
  // registrar (MarkMonitor): name in org only, "+0000" offsets, "last update" event
  'rdap__markmonitor__abc.xyz.json': {
    domainName: 'abc.xyz',
    registrar: 'MarkMonitor Inc.',
    creationDate: '2014-03-20T12:59:17.000Z',
    updatedDate: '2019-11-07T17:16:24.000Z',
    expiryDate: '2025-03-20T07:00:00.000Z',
    nameServers: GOOGLE_NS,
    abuseEmail: MARKMONITOR_ABUSE,
    abusePhone: '+1.2083895770',
    status: EPP_LOCKS,
    redacted: true,
    registrarRdapUrl: null,
  },
  'rdap__markmonitor__google.com.json': {
    domainName: 'google.com',
    registrar: 'MarkMonitor Inc.',
    creationDate: '1997-09-15T07:00:00.000Z',
    updatedDate: '2019-09-09T15:39:04.000Z',
    expiryDate: '2028-09-13T07:00:00.000Z',
    nameServers: GOOGLE_NS,
    abuseEmail: MARKMONITOR_ABUSE,
    abusePhone: '+1.2086851750',
    status: [...EPP_LOCKS, ...SERVER_LOCKS],
    redacted: true,
    registrarRdapUrl: null,
  },
  'rdap__markmonitor__google.com@2021.json': {
    domainName: 'google.com',
    registrar: 'MarkMonitor Inc.',
    creationDate: '1997-09-15T07:00:00.000Z',
    updatedDate: '2019-09-09T15:39:04.000Z',
    expiryDate: '2028-09-13T07:00:00.000Z',
    nameServers: GOOGLE_NS,
    abuseEmail: MARKMONITOR_ABUSE,
    abusePhone: '+1.2083895770',
    status: [...EPP_LOCKS, ...SERVER_LOCKS],
    redacted: true,
    registrarRdapUrl: null,
  },
  // no "nameservers" member at all
  'rdap__markmonitor__google.pw.json': {
    domainName: 'google.pw',
    registrar: 'MarkMonitor Inc.',
    creationDate: '2012-10-12T10:19:46.000Z',
    updatedDate: '2021-01-09T10:35:54.000Z',
    expiryDate: '2022-02-10T08:00:00.000Z',
    nameServers: [],
    abuseEmail: MARKMONITOR_ABUSE,
    abusePhone: '+1.2083895770',
    status: EPP_LOCKS,
    redacted: true,
    registrarRdapUrl: null,
  },
  // registrar (Namecheap): abuse entity beside the registrar, dates without zone, "Type" params
  'rdap__namecheap__bitcoin.org.json': {
    domainName: 'bitcoin.org',
    registrar: 'NAMECHEAP INC',
    creationDate: '2008-08-18T13:19:55.000Z',
    updatedDate: '2019-11-24T13:58:35.000Z',
    expiryDate: '2029-08-18T13:19:55.000Z',
    nameServers: ['dns1.registrar-servers.com', 'dns2.registrar-servers.com'],
    abuseEmail: 'abuse@namecheap.com',
    abusePhone: '+1.6613102107',
    status: ['client transfer prohibited'],
    redacted: false,
    registrarRdapUrl: null,
  },
  'rdap__namecheap__deep.surf.json': {
    domainName: 'deep.surf',
    registrar: 'NAMECHEAP INC',
    creationDate: '2020-07-01T14:05:58.000Z',
    updatedDate: null,
    expiryDate: '2021-07-01T14:05:58.000Z',
    nameServers: ['ns-2005.awsdns-58.co.uk', 'ns-22.awsdns-02.com', 'ns-540.awsdns-03.net', 'ns-1488.awsdns-58.org'],
    abuseEmail: 'abuse@namecheap.com',
    abusePhone: '+1.6613102107',
    status: ['client transfer prohibited'],
    redacted: false,
    registrarRdapUrl: null,
  },
  // registry (.tube, Neustar): links the registrar's record; registrar fax listed beside voice
  'rdap__nic-tube__you.tube.json': {
    domainName: 'you.tube',
    registrar: 'MarkMonitor, Inc.',
    creationDate: '2016-04-17T11:31:13.000Z',
    updatedDate: '2021-03-20T09:34:32.000Z',
    expiryDate: '2022-04-16T23:59:59.000Z',
    nameServers: ['ns3.googledomains.com', 'ns1.googledomains.com', 'ns2.googledomains.com', 'ns4.googledomains.com'],
    abuseEmail: MARKMONITOR_ABUSE,
    abusePhone: '+1.2083895740',
    status: EPP_LOCKS,
    redacted: true,
    registrarRdapUrl: 'https://rdap.markmonitor.com/rdap/domain/you.tube',
  },
  // registry (Norid): no status, no expiry, no abuse entity
  'rdap__norid__norway.no.json': {
    domainName: 'norway.no',
    registrar: 'Domeneshop AS',
    creationDate: '2017-01-24T12:09:23.000Z',
    updatedDate: '2021-01-14T05:16:59.000Z',
    expiryDate: null,
    nameServers: ['ns1-09.azure-dns.com', 'ns2-09.azure-dns.net', 'ns3-09.azure-dns.org', 'ns4-09.azure-dns.info'],
    abuseEmail: null,
    abusePhone: null,
    status: [],
    redacted: false,
    registrarRdapUrl: null,
  },
  // registry (Verisign, thin): upper-case names, empty abuse fn, related link to the registrar
  'rdap__verisign__google.com.json': {
    domainName: 'google.com',
    registrar: 'MarkMonitor Inc.',
    creationDate: '1997-09-15T04:00:00.000Z',
    updatedDate: '2019-09-09T15:39:04.000Z',
    expiryDate: '2028-09-14T04:00:00.000Z',
    nameServers: GOOGLE_NS,
    abuseEmail: MARKMONITOR_ABUSE,
    abusePhone: '+1.2086851750',
    status: [
      'client delete prohibited',
      'client transfer prohibited',
      'client update prohibited',
      'server delete prohibited',
      'server transfer prohibited',
      'server update prohibited',
    ],
    redacted: false,
    registrarRdapUrl: 'https://rdap.markmonitor.com/rdap/domain/GOOGLE.COM',
  },
  'rdap__verisign__themarquetry.com.json': {
    domainName: 'themarquetry.com',
    registrar: 'Hosting Concepts B.V. d/b/a Registrar.eu',
    creationDate: '2021-03-16T17:07:37.000Z',
    updatedDate: null,
    expiryDate: '2022-03-16T17:07:37.000Z',
    nameServers: ['ns1.dns-parking.com', 'ns2.dns-parking.com'],
    abuseEmail: 'abuse@registrar.eu',
    abusePhone: '+31.104482297',
    status: ['client transfer prohibited'],
    redacted: false,
    registrarRdapUrl: 'https://rdap.registrar.eu/v1/domain/THEMARQUETRY.COM',
  },
  // registry (ZDNS .top): non-ASCII registrar name, ".0Z" fractions, a fax number without "tel:"
  'rdap__zdnsgtld__bitcoin.top.json': {
    domainName: 'bitcoin.top',
    registrar: '成都西维数码科技有限公司',
    creationDate: '2014-11-17T16:00:29.000Z',
    updatedDate: '2020-09-14T20:40:57.000Z',
    expiryDate: '2021-11-17T16:00:29.000Z',
    nameServers: ['ns1.72dns.com', 'ns2.idc1.cn'],
    abuseEmail: 'westabuse@gmail.com',
    abusePhone: '02862778877',
    status: ['active'],
    redacted: true,
    registrarRdapUrl: null,
  },
};

describe.skipIf(!dir)('RDAP corpus (shared fixtures)', () => {
  const files = dir
    ? readdirSync(dir)
        .filter((f) => f.startsWith('rdap__') && f.endsWith('.json'))
        .sort()
    : [];

  it('has an expectation for every answer in the corpus', () => {
    expect(files).toEqual(Object.keys(expected).sort());
  });

  it.each(files)('%s', (file) => {
    const json: unknown = JSON.parse(readFileSync(join(dir!, file), 'utf8'));
    expect(parseRdapDomain(json)).toEqual(expected[file]);
  });
});
