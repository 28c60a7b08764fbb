/**
 * The public resolvers of api-v1.md: dns-lookup's `resolver` choices and the resolvers dns-propagation asks
 * (`dns.publicResolvers`, docs/configuration.md).
 */
export const DEFAULT_PUBLIC_RESOLVERS = [
  { name: 'Google', ip: '8.8.8.8', countryCode: 'US' },
  { name: 'Cloudflare', ip: '1.1.1.1', countryCode: 'US' },
  { name: 'Quad9', ip: '9.9.9.9', countryCode: 'CH' },
  { name: 'OpenDNS', ip: '208.67.222.222', countryCode: 'US' },
  { name: 'Verisign', ip: '64.6.64.6', countryCode: 'US' },
  { name: 'AdGuard', ip: '94.140.14.14', countryCode: 'CY' },
  { name: 'AliDNS', ip: '223.5.5.5', countryCode: 'CN' },
  { name: 'Level3', ip: '4.2.2.1', countryCode: 'US' },
] as const;
