/**
 * Mail providers recognised from a domain's MX hosts and SPF includes, and the DKIM selectors
 * each one publishes by default, so that mailhealth-check can probe them beside the configured
 * selectors. Matching is by DNS suffix on label boundaries, case-insensitive.
 *
 * Selectors are those the provider's setup guide creates unless the customer chooses otherwise.
 * Amazon SES "Easy DKIM" names its selectors with random tokens, so SES contributes none.
 */
import { canonicalName } from '../../../net/dns-name.js';

export interface MailProvider {
  name: string;
  /** MX exchange names: a string is a DNS suffix, a RegExp is tested against the whole lower-case name */
  mx: readonly (string | RegExp)[];
  /** SPF include/redirect targets, matched exactly or as a suffix */
  spf: readonly string[];
  selectors: readonly string[];
}

export const MAIL_PROVIDERS: readonly MailProvider[] = [
  {
    name: 'Google Workspace',
    mx: ['aspmx.l.google.com', 'googlemail.com', 'smtp.google.com'],
    spf: ['_spf.google.com'],
    selectors: ['google'],
  },
  {
    name: 'Microsoft 365',
    mx: ['mail.protection.outlook.com', 'mx.microsoft'],
    spf: ['spf.protection.outlook.com'],
    selectors: ['selector1', 'selector2'],
  },
  // Only SES's inbound endpoints: any EC2 host also ends in amazonaws.com.
  { name: 'Amazon SES', mx: [/^inbound-smtp\.[a-z0-9-]+\.amazonaws\.com$/], spf: ['amazonses.com'], selectors: [] },
  { name: 'Mailgun', mx: ['mailgun.org'], spf: ['mailgun.org'], selectors: ['k1', 'mx', 'smtp', 'krs'] },
  { name: 'SendGrid', mx: ['sendgrid.net'], spf: ['sendgrid.net'], selectors: ['s1', 's2'] },
  {
    name: 'Mailchimp / Mandrill',
    mx: ['mandrillapp.com'],
    spf: ['spf.mandrillapp.com', 'servers.mcsv.net'],
    selectors: ['k2', 'k3', 'mandrill'],
  },
  {
    name: 'Zoho Mail',
    mx: ['zoho.com', 'zoho.eu', 'zoho.in', 'zoho.com.au', 'zoho.jp', 'zohomail.com'],
    spf: ['zoho.com', 'zoho.eu', 'zoho.in', 'zoho.com.au', 'zoho.jp', 'zohomail.com'],
    selectors: ['zoho', 'zmail'],
  },
  {
    name: 'Proton Mail',
    mx: ['protonmail.ch'],
    spf: ['_spf.protonmail.ch'],
    selectors: ['protonmail', 'protonmail2', 'protonmail3'],
  },
  { name: 'Fastmail', mx: ['messagingengine.com'], spf: ['spf.messagingengine.com'], selectors: ['fm1', 'fm2', 'fm3'] },
  { name: 'Yandex Mail', mx: ['yandex.net', 'yandex.ru'], spf: ['_spf.yandex.net'], selectors: ['mail'] },
  { name: 'iCloud Mail', mx: ['mail.icloud.com'], spf: ['icloud.com'], selectors: ['sig1'] },
];

export interface DetectedProvider {
  name: string;
  /** what matched: "mx:alt1.aspmx.l.google.com", "spf:_spf.google.com" */
  evidence: string[];
}

export interface ProviderInference {
  providers: DetectedProvider[];
  /** selectors to probe, in provider table order, without repeats */
  selectors: string[];
}

/** The provider of one MX exchange, or null (mx-lookup's `provider`). */
export function providerOfMxHost(exchange: string): string | null {
  const host = normalise(exchange);
  return MAIL_PROVIDERS.find((p) => p.mx.some((m) => matchesMx(host, m)))?.name ?? null;
}

export function inferProviders(mxHosts: readonly string[], spfIncludes: readonly string[]): ProviderInference {
  const providers: DetectedProvider[] = [];
  const selectors: string[] = [];
  for (const provider of MAIL_PROVIDERS) {
    const evidence = [
      ...mxHosts.filter((h) => provider.mx.some((m) => matchesMx(normalise(h), m))).map((h) => `mx:${normalise(h)}`),
      ...spfIncludes
        .filter((d) => provider.spf.some((s) => hasSuffix(normalise(d), s)))
        .map((d) => `spf:${normalise(d)}`),
    ];
    if (evidence.length === 0) continue;
    providers.push({ name: provider.name, evidence: [...new Set(evidence)] });
    for (const selector of provider.selectors) if (!selectors.includes(selector)) selectors.push(selector);
  }
  return { providers, selectors };
}

function normalise(name: string): string {
  return canonicalName(name.trim());
}

function matchesMx(host: string, pattern: string | RegExp): boolean {
  return typeof pattern === 'string' ? hasSuffix(host, pattern) : pattern.test(host);
}

function hasSuffix(name: string, suffix: string): boolean {
  return name === suffix || name.endsWith(`.${suffix}`);
}
