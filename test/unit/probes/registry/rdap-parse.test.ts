import { describe, expect, it } from 'vitest';
import { normalizeRdapDate, parseRdapDomain, RdapFormatError } from '../../../../src/probes/registry/rdap-parse.js';

const card = (...props: unknown[][]) => ['vcard', [['version', {}, 'text', '4.0'], ...props]];

describe('normalizeRdapDate', () => {
  it.each([
    ['1997-09-15T04:00:00Z', '1997-09-15T04:00:00.000Z'],
    ['2004-08-30T22:55:00+00:00', '2004-08-30T22:55:00.000Z'],
    ['2025-03-20T07:00:00.000+0000', '2025-03-20T07:00:00.000Z'],
    ['2014-11-17T16:00:29.0Z', '2014-11-17T16:00:29.000Z'],
    ['2021-04-15T02:43:07.803Z', '2021-04-15T02:43:07.000Z'],
    ['2008-08-18T13:19:55', '2008-08-18T13:19:55.000Z'],
    ['2020-01-01T01:30:00+02:00', '2019-12-31T23:30:00.000Z'],
    ['2020-01-01T00:00:00-0530', '2020-01-01T05:30:00.000Z'],
    ['2020-02-29', '2020-02-29T00:00:00.000Z'],
  ])('%s → %s', (input, expected) => {
    expect(normalizeRdapDate(input)).toBe(expected);
  });

  it.each(['', 'yesterday', '2021-02-30T00:00:00Z', '2021-13-01', '2021-01-01T25:00:00Z', 12345, null])(
    'rejects %j',
    (input) => {
      expect(normalizeRdapDate(input)).toBeNull();
    },
  );
});

describe('parseRdapDomain', () => {
  it('refuses what is not a domain object', () => {
    expect(() => parseRdapDomain(null)).toThrow(RdapFormatError);
    expect(() => parseRdapDomain([])).toThrow(RdapFormatError);
    expect(() => parseRdapDomain({ errorCode: 404, title: 'Not Found' })).toThrow(/error object/);
    expect(() => parseRdapDomain({ objectClassName: 'entity', handle: 'X' })).toThrow(/not a domain/);
    expect(() => parseRdapDomain({ objectClassName: 'domain' })).toThrow(/names no domain/);
  });

  it('gives empty facts for a bare domain object', () => {
    expect(parseRdapDomain({ objectClassName: 'domain', ldhName: 'EXAMPLE.ORG.' })).toEqual({
      domainName: 'example.org',
      registrar: null,
      creationDate: null,
      updatedDate: null,
      expiryDate: null,
      nameServers: [],
      abuseEmail: null,
      abusePhone: null,
      status: [],
      redacted: false,
      registrarRdapUrl: null,
    });
  });

  it('reads the registrar, its nested abuse contact, events and name servers', () => {
    const facts = parseRdapDomain({
      objectClassName: 'domain',
      ldhName: 'example.com',
      status: ['active'],
      entities: [
        { objectClassName: 'entity', roles: ['registrant'], vcardArray: card(['fn', {}, 'text', 'Someone']) },
        {
          objectClassName: 'entity',
          roles: ['Registrar'],
          vcardArray: card(['fn', {}, 'text', ''], ['org', { type: 'work' }, 'text', 'Example Registrar, Inc.']),
          entities: [
            {
              roles: ['abuse'],
              vcardArray: card(
                ['tel', { type: ['fax'] }, 'uri', 'tel:+1.5550000'],
                ['tel', { Type: ['voice'] }, 'uri', 'tel:+1.5551234;ext=9'],
                ['email', {}, 'text', 'mailto:abuse@registrar.example'],
              ),
            },
          ],
        },
      ],
      events: [
        { eventAction: 'last update of RDAP database', eventDate: '2024-01-01T00:00:00Z' },
        { eventAction: 'registration', eventDate: '2001-02-03T04:05:06Z' },
        { eventAction: 'expiration', eventDate: 'not a date' },
        { eventAction: 'last changed', eventDate: '2023-05-06T07:08:09Z' },
      ],
      nameservers: [
        { ldhName: 'NS1.Example.NET.' },
        { ldhName: 'ns1.example.net' },
        { handle: 'no-name' },
        { ldhName: 'ns2.example.net' },
      ],
    });
    expect(facts).toMatchObject({
      registrar: 'Example Registrar, Inc.',
      creationDate: '2001-02-03T04:05:06.000Z',
      updatedDate: '2023-05-06T07:08:09.000Z',
      expiryDate: null,
      nameServers: ['ns1.example.net', 'ns2.example.net'],
      abuseEmail: 'abuse@registrar.example',
      abusePhone: '+1.5551234;ext=9',
      status: ['active'],
      redacted: false,
    });
  });

  it('falls back to a top-level abuse entity and to the registrar handle', () => {
    const facts = parseRdapDomain({
      objectClassName: 'domain',
      ldhName: 'example.cz',
      entities: [
        { roles: ['registrar'], handle: 'REG-EXAMPLE' },
        {
          roles: ['abuse'],
          vcardArray: card(['email', {}, 'text', 'abuse@example.cz'], ['tel', {}, 'text', '+420.123']),
        },
      ],
    });
    expect(facts).toMatchObject({ registrar: 'REG-EXAMPLE', abuseEmail: 'abuse@example.cz', abusePhone: '+420.123' });
  });

  it('sees redaction in RFC 9537 members, remark types and titles, at any depth', () => {
    const base = { objectClassName: 'domain', ldhName: 'example.com' };
    expect(parseRdapDomain({ ...base, redacted: [{ name: { type: 'Registrant Name' } }] }).redacted).toBe(true);
    expect(
      parseRdapDomain({ ...base, remarks: [{ type: 'object truncated due to authorization', description: [] }] })
        .redacted,
    ).toBe(true);
    expect(
      parseRdapDomain({
        ...base,
        entities: [{ roles: ['registrant'], remarks: [{ title: 'REDACTED FOR PRIVACY', description: ['x'] }] }],
      }).redacted,
    ).toBe(true);
    expect(parseRdapDomain({ ...base, notices: [{ title: 'Terms of Use', description: ['x'] }] }).redacted).toBe(false);
  });

  it('finds the registrar RDAP record a thin registry links, and ignores other links', () => {
    const facts = parseRdapDomain({
      objectClassName: 'domain',
      ldhName: 'example.com',
      links: [
        { rel: 'self', href: 'https://rdap.registry.example/domain/example.com', type: 'application/rdap+json' },
        { rel: 'related', href: 'https://www.registrar.example/', type: 'text/html' },
        { rel: 'related', href: 'https://rdap.registrar.example/v1/domain/EXAMPLE.COM', type: 'application/rdap+json' },
      ],
    });
    expect(facts.registrarRdapUrl).toBe('https://rdap.registrar.example/v1/domain/EXAMPLE.COM');
  });
});
