/**
 * The WHOIS parser on small answers written for these tests, one per layout family
 * (ICANN, IANA, Nominet, DENIC, AFNIC, SIDN, JPRS, registro.br, RIPN, auDA, .it,
 * NASK, IIS, KISA, CNNIC, TWNIC, HKIRC, SWITCH...), plus date renderings, referrals
 * and the not-found / rate-limit wording. Runs without the shared corpus.
 */

import { describe, expect, it } from 'vitest';
import { normaliseWhoisDate, parseWhois } from '../../../../src/probes/registry/whois-parse.js';

/** Joins lines with CRLF, as many WHOIS servers send them. */
function crlf(...lines: string[]): string {
  return lines.join('\r\n');
}

function lf(...lines: string[]): string {
  return lines.join('\n');
}

describe('normaliseWhoisDate', () => {
  it.each([
    ['2020-01-02', '2020-01-02T00:00:00.000Z'],
    ['2020-01-02T03:04:05Z', '2020-01-02T03:04:05.000Z'],
    ['2020-01-02T03:04:05.123456Z', '2020-01-02T03:04:05.123Z'],
    ['2020-01-02T03:04:05.6+00:00', '2020-01-02T03:04:05.600Z'],
    ['2024-09-03T17:12:28.647770+00:00', '2024-09-03T17:12:28.647Z'],
    ['2020-01-02T03:04:05.123456789Z', '2020-01-02T03:04:05.123Z'],
    ['2020-01-02T03:04:05-0700', '2020-01-02T10:04:05.000Z'],
    ['2020-01-02T03:04:05+05:30', '2020-01-01T21:34:05.000Z'],
    ['2020-01-02 03:04:05', '2020-01-02T03:04:05.000Z'],
    ['2020-01-02 03:04:05 +03', '2020-01-02T00:04:05.000Z'],
    ['2020-01-02 03:04:05 UTC', '2020-01-02T03:04:05.000Z'],
    ['2020-01-02 03:04:05 (UTC+8)', '2020-01-01T19:04:05.000Z'],
    ['2013/06/01 01:05:07 (JST)', '2013-05-31T16:05:07.000Z'],
    ['10/11/2009 14:06:58 EAT', '2009-11-10T11:06:58.000Z'],
    ['02-Jan-2020', '2020-01-02T00:00:00.000Z'],
    ['02-JAN-20', '2020-01-02T00:00:00.000Z'],
    ['21-March-2002', '2002-03-21T00:00:00.000Z'],
    ['02.01.2020', '2020-01-02T00:00:00.000Z'],
    ['2.1.2020 8:46:14', '2020-01-02T08:46:14.000Z'],
    ['2020/01/02', '2020-01-02T00:00:00.000Z'],
    ['2020.01.02 13:00:00', '2020-01-02T13:00:00.000Z'],
    ['20200102', '2020-01-02T00:00:00.000Z'],
    ['20200102 #1234567', '2020-01-02T00:00:00.000Z'],
    ['20200102030405', '2020-01-02T03:04:05.000Z'],
    ['Jan 2 2020', '2020-01-02T00:00:00.000Z'],
    ['Thu Jan 02 2020', '2020-01-02T00:00:00.000Z'],
    ['Thu Jan  2 03:04:05 2020', '2020-01-02T03:04:05.000Z'],
    ['Thu Jan 02 03:04:05 GMT 2020', '2020-01-02T03:04:05.000Z'],
    ['Thu, 2 Jan 2020 03:04:05 EST', '2020-01-02T08:04:05.000Z'],
    ['Thursday 2nd January 2020', '2020-01-02T00:00:00.000Z'],
    ['2020. 01. 02.', '2020-01-02T00:00:00.000Z'],
    ['2020年01月02日', '2020-01-02T00:00:00.000Z'],
    ['2020-Jan-02.', '2020-01-02T00:00:00.000Z'],
    ['"2020-01-02T03:04:05+01:00"', '2020-01-02T02:04:05.000Z'],
    ['02/01/2020 hostmaster@example.net', '2020-01-02T00:00:00.000Z'],
    ['2020-01-02 (YYYY-MM-DD)', '2020-01-02T00:00:00.000Z'],
    ['2020-01-02 3:04 PM', '2020-01-02T15:04:00.000Z'],
  ])('reads %j', (value, expected) => {
    expect(normaliseWhoisDate(value)).toBe(expected);
  });

  const notDates = ['', 'before Aug-1996', 'not defined', '2010', 'N/A', '2020-02-30', '2020-13-01', '31/31/2020'];
  it.each([...notDates, '25:00 2020-01-02'])('gives null for %j', (value) => {
    expect(normaliseWhoisDate(value)).toBeNull();
  });

  // An explicit offset is part of the instant: the UTC time is the wall-clock time minus the offset.
  it.each([
    ['2024-01-02T03:04:05+03:00', '2024-01-02T00:04:05.000Z'],
    ['2024-01-02T03:04:05.123456+03:00', '2024-01-02T00:04:05.123Z'],
    ['2024-01-02T03:04:05-0700', '2024-01-02T10:04:05.000Z'],
    ['2024-01-02 03:04:05 +05:30', '2024-01-01T21:34:05.000Z'],
    // an hour of one digit
    ['2024-01-02 03:04:05 +3', '2024-01-02T00:04:05.000Z'],
    ['2024-01-02T03:04:05+3:00', '2024-01-02T00:04:05.000Z'],
    ['2024-01-02 03:04:05.0 -7:00', '2024-01-02T10:04:05.000Z'],
    // the offset after the year or after a date that follows the time
    ['Tue Jan 02 03:04:05 2024 +0300', '2024-01-02T00:04:05.000Z'],
    ['03:04:05 02-Jan-2024 -07:00', '2024-01-02T10:04:05.000Z'],
    // date and time in one run of digits (UANIC, ISO 8601 basic format)
    ['20240102030405+0300', '2024-01-02T00:04:05.000Z'],
    ['20240102T030405+0300', '2024-01-02T00:04:05.000Z'],
    ['20240102T030405Z', '2024-01-02T03:04:05.000Z'],
  ])('keeps the UTC offset of %j', (value, expected) => {
    expect(normaliseWhoisDate(value)).toBe(expected);
  });

  it('reads no offset into the parts of a date without a time', () => {
    expect(normaliseWhoisDate('2024-01-02')).toBe('2024-01-02T00:00:00.000Z');
    expect(normaliseWhoisDate('02-01-2024')).toBe('2024-01-02T00:00:00.000Z');
    expect(normaliseWhoisDate('2024-01-02 -0700')).toBe('2024-01-02T00:00:00.000Z');
  });

  it('reads the far-future expiry registries print for names that never lapse', () => {
    expect(normaliseWhoisDate('2999-12-30T22:00:00Z')).toBe('2999-12-30T22:00:00.000Z');
    expect(normaliseWhoisDate('3000-01-01')).toBe('3000-01-01T00:00:00.000Z');
  });

  it('reads an ambiguous numeric date day first unless told otherwise', () => {
    expect(normaliseWhoisDate('03/02/2012')).toBe('2012-02-03T00:00:00.000Z');
    expect(normaliseWhoisDate('03/02/2012', { dayFirst: false })).toBe('2012-03-02T00:00:00.000Z');
    // A part above 12 settles the order whatever the option says.
    expect(normaliseWhoisDate('12/18/2001')).toBe('2001-12-18T00:00:00.000Z');
    expect(normaliseWhoisDate('18/12/2001', { dayFirst: false })).toBe('2001-12-18T00:00:00.000Z');
  });
});

describe('parseWhois: ICANN key/value answers', () => {
  const registry = crlf(
    '   Domain Name: EXAMPLE.COM',
    '   Registry Domain ID: 1234_DOMAIN_COM-VRSN',
    '   Registrar WHOIS Server: whois.registrar.example.net',
    '   Registrar URL: http://www.registrar.example.net',
    '   Updated Date: 2023-08-14T07:01:38Z',
    '   Creation Date: 1995-08-14T04:00:00Z',
    '   Registry Expiry Date: 2024-08-13T04:00:00Z',
    '   Registrar: Example Registrar, Inc.',
    '   Registrar IANA ID: 9999',
    '   Registrar Abuse Contact Email: abuse@registrar.example.net',
    '   Registrar Abuse Contact Phone: +1.5555550100',
    '   Domain Status: clientTransferProhibited https://icann.org/epp#clientTransferProhibited',
    '   Name Server: NS1.EXAMPLE.NET',
    '   Name Server: NS2.EXAMPLE.NET.',
    '   Name Server: ns1.example.net',
    '   DNSSEC: unsigned',
    '>>> Last update of whois database: 2024-01-01T00:00:00Z <<<',
    '',
    'NOTICE: The expiration date displayed in this record is the date the',
    "registrar's sponsorship of the domain name registration in the registry is",
    'currently set to expire.',
  );

  it('reads the registry facts, name servers cleaned and de-duplicated', () => {
    const facts = parseWhois(registry, 'example.com');
    expect(facts).toEqual({
      notFound: false,
      rateLimited: false,
      registrar: 'Example Registrar, Inc.',
      creationDate: '1995-08-14T04:00:00.000Z',
      updatedDate: '2023-08-14T07:01:38.000Z',
      expiryDate: '2024-08-13T04:00:00.000Z',
      nameServers: ['ns1.example.net', 'ns2.example.net'],
      abuseEmail: 'abuse@registrar.example.net',
      abusePhone: '+1.5555550100',
      referral: { server: 'whois.registrar.example.net' },
      redacted: false,
      domainName: 'example.com',
    });
  });

  it('sees redacted registrant data and reads the registrar answer with offsets', () => {
    const registrar = [
      'Domain Name: example.org',
      'Registrar WHOIS Server: whois.registrar.example.net',
      'Updated Date: 2021-03-04T05:06:07-0700',
      'Creation Date: 2001-02-03T00:00:00-0700',
      'Registrar Registration Expiration Date: 2030-02-03T00:00:00-0700',
      'Registrar: Example Registrar, Inc.',
      'Registrant Name: REDACTED FOR PRIVACY',
      'Registrant Organization: Example Holdings',
      'Admin Email: Select Request Email Form at https://registrar.example.net/whois',
      'Name Server: ns1.example.org',
    ].join('\n');
    const facts = parseWhois(registrar, 'example.org');
    expect(facts.redacted).toBe(true);
    expect(facts.creationDate).toBe('2001-02-03T07:00:00.000Z');
    expect(facts.updatedDate).toBe('2021-03-04T12:06:07.000Z');
    expect(facts.expiryDate).toBe('2030-02-03T07:00:00.000Z');
    expect(facts.nameServers).toEqual(['ns1.example.org']);
  });

  it('takes the record of the queried domain in a multiple-match answer', () => {
    const answer = [
      'Whois Server Version 2.0',
      '',
      '   Server Name: EXAMPLE.COM.SOMEWHERE.EXAMPLE.NET',
      '   IP Address: 192.0.2.7',
      '   Registrar: OTHER REGISTRAR LLC',
      '   Whois Server: whois.other.example',
      '',
      '   Domain Name: EXAMPLE.COM.EXAMPLE.NET',
      '   Registrar: OTHER REGISTRAR LLC',
      '',
      '   Domain Name: EXAMPLE.COM',
      '   Registrar: RIGHT REGISTRAR INC.',
      '   Whois Server: whois.right.example.net',
      '   Name Server: NS1.EXAMPLE.COM',
      '   Updated Date: 10-oct-2006',
      '   Creation Date: 02-may-1991',
      '   Expiration Date: 03-may-2014',
    ].join('\n');
    const facts = parseWhois(answer, 'example.com');
    expect(facts.domainName).toBe('example.com');
    expect(facts.registrar).toBe('RIGHT REGISTRAR INC.');
    expect(facts.referral).toEqual({ server: 'whois.right.example.net' });
    expect(facts.creationDate).toBe('1991-05-02T00:00:00.000Z');
  });
});

describe('parseWhois: referrals', () => {
  it('follows IANA "refer:" for a domain', () => {
    const answer = lf('% IANA WHOIS server', '', 'refer:        whois.nic.example', '', 'domain:       EXAMPLE');
    expect(parseWhois(answer, 'example.example').referral).toEqual({ server: 'whois.nic.example' });
  });

  it('reads IANA "whois:" of a TLD and names the TLD itself', () => {
    const answer = lf(
      'domain:       EXAMPLE',
      '',
      'organisation: Example Registry',
      '',
      'whois:        whois.nic.example',
    );
    const facts = parseWhois(answer, 'example');
    expect(facts.referral).toEqual({ server: 'whois.nic.example' });
    expect(facts.domainName).toBe('example');
  });

  it("takes the registry's block, not IANA's record of the TLD, from a chained answer", () => {
    const iana = [
      '% IANA WHOIS server',
      '% This query returned 1 object',
      '',
      'refer:        whois.nic.example',
      '',
      'domain:       EXAMPLE',
      '',
      'organisation: Example Registry',
      '',
      'nserver:      A.NIC.EXAMPLE 192.0.2.53',
      '',
      'whois:        whois.nic.example',
      '',
      'created:      2015-06-25',
      'changed:      2023-09-12',
      'source:       IANA',
      '',
    ];
    const registry = [
      '# whois.nic.example',
      '',
      'Domain Name: nic.example',
      'Updated Date: 2024-06-11T22:04:34Z',
      'Creation Date: 2015-04-27T22:04:24Z',
      'Registry Expiry Date: 2025-04-27T22:04:24Z',
      'Registrar: Registry Operator acts as Registrar (9999)',
      'Name Server: ns1.example.net',
    ];
    const facts = parseWhois(lf(...iana, ...registry), 'nic.example');
    expect(facts).toMatchObject({
      creationDate: '2015-04-27T22:04:24.000Z',
      updatedDate: '2024-06-11T22:04:34.000Z',
      expiryDate: '2025-04-27T22:04:24.000Z',
      registrar: 'Registry Operator acts as Registrar (9999)',
      nameServers: ['ns1.example.net'],
    });
    // IANA's answer alone (the referral step, or a TLD) is read whole
    const alone = parseWhois(lf(...iana), 'example');
    expect(alone).toMatchObject({
      creationDate: '2015-06-25T00:00:00.000Z',
      referral: { server: 'whois.nic.example' },
    });
  });

  it('keeps a port other than 43 and drops the scheme', () => {
    expect(parseWhois('ReferralServer: rwhois://rwhois.example.net:4321', 'x.example.com').referral).toEqual({
      server: 'rwhois.example.net',
      port: 4321,
    });
    expect(parseWhois('Registrar WHOIS Server: whois://whois.example.net:43/', 'x.example.com').referral).toEqual({
      server: 'whois.example.net',
    });
  });

  it('ignores web addresses and prose where a server belongs', () => {
    expect(parseWhois('Registrar WHOIS Server: https://whois.example.net/lookup', 'a.example.com').referral).toBeNull();
    expect(parseWhois('Whois Server: www.whois.example', 'a.example.com').referral).toBeNull();
    expect(parseWhois('whois: This information is subject to a policy.', 'a.example.com').referral).toBeNull();
  });

  it('does not follow an address literal named as a server', () => {
    expect(parseWhois('Registrar WHOIS Server: 192.0.2.43', 'a.example.com').referral).toBeNull();
    expect(parseWhois('refer: whois://[2001:db8::43]:43', 'a.example.com').referral).toBeNull();
  });
});

describe('parseWhois: ccTLD layouts', () => {
  it('reads Nominet indented blocks, without the tag and the reseller', () => {
    const answer = crlf(
      '',
      '    Domain name:',
      '        example.co.uk',
      '',
      '    Registered through:',
      '        Reseller Ltd',
      '',
      '    Registrar:',
      '        Example Registrar Ltd t/a Example [Tag = EXAMPLE]',
      '        URL: https://registrar.example.net',
      '',
      '    Relevant dates:',
      '        Registered on: 14-Feb-1999',
      '        Expiry date:  14-Feb-2030',
      '        Last updated:  13-Jan-2024',
      '',
      '    Name servers:',
      '        ns1.example.net           192.0.2.1',
      '        ns2.example.net',
      '',
      '    WHOIS lookup made at 10:00:00 01-Feb-2024',
    );
    const facts = parseWhois(answer, 'example.co.uk');
    expect(facts.domainName).toBe('example.co.uk');
    expect(facts.registrar).toBe('Example Registrar Ltd t/a Example');
    expect(facts.creationDate).toBe('1999-02-14T00:00:00.000Z');
    expect(facts.expiryDate).toBe('2030-02-14T00:00:00.000Z');
    expect(facts.updatedDate).toBe('2024-01-13T00:00:00.000Z');
    expect(facts.nameServers).toEqual(['ns1.example.net', 'ns2.example.net']);
  });

  it('reads DENIC and leaves the contact sections\' "Changed:" alone', () => {
    const answer = [
      '% Restricted rights.',
      '',
      'Domain: example.de',
      'Nserver: ns1.example.net.',
      'Nserver: ns2.example.net',
      'Status: connect',
      '',
      '[Tech-C]',
      'Type: ROLE',
      'Name: Hostmaster',
      'Changed: 2009-10-22T23:01:34+02:00',
    ].join('\n');
    const facts = parseWhois(answer, 'example.de');
    expect(facts.nameServers).toEqual(['ns1.example.net', 'ns2.example.net']);
    expect(facts.updatedDate).toBeNull();
    expect(facts.domainName).toBe('example.de');

    const withDomainChange = answer.replace('Status: connect', 'Status: connect\nChanged: 2018-03-12T21:44:25+01:00');
    expect(parseWhois(withDomainChange, 'example.de').updatedDate).toBe('2018-03-12T20:44:25.000Z');
  });

  it('reads AFNIC blocks: the domain block, day-first dates, not the contacts', () => {
    const answer = [
      '%%',
      '%% This is the AFNIC Whois server.',
      '%%',
      '',
      'nic-hdl:     AB123-FRNIC',
      'type:        ORGANIZATION',
      'changed:     20/03/2001 nic@nic.fr',
      'source:      FRNIC',
      '',
      'domain:      example.fr',
      'status:      ACTIVE',
      'registrar:   EXAMPLE REGISTRAR SAS',
      'Expiry Date: 30/12/2030',
      'created:     07/02/2000',
      'source:      FRNIC',
      '',
      'nserver:     ns1.example.net [192.0.2.1 2001:db8::1]',
      'nserver:     ns2.example.net',
      '',
      'registrar:   EXAMPLE REGISTRAR SAS',
      'registered:  10/01/1999',
    ].join('\n');
    const facts = parseWhois(answer, 'example.fr');
    expect(facts.registrar).toBe('EXAMPLE REGISTRAR SAS');
    expect(facts.creationDate).toBe('2000-02-07T00:00:00.000Z');
    expect(facts.expiryDate).toBe('2030-12-30T00:00:00.000Z');
    expect(facts.updatedDate).toBeNull();
    expect(facts.nameServers).toEqual(['ns1.example.net', 'ns2.example.net']);
  });

  it('reads SIDN blocks, including the abuse contact', () => {
    const answer = [
      'Domain name: example.nl',
      'Status:      active',
      '',
      'Registrar:',
      '   Example Hosting B.V.',
      '   Street 1',
      '   1234AB Amsterdam',
      '',
      'Abuse Contact:',
      '   +31.201234567',
      '   abuse@hosting.example.net',
      '',
      'Domain nameservers:',
      '   ns1.example.net',
      '   ns2.example.net',
      '',
      'Creation Date: 1998-02-20',
      '',
      'Updated Date: 2025-09-12',
    ].join('\n');
    const facts = parseWhois(answer, 'example.nl');
    expect(facts.registrar).toBe('Example Hosting B.V.');
    expect(facts.abuseEmail).toBe('abuse@hosting.example.net');
    expect(facts.abusePhone).toBe('+31.201234567');
    expect(facts.nameServers).toEqual(['ns1.example.net', 'ns2.example.net']);
    expect(facts.creationDate).toBe('1998-02-20T00:00:00.000Z');
    expect(facts.updatedDate).toBe('2025-09-12T00:00:00.000Z');
  });

  it('reads JPRS bracket keys, English and Japanese, with JST times', () => {
    const english = [
      '[ JPRS database provides information on network administration. Its use is    ]',
      '',
      'Domain Information:',
      '[Domain Name]                   EXAMPLE.JP',
      '',
      '[Name Server]                   ns1.example.net',
      '[Name Server]                   ns2.example.net',
      '[Signing Key]                   ',
      '',
      '[Created on]                    2005/05/30',
      '[Expires on]                    2030/05/31',
      '[Status]                        Active',
      '[Last Updated]                  2024/06/01 01:05:07 (JST)',
    ].join('\n');
    const facts = parseWhois(english, 'example.jp');
    expect(facts.domainName).toBe('example.jp');
    expect(facts.nameServers).toEqual(['ns1.example.net', 'ns2.example.net']);
    expect(facts.creationDate).toBe('2005-05-30T00:00:00.000Z');
    expect(facts.expiryDate).toBe('2030-05-31T00:00:00.000Z');
    expect(facts.updatedDate).toBe('2024-05-31T16:05:07.000Z');

    const japanese = lf(
      'a. [ドメイン名]                 EXAMPLE.CO.JP',
      'p. [ネームサーバ]              ns1.example.net',
      '[登録年月日]                    2001/02/03',
    );
    const japaneseFacts = parseWhois(japanese, 'example.co.jp');
    expect(japaneseFacts.domainName).toBe('example.co.jp');
    expect(japaneseFacts.nameServers).toEqual(['ns1.example.net']);
    expect(japaneseFacts.creationDate).toBe('2001-02-03T00:00:00.000Z');
  });

  it('reads registro.br: addresses after name servers, dates with trailing notes', () => {
    const answer = [
      '% Copyright (c) Nic.br',
      '',
      'domain:      example.com.br',
      'owner:       Example Ltda',
      'nserver:     a.dns.example.net 192.0.2.53',
      'nsstat:      20240101 AA',
      'nserver:     b.dns.example.net',
      'created:     20000101 #123456',
      'changed:     20230405',
      'expires:     20300101',
    ].join('\n');
    const facts = parseWhois(answer, 'example.com.br');
    expect(facts.nameServers).toEqual(['a.dns.example.net', 'b.dns.example.net']);
    expect(facts.creationDate).toBe('2000-01-01T00:00:00.000Z');
    expect(facts.updatedDate).toBe('2023-04-05T00:00:00.000Z');
    expect(facts.expiryDate).toBe('2030-01-01T00:00:00.000Z');
    expect(facts.registrar).toBeNull();
  });

  it('reads RIPN (.ru) and ignores the database time in "Last updated on"', () => {
    const answer = [
      'domain:        EXAMPLE.RU',
      'nserver:       ns1.example.net.',
      'state:         REGISTERED, DELEGATED, VERIFIED',
      'registrar:     EXAMPLE-RU',
      'created:       2004-03-04T09:00:00Z',
      'paid-till:     2030-03-05T09:00:00Z',
      'free-date:     2030-04-05',
      'source:        TCI',
      '',
      'Last updated on 2024-01-01T10:00:00Z',
    ].join('\n');
    const facts = parseWhois(answer, 'example.ru');
    expect(facts.registrar).toBe('EXAMPLE-RU');
    expect(facts.creationDate).toBe('2004-03-04T09:00:00.000Z');
    expect(facts.expiryDate).toBe('2030-03-05T09:00:00.000Z');
    expect(facts.updatedDate).toBeNull();
    expect(facts.nameServers).toEqual(['ns1.example.net']);
  });

  it('reads auDA without dates', () => {
    const answer = crlf(
      'Domain Name: example.com.au',
      'Last Modified: 2024-04-17T06:00:00Z',
      'Registrar Name: Example Registrar Pty Ltd',
      'Status: serverRenewProhibited',
      'Name Server: ns1.example.net',
    );
    const facts = parseWhois(answer, 'example.com.au');
    expect(facts.registrar).toBe('Example Registrar Pty Ltd');
    expect(facts.creationDate).toBeNull();
    expect(facts.updatedDate).toBe('2024-04-17T06:00:00.000Z');
  });

  it("reads .it headers without colons, not the registrant's organisation", () => {
    const answer = [
      'Domain:             example.it',
      'Status:             ok',
      'Created:            1999-12-10 00:00:00',
      'Last Update:        2024-05-07 00:55:59',
      'Expire Date:        2025-04-21',
      '',
      'Registrant',
      '  Organization:     Example Owner S.p.A.',
      '  Created:          2018-01-01 00:00:00',
      '',
      'Registrar',
      '  Organization:     Example Registrar S.r.l.',
      '  Name:             EXAMPLE-REG',
      '',
      'Nameservers',
      '  ns1.example.net',
      '  ns2.example.net',
    ].join('\n');
    const facts = parseWhois(answer, 'example.it');
    expect(facts.registrar).toBe('Example Registrar S.r.l.');
    expect(facts.creationDate).toBe('1999-12-10T00:00:00.000Z');
    expect(facts.updatedDate).toBe('2024-05-07T00:55:59.000Z');
    expect(facts.expiryDate).toBe('2025-04-21T00:00:00.000Z');
    expect(facts.nameServers).toEqual(['ns1.example.net', 'ns2.example.net']);
  });

  it('reads NASK (.pl): continued name server lines and a flat REGISTRAR block', () => {
    const answer = [
      'DOMAIN NAME:           example.pl',
      'nameservers:           ns1.example.net. ',
      '                       ns2.example.net. ',
      'created:               2002.09.19 13:00:00',
      'last modified:         2023.08.17 11:21:09',
      'renewal date:          2030.09.18 14:00:00',
      '',
      'TECHNICAL CONTACT:',
      'company: Example Tech',
      'last modified: 2010.02.24',
      '',
      'REGISTRAR:',
      'Example Registrar Sp. z o.o.',
      'ul. Example 1',
    ].join('\n');
    const facts = parseWhois(answer, 'example.pl');
    expect(facts.nameServers).toEqual(['ns1.example.net', 'ns2.example.net']);
    expect(facts.registrar).toBe('Example Registrar Sp. z o.o.');
    expect(facts.updatedDate).toBe('2023-08-17T11:21:09.000Z');
    expect(facts.expiryDate).toBe('2030-09-18T14:00:00.000Z');
  });

  it('reads IIS (.se/.nu), where the registrar is named by its web address', () => {
    const answer = [
      '# Copyright (c) 1997- The Swedish Internet Foundation.',
      'state:            active',
      'domain:           example.se',
      'holder:           abcdef1234-00001',
      'created:          2005-01-28',
      'modified:         2023-12-29',
      'expires:          2030-01-28',
      'nserver:          ns1.example.net 192.0.2.1',
      'registrar:        www.registrar.example.net',
    ].join('\n');
    const facts = parseWhois(answer, 'example.se');
    expect(facts.registrar).toBe('www.registrar.example.net');
    expect(facts.updatedDate).toBe('2023-12-29T00:00:00.000Z');
    expect(facts.nameServers).toEqual(['ns1.example.net']);
  });

  it('reads KISA (.kr) Korean keys and "2007. 03. 02." dates', () => {
    const answer = [
      'query : example.kr',
      '',
      '도메인이름                  : example.kr',
      '등록일                      : 2007. 03. 02.',
      '최근 정보 변경일            : 2010. 10. 04.',
      '사용 종료일                 : 2030. 03. 02.',
      '',
      '1차 네임서버 정보',
      '   호스트이름               : ns1.example.net',
      '2차 네임서버 정보',
      '   호스트이름               : ns2.example.net',
    ].join('\n');
    const facts = parseWhois(answer, 'example.kr');
    expect(facts.domainName).toBe('example.kr');
    expect(facts.creationDate).toBe('2007-03-02T00:00:00.000Z');
    expect(facts.updatedDate).toBe('2010-10-04T00:00:00.000Z');
    expect(facts.expiryDate).toBe('2030-03-02T00:00:00.000Z');
    expect(facts.nameServers).toEqual(['ns1.example.net', 'ns2.example.net']);
  });

  it('reads CNNIC (.cn)', () => {
    const answer = [
      'Domain Name: example.cn',
      'ROID: 20030312s10001s00000001-cn',
      'Sponsoring Registrar: 示例网络有限公司',
      'Name Server: ns1.example.net',
      'Registration Time: 2003-03-17 12:20:05',
      'Expiration Time: 2030-03-17 12:48:36',
    ].join('\n');
    const facts = parseWhois(answer, 'example.cn');
    expect(facts.registrar).toBe('示例网络有限公司');
    expect(facts.creationDate).toBe('2003-03-17T12:20:05.000Z');
    expect(facts.expiryDate).toBe('2030-03-17T12:48:36.000Z');
  });

  it('reads TWNIC sentences and the indented server list', () => {
    const answer = [
      'Domain Name: example.tw',
      '   Domain Status: clientTransferProhibited',
      '   Registrant:',
      '      Not displayed due to GDPR',
      '',
      '   Record expires on 2030-05-23 (YYYY-MM-DD)',
      '   Record created on 2008-05-23 (YYYY-MM-DD)',
      '',
      '   Domain servers in listed order:',
      '      ns1.example.net      ',
      '      ns2.example.net      ',
      '',
      'Registration Service Provider: EXAMPLE REGISTRAR',
    ].join('\n');
    const facts = parseWhois(answer, 'example.tw');
    expect(facts.expiryDate).toBe('2030-05-23T00:00:00.000Z');
    expect(facts.creationDate).toBe('2008-05-23T00:00:00.000Z');
    expect(facts.nameServers).toEqual(['ns1.example.net', 'ns2.example.net']);
    expect(facts.registrar).toBe('EXAMPLE REGISTRAR');
    expect(facts.redacted).toBe(true);
  });

  it('reads HKIRC, whose domain dates follow the registrant lines', () => {
    const answer = [
      'Domain Name:  EXAMPLE.HK ',
      'Registrar Name: EXAMPLE REGISTRAR LTD.',
      'Registrant Contact Information:',
      '',
      'Company English Name: Example Ltd',
      'Email: owner@example.hk',
      'Domain Name Commencement Date: 06-04-2004',
      'Expiry Date: 31-03-2030 ',
      '',
      'Name Servers Information:',
      '',
      'NS1.EXAMPLE.NET',
      'NS2.EXAMPLE.NET',
    ].join('\n');
    const facts = parseWhois(answer, 'example.hk');
    expect(facts.registrar).toBe('EXAMPLE REGISTRAR LTD.');
    expect(facts.creationDate).toBe('2004-04-06T00:00:00.000Z');
    expect(facts.expiryDate).toBe('2030-03-31T00:00:00.000Z');
    expect(facts.nameServers).toEqual(['ns1.example.net', 'ns2.example.net']);
  });

  it('reads SWITCH tab-separated keys and a header without colon', () => {
    const answer = [
      'Domain name\texample.ch',
      '',
      'Registrar\tExample Registrar AG',
      'Street 1',
      '',
      'Name servers',
      'ns1.example.net\t192.0.2.1',
      'ns1.example.net\t2001:db8::1',
      'ns2.example.net\t[2001:db8::2]',
      '',
      'First registration date\t31 May 1999',
    ].join('\n');
    const facts = parseWhois(answer, 'example.ch');
    expect(facts.domainName).toBe('example.ch');
    expect(facts.registrar).toBe('Example Registrar AG');
    expect(facts.nameServers).toEqual(['ns1.example.net', 'ns2.example.net']);
    expect(facts.creationDate).toBe('1999-05-31T00:00:00.000Z');
  });

  it('reads Freenom month-first dates once the answer shows the order', () => {
    const answer = [
      '   Domain name:',
      '      EXAMPLE.TK',
      '',
      '   Domain Nameservers:',
      '      NS1.EXAMPLE.NET',
      '',
      '   Domain registered: 12/18/2001',
      '   Record will expire on: 03/02/2030',
    ].join('\n');
    const facts = parseWhois(answer, 'example.tk');
    expect(facts.creationDate).toBe('2001-12-18T00:00:00.000Z');
    expect(facts.expiryDate).toBe('2030-03-02T00:00:00.000Z');
    expect(facts.nameServers).toEqual(['ns1.example.net']);
  });

  it('drops the domain itself from "DNS:" lines and reads zone-file name server records', () => {
    const dk = lf(
      'Domain:               example.dk',
      'DNS:                  example.dk',
      'Registered:           1999-01-10',
      '',
      'Nameservers',
      'Hostname:             ns1.example.net',
    );
    expect(parseWhois(dk, 'example.dk').nameServers).toEqual(['ns1.example.net']);

    const pt = lf(
      'Domain Name: example.pt',
      '',
      'Nameserver Information',
      '   Nameserver: example.pt\tNS\tns1.example.net.',
    );
    expect(parseWhois(pt, 'example.pt').nameServers).toEqual(['ns1.example.net']);
  });

  it("takes a registrar object's organisation line over the handle that opens it (UAEPP .ua)", () => {
    const answer = (registrarNameLines: string[]): string =>
      lf(
        'domain:           example.com.ua',
        'mnt-by:           ua.example',
        'created:          2002-12-04 00:00:00+02',
        'modified:         2013-04-15 20:00:10+03',
        'expires:          2013-12-04 00:00:00+02',
        'source:           UAEPP',
        '',
        '% Registrar:',
        '% ==========',
        'registrar:        ua.example',
        ...registrarNameLines,
        'url:              http://registrar.example.ua',
        'source:           UAEPP',
        '',
        '% Registrant:',
        '% ===========',
        'person:           Some One',
        'organization:     Example Holder LLC',
        'created:          2014-03-31 17:30:46+03',
      );
    const named = parseWhois(
      answer(['organization:     "Example Registrar" Ltd', 'organization-loc: ТОВ "Приклад"']),
      'example.com.ua',
    );
    expect(named.registrar).toBe('"Example Registrar" Ltd');
    expect(named.creationDate).toBe('2002-12-03T22:00:00.000Z');
    // Without an organisation line the handle is all the answer says of the registrar.
    expect(parseWhois(answer([]), 'example.com.ua').registrar).toBe('ua.example');
  });

  it('prefers the Latin-script registrar name where the answer gives it in two scripts (KISA .kr)', () => {
    const answer = lf(
      '# KOREAN(UTF8)',
      '',
      '도메인이름                  : example.kr',
      '등록대행자                  : (주)예시(http://registrar.example.kr)',
      '',
      '# ENGLISH',
      '',
      'Domain Name                 : example.kr',
      'Authorized Agency           : Example Corp.(http://registrar.example.kr)',
    );
    expect(parseWhois(answer, 'example.kr').registrar).toBe('Example Corp.');
    // A name in one script only is reported as it is.
    const koreanOnly = answer.split('# ENGLISH')[0] ?? '';
    expect(parseWhois(koreanOnly, 'example.kr').registrar).toBe('(주)예시');
  });

  it('prefers a registrar name to a registry handle, and keeps the handle when that is all', () => {
    const named = lf(
      'Domain: example.sk',
      'Registrar: EXAM-0001',
      '',
      'Registrar: EXAM-0001',
      'Name: Example Registrar s.r.o.',
    );
    expect(parseWhois(named, 'example.sk').registrar).toBe('Example Registrar s.r.o.');
    expect(parseWhois('domain: example.cr\nregistrar: NIC-REG1\n', 'example.cr').registrar).toBe('NIC-REG1');
  });
});

describe('parseWhois: not found', () => {
  it.each([
    ['No match for "EXAMPLE-FREE.COM".'],
    ['Domain not found.'],
    ['%ERROR:101: no entries found'],
    ['The queried object does not exist: DOMAIN NOT FOUND'],
    ['This domain name has not been registered.'],
    ['Status: free'],
    ['Domain Status: No Object Found'],
    ['query_status: 220 Available'],
    ['example-free.example is available for registration'],
    ['no matching record.'],
    ['No_Se_Encontro_El_Objeto/Object_Not_Found'],
    ['% No entries found for the selected source(s).'],
    ['Above domain name is not registered to KRNIC.'],
    ['Available'],
  ])('recognises %j', (wording) => {
    const facts = parseWhois(`% Example registry WHOIS\n\n${wording}\n\nTerms of use apply.\n`, 'example-free.example');
    expect(facts.notFound).toBe(true);
    expect(facts.rateLimited).toBe(false);
    expect(facts.nameServers).toEqual([]);
  });

  it('does not call a registered answer not found because of wording elsewhere', () => {
    const answer = [
      'Domain Name: example.com',
      'Creation Date: 2000-01-01T00:00:00Z',
      'Name Server: ns1.example.net',
      '',
      'If the domain is not found in our records, contact support.',
    ].join('\n');
    expect(parseWhois(answer, 'example.com').notFound).toBe(false);
  });

  it('does not take terms of use about withheld data for redaction', () => {
    const answer = [
      'Domain not found.',
      '',
      'Terms of Use: Where applicable, the presence of a [Non-Public Data] tag indicates that such data is not made',
      'publicly available. Access to the withheld data may be requested through the registrar.',
    ].join('\n');
    const facts = parseWhois(answer, 'example-free.example');
    expect(facts.notFound).toBe(true);
    expect(facts.redacted).toBe(false);
  });

  it('does not call a premium or reserved name not found', () => {
    expect(parseWhois('Status: PREMIUM NAME (No match for domain "example.sx")', 'example.sx').notFound).toBe(false);
  });
});

describe('parseWhois: rate limits', () => {
  it.each([
    ['WHOIS LIMIT EXCEEDED - SEE WWW.EXAMPLE.ORG/WHOIS FOR DETAILS'],
    ['You have exceeded your quota of queries.'],
    ['The WHOIS query quota for 192.0.2.1 has been exceeded'],
    ['# Too many connections.'],
    ['whois.example.nl: only 1 request per second allowed, try again later'],
    ['% Maximum queries per hour reached (100)'],
    ['% Excessive querying, grace period of 2 seconds'],
    ['-1: Still in grace period, wait 60 seconds'],
    ['Access denied'],
  ])('recognises %j', (wording) => {
    const facts = parseWhois(`${wording}\n`, 'example.com');
    expect(facts.rateLimited).toBe(true);
    expect(facts.notFound).toBe(false);
  });

  it('is a refusal, not a not-found, when the throttled answer also says "no entries"', () => {
    const answer = lf('%%', '%% Too many requests...', '%%', '', '%% No entries found in the Example Database.');
    const facts = parseWhois(answer, 'example.fr');
    expect(facts.rateLimited).toBe(true);
    expect(facts.notFound).toBe(false);
  });

  it('does not take terms of use about query volume for a refusal', () => {
    const answer = [
      'No match for "EXAMPLE-FREE.COM".',
      'Queries to the Whois services are throttled. If too many queries are received from a single IP',
      'address the service will reject further queries. Access may be restricted for excessive querying',
      'of the WHOIS database. (d) make excessive queries.',
    ].join('\n');
    const facts = parseWhois(answer, 'example-free.com');
    expect(facts.rateLimited).toBe(false);
    expect(facts.notFound).toBe(true);
  });
});

describe('parseWhois: robustness', () => {
  it('returns empty facts for an empty answer', () => {
    expect(parseWhois('')).toEqual({
      notFound: false,
      rateLimited: false,
      registrar: null,
      creationDate: null,
      updatedDate: null,
      expiryDate: null,
      nameServers: [],
      abuseEmail: null,
      abusePhone: null,
      referral: null,
      redacted: false,
      domainName: null,
    });
  });

  it('never throws on odd input', () => {
    const odd = [
      '\uFEFF:::\n[\n]]]\n\t\t:\n% \n' + 'x'.repeat(10_000),
      '\u0000\u0001binary\u00ff\ud800 lone surrogate: value',
      'Name Server: 999.999.999.999\nName Server: -.-.-\nName Server: ns1..example..net',
      'Creation Date: 9999-99-99T99:99:99Z\nExpiry Date: 0000-00-00',
      '[a]\n'.repeat(5000),
      'key:\n'.repeat(5000) + ' v\n'.repeat(5000),
    ];
    for (const text of odd) {
      const facts = parseWhois(text, 'example.com');
      expect(facts.creationDate).toBeNull();
      expect(facts.nameServers).toEqual([]);
    }
  });

  it('bounds its work on an oversized answer', () => {
    const line = 'Name Server: ns1.example.net\nRemark: ' + 'lorem ipsum '.repeat(40) + '\n';
    const huge = 'Domain Name: example.com\n' + line.repeat(4000); // about 2 MB
    const started = performance.now();
    const facts = parseWhois(huge, 'example.com');
    expect(performance.now() - started).toBeLessThan(5000);
    expect(facts.nameServers).toEqual(['ns1.example.net']);
  });
});
