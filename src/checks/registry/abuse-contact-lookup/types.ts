/**
 * abuse-contact-lookup: its object types; the check is ./check.ts.
 */
import type { AbuseContactResult } from './run.js';
import { builder } from '../../../graphql/builder.js';
import { RegistrySource, MATCHED_DOMAIN, REGISTRAR } from '../shared/types.js';

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
