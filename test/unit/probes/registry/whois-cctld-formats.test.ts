/**
 * ccTLD formats the shared corpus holds few facts of (issue 10, "WHOIS coverage"): synthetic answers
 * written in each registry's published layout, so a regression in any one shows here and not only in a
 * held-out comparison.
 */
import { describe, expect, it } from 'vitest';
import { parseWhois } from '../../../../src/probes/registry/whois-parse.js';

describe('WHOIS ccTLD formats', () => {
  it('.uy / .ve: name servers listed under "Servidor(es) de Nombres de Dominio:" as "- host" lines', () => {
    const answer = [
      'Servidor Whois de NIC-Uruguay (.UY)',
      '',
      'Titular:',
      '   Universidad de la Republica',
      '',
      '   Nombre de Dominio: example.edu.uy',
      '   Registrado por: Servicio Central de Informática de la Universidad (SeCIU-UdelaR) (http://www.nic.org.uy)',
      '',
      '   Ultima Actualizacion: 2019-03-04 12:13:14',
      '   Fecha de Creacion: 1997-05-06 00:00:00',
      '',
      '   Estatus del dominio: ACTIVO',
      '',
      '   Servidor(es) de Nombres de Dominio:',
      '',
      '   - ns1.example.edu.uy',
      '   - ns2.seciu.edu.uy',
      '',
      'NIC-Uruguay - SeCIU - UdelaR',
    ].join('\n');
    const facts = parseWhois(answer, 'example.edu.uy');
    expect(facts.nameServers).toEqual(['ns1.example.edu.uy', 'ns2.seciu.edu.uy']);
    expect(facts.creationDate).toBe('1997-05-06T00:00:00.000Z');
    expect(facts.updatedDate).toBe('2019-03-04T12:13:14.000Z');
  });

  it('.jp organisational names: the expiry is the date in "[State] Connected (YYYY/MM/DD)"', () => {
    const answer = [
      '[ JPRS database provides information on network administration. ]',
      '',
      'Domain Information: [ドメイン情報]',
      'a. [Domain Name]                 EXAMPLE.CO.JP',
      'g. [Organization]                Example K.K.',
      'p. [Name Server]                 ns1.example.co.jp',
      'p. [Name Server]                 ns2.example.co.jp',
      '[State]                         Connected (2026/05/31)',
      '[Registered Date]               2001/05/15',
      '[Connected Date]                2001/05/15',
      '[Last Update]                   2025/06/01 01:05:07 (JST)',
    ].join('\n');
    const facts = parseWhois(answer, 'example.co.jp');
    expect(facts.expiryDate).toBe('2026-05-31T00:00:00.000Z');
    expect(facts.creationDate).toBe('2001-05-15T00:00:00.000Z');
    expect(facts.updatedDate).toBe('2025-05-31T16:05:07.000Z');
    expect(facts.nameServers).toEqual(['ns1.example.co.jp', 'ns2.example.co.jp']);
  });

  it('.il: the update date is the latest "changed:" line of the domain object, not of its contacts', () => {
    const answer = [
      'domain:       example.co.il',
      'descr:        Example Ltd',
      'nserver:      ns1.example.co.il',
      'nserver:      ns2.example.co.il',
      'validity:     05-06-2027',
      'DNSSEC:       unsigned',
      'status:       Transfer Locked',
      'changed:      registrar AT ns.il 19990605 (Assigned)',
      'changed:      domain-registrar AT isoc.org.il 20070118 (Changed)',
      'changed:      domain-registrar AT isoc.org.il 20181216 (Changed)',
      '',
      'person:       Some One',
      'nic-hdl:      II-SO1-IL',
      'changed:      Managing Registrar 20240329',
    ].join('\n');
    const facts = parseWhois(answer, 'example.co.il');
    expect(facts.updatedDate).toBe('2018-12-16T00:00:00.000Z');
    expect(facts.expiryDate).toBe('2027-06-05T00:00:00.000Z');
  });

  it('.tn: the creation date under ATI\'s misspelt "Acivated" key', () => {
    const answer = [
      'Domain   \t: example.com.tn',
      'Acivated \t: 2013-12-13 22:15:08',
      'Registrar\t: EXAMPLE REGISTRAR',
      '',
      'Owner Created\t: 2013-12-13 20:00:57',
    ].join('\n');
    const facts = parseWhois(answer, 'example.com.tn');
    expect(facts.creationDate).toBe('2013-12-13T22:15:08.000Z');
    expect(facts.registrar).toBe('EXAMPLE REGISTRAR');
  });

  it('.za: ZACR\'s far-future "Registry Expiry Date" of a name that never lapses', () => {
    const answer = [
      'Domain Name: nic.za',
      'Domain ID: dom_1--1',
      'WHOIS Server: za-whois1.dns.net.za',
      '',
      'Updated Date: 2019-07-16T10:14:49Z',
      'Creation Date: 2017-06-15T07:33:10Z',
      'Registry Expiry Date: 2999-12-30T22:00:00Z',
      'Sponsoring Registrar: .ZADNA',
      'Domain Status: ok https://icann.org/epp#ok',
      '',
      'Name Server: ns1.example.net',
    ].join('\n');
    const facts = parseWhois(answer, 'nic.za');
    expect(facts.expiryDate).toBe('2999-12-30T22:00:00.000Z');
    expect(facts.creationDate).toBe('2017-06-15T07:33:10.000Z');
    expect(facts.registrar).toBe('.ZADNA');
  });

  it('.ee: the "changed:" of the Domain block only, never that of the Registrar or Name servers block', () => {
    const answer = (domainChanged: string): string =>
      [
        'Estonia .ee Top Level Domain WHOIS server',
        '',
        'Domain:',
        'name:       example.ee',
        'status:     ok (paid and in zone)',
        'registered: 2010-07-04 04:34:46 +03:00',
        `changed:    ${domainChanged}`,
        'expire:     2030-11-09',
        '',
        'Registrant:',
        'name:       Example OÜ',
        'changed:    2019-10-07 17:50:09 +03:00',
        '',
        'Registrar:',
        'name:       Example Registrar OÜ',
        'url:        http://registrar.example.ee',
        'changed:    2016-01-04 18:23:09 +02:00',
        '',
        'Name servers:',
        'nserver:   ns1.example.ee',
        'changed:   2010-11-10 14:15:06 +02:00',
        '',
        'DNSSEC:',
        'dnskey:   257 3 8 AwEAAQ==',
        'changed:  2015-12-01 00:05:06 +02:00',
      ].join('\n');
    const facts = parseWhois(answer('2019-10-07 17:50:09 +03:00'), 'example.ee');
    expect(facts.updatedDate).toBe('2019-10-07T14:50:09.000Z');
    expect(facts.creationDate).toBe('2010-07-04T01:34:46.000Z');
    expect(facts.registrar).toBe('Example Registrar OÜ');
    // The registry prints the line empty when the domain has no update time: none is known.
    expect(parseWhois(answer(''), 'example.ee').updatedDate).toBeNull();
  });

  it('.lv: the update is the [Domain] "Changed:", else the [Whois] "Updated:" (six-digit fractions)', () => {
    const answer = (domainLines: string[]): string =>
      [
        '[Domain]',
        'Domain: example.lv',
        'Status: active',
        ...domainLines,
        '',
        '[Registrar]',
        'Type: Legal person',
        'Name: Example Registrar SIA',
        '',
        '[Nservers]',
        'Nserver: ns1.example.lv',
        '',
        '[Whois]',
        'Updated: 2024-09-03T17:12:28.647770+00:00',
      ].join('\n');
    const changed = parseWhois(answer(['Changed: 2013-07-08T19:35:53.187695+03:00']), 'example.lv');
    expect(changed.updatedDate).toBe('2013-07-08T16:35:53.187Z');
    expect(changed.registrar).toBe('Example Registrar SIA');
    // today's layout has no "Changed:": the answer's "Updated:" is the record's (issue 32)
    expect(parseWhois(answer([]), 'example.lv').updatedDate).toBe('2024-09-03T17:12:28.647Z');
    // an available name's answer has the footer too: no domain, no date, still not found
    const available = parseWhois(
      ['[Domain]', 'Domain: free.lv', 'Status: free', '', '[Whois]', 'Updated: 2014-02-18 18:12:36.561777'].join('\n'),
      'free.lv',
    );
    expect(available).toMatchObject({ notFound: true, updatedDate: null });
  });

  it('.sl: a paragraph that opens with "Registrar:" and states an expiry holds the domain\'s dates', () => {
    const answer = [
      'Domain Name:             EXAMPLE.SL',
      '',
      'Registrar:               NIC.SL (http://www.nic.sl)',
      'Registration Date:       2008-05-18',
      'Expiration Date:         2031-05-18',
      'Last Updated:            2010-01-02',
    ].join('\n');
    const facts = parseWhois(answer, 'example.sl');
    expect(facts.updatedDate).toBe('2010-01-02T00:00:00.000Z');
    expect(facts.creationDate).toBe('2008-05-18T00:00:00.000Z');
    expect(facts.expiryDate).toBe('2031-05-18T00:00:00.000Z');
  });

  it(".tk: Freenom's not-found wording", () => {
    const facts = parseWhois(
      '\n   Invalid query or domain name not known in Dot TK Domain Registry\n',
      'nothing-here.tk',
    );
    expect(facts.notFound).toBe(true);
  });
});
