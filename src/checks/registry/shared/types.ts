/** whois and abuse-contact-lookup: object types (the checks themselves are in ../definitions/). */
import { registrationQuery, type AbuseContactResult, type RegistrationQuery, type WhoisResult } from './run.js';
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

export const Whois = builder.objectRef<WhoisResult>('Whois').implement({
  description: 'Registration data of a domain (RDAP first, WHOIS otherwise).',
  fields: (t) => ({
    domain: t.exposeString('domain', { description: 'The name asked about, in A-labels.' }),
    notFound: t.exposeBoolean('notFound', {
      description:
        'The registry says the domain is not registered (RDAP 404, or the registry\'s own "no match" wording). A finding, not an error.',
    }),
    source: t.field({ type: RegistrySource, resolve: (r) => r.source }),
    matchedDomain: t.exposeString('matchedDomain', { description: MATCHED_DOMAIN }),
    registrar: t.exposeString('registrar', { description: REGISTRAR }),
    creationDate: t.exposeString('creationDate', {
      nullable: true,
      description:
        'ISO 8601 UTC timestamp; null when the registry gives no such date (never an invented one). Likewise expiryDate and updatedDate.',
    }),
    expiryDate: t.exposeString('expiryDate', { nullable: true }),
    updatedDate: t.exposeString('updatedDate', { nullable: true }),
    nameServers: t.exposeStringList('nameServers', { description: 'Lower case, without the root dot, de-duplicated.' }),
    daysUntilExpiry: t.exposeInt('daysUntilExpiry', {
      nullable: true,
      description:
        'Whole days from now until expiryDate, rounded down: 0 on the last day, negative once expired; null without expiryDate.',
    }),
    message: t.exposeString('message', {
      nullable: true,
      description:
        "What the data lacks and why: redacted contact data, a registrar server that failed or rate-limited the query (the registry's answer is shown), a fallback from RDAP to WHOIS, an answer cut at 256 KiB. null when there is nothing to say.",
    }),
    raw: t.exposeString('raw', {
      description:
        "The most specific answer: the registrar's WHOIS text (else the registry's), or the RDAP JSON, pretty-printed.",
    }),
    servers: t.exposeStringList('servers', {
      description: 'Every server asked, in order: WHOIS host names and RDAP URLs.',
    }),
    fetchedAt: t.exposeString('fetchedAt', {
      description:
        'When the registry answered (ISO 8601 UTC). Answers are cached for 1 hour (partial ones for 5 minutes), so this may be earlier than the request.',
    }),
  }),
});

export const AbuseContact = builder.objectRef<AbuseContactResult>('AbuseContact').implement({
  description:
    "The sponsoring registrar's abuse contact (ICANN RAA 2013 §3.18): RDAP's abuse entity of the registrar, or WHOIS's Registrar Abuse Contact Email/Phone.",
  fields: (t) => ({
    domain: t.exposeString('domain', { description: 'The name asked about, in A-labels.' }),
    matchedDomain: t.exposeString('matchedDomain', { description: MATCHED_DOMAIN }),
    registrar: t.exposeString('registrar', { description: REGISTRAR }),
    email: t.exposeString('email', { description: 'The abuse mailbox; "" when none is published.' }),
    phone: t.exposeString('phone', { description: 'The abuse telephone number as published; "" when none is.' }),
    found: t.exposeBoolean('found', {
      description:
        'true when an abuse email or phone number is published; false (with `message` saying why) when the domain is not registered or no contact is published.',
    }),
    source: t.field({ type: RegistrySource, resolve: (r) => r.source }),
    message: t.exposeString('message', {
      nullable: true,
      description:
        'Why no contact was found, and what the look-up noted (partial chain, redaction); null when nothing.',
    }),
  }),
});

export const parseDomain = (args: { domain: string }): RegistrationQuery =>
  registrationQuery('domain', parseHostname('domain', args.domain));
