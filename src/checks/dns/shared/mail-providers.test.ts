import { describe, expect, it } from 'vitest';
import { inferProviders, providerOfMxHost } from './mail-providers.js';

describe('providerOfMxHost', () => {
  it.each([
    ['aspmx.l.google.com', 'Google Workspace'],
    ['ALT1.ASPMX.L.GOOGLE.COM.', 'Google Workspace'],
    ['aspmx2.googlemail.com', 'Google Workspace'],
    ['smtp.google.com', 'Google Workspace'],
    ['example-com.mail.protection.outlook.com', 'Microsoft 365'],
    ['example-com.l-v1.mx.microsoft', 'Microsoft 365'],
    ['inbound-smtp.eu-west-1.amazonaws.com', 'Amazon SES'],
    ['mxa.mailgun.org', 'Mailgun'],
    ['mx.zoho.eu', 'Zoho Mail'],
    ['mail.protonmail.ch', 'Proton Mail'],
    ['in1-smtp.messagingengine.com', 'Fastmail'],
    ['mx.yandex.net', 'Yandex Mail'],
    ['mx01.mail.icloud.com', 'iCloud Mail'],
    ['mail.example.com', null],
    ['ec2-192-0-2-1.compute-1.amazonaws.com', null],
    ['notgoogle.com', null],
    ['google.com.evil.example', null],
  ])('%s → %s', (host, provider) => {
    expect(providerOfMxHost(host)).toBe(provider);
  });
});

describe('inferProviders', () => {
  it('combines MX and SPF evidence and lists selectors once, in table order', () => {
    const result = inferProviders(
      ['aspmx.l.google.com', 'alt1.aspmx.l.google.com'],
      ['_spf.google.com', 'sendgrid.net', 'spf.protection.outlook.com', 'mailgun.org'],
    );
    expect(result.providers.map((p) => p.name)).toEqual(['Google Workspace', 'Microsoft 365', 'Mailgun', 'SendGrid']);
    expect(result.providers[0]?.evidence).toEqual([
      'mx:aspmx.l.google.com',
      'mx:alt1.aspmx.l.google.com',
      'spf:_spf.google.com',
    ]);
    expect(result.selectors).toEqual(['google', 'selector1', 'selector2', 'k1', 'mx', 'smtp', 'krs', 's1', 's2']);
  });

  it('knows the selectors of every provider named in the brief', () => {
    const spf = [
      'spf.mandrillapp.com',
      'zoho.com',
      '_spf.protonmail.ch',
      'spf.messagingengine.com',
      '_spf.yandex.net',
      'icloud.com',
      'amazonses.com',
    ];
    const result = inferProviders([], spf);
    expect(result.providers.map((p) => p.name)).toEqual([
      'Amazon SES',
      'Mailchimp / Mandrill',
      'Zoho Mail',
      'Proton Mail',
      'Fastmail',
      'Yandex Mail',
      'iCloud Mail',
    ]);
    expect(result.selectors).toEqual([
      'k2',
      'k3',
      'mandrill',
      'zoho',
      'zmail',
      'protonmail',
      'protonmail2',
      'protonmail3',
      'fm1',
      'fm2',
      'fm3',
      'mail',
      'sig1',
    ]);
  });

  it('finds nothing for a self-hosted domain', () => {
    expect(inferProviders(['mx.example.org'], ['_spf.example.org'])).toEqual({ providers: [], selectors: [] });
  });
});
