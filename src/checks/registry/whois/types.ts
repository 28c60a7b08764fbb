/**
 * whois: its object types; the check is ./check.ts.
 */
import type { WhoisResult } from './run.js';
import { builder } from '../../../graphql/builder.js';
import { RegistrySource, MATCHED_DOMAIN, REGISTRAR } from '../shared/types.js';

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
