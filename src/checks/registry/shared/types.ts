/**
 * whois and abuse-contact-lookup: what their object types share, and the parser of their `domain`.
 */
import { registrationQuery, type RegistrationQuery } from './registration-query.js';
import { parseHostname } from '../../../validation.js';
import { builder } from '../../../graphql/builder.js';

export const RegistrySource = builder.enumType('RegistrySource', {
  description:
    'Where the registration data comes from. RDAP (RFC 9083) when the IANA bootstrap names an RDAP service for the TLD and it answered; WHOIS (RFC 3912, following refer: and Registrar WHOIS Server: referrals, at most 3 servers) otherwise, and when RDAP failed (then `message` says why).',
  values: ['RDAP', 'WHOIS'] as const,
});

export const MATCHED_DOMAIN =
  'The registrable domain the registries were asked about (www.example.co.uk → example.co.uk).';
export const REGISTRAR = 'The sponsoring registrar\'s name; "" when the answer names none.';

export const parseDomain = (args: { domain: string }): RegistrationQuery =>
  registrationQuery('domain', parseHostname('domain', args.domain));
