/** The abuse-contact-lookup check: the Query field abuseContactLookup and GET /api/v1/abuse-contact-lookup. */
import { runAbuseContactLookup } from './run.js';
import { defineCheck } from '../../../graphql/check-declaration.js';
import { parseDomain } from '../shared/types.js';
import { AbuseContact } from './types.js';
import { abuseContactWatch } from './watch.js';

defineCheck({
  field: 'abuseContactLookup',
  tool: 'abuse-contact-lookup',
  watch: abuseContactWatch,
  family: 'Registry',
  type: AbuseContact,
  description:
    "The registrar's abuse email and phone for the registrable domain of a name (REST: abuse-contact-lookup), from the same look-up as whois (shared within a request).",
  args: (arg) => ({
    domain: arg.string({ required: true, description: 'A hostname; its registrable domain is looked up.' }),
  }),
  rest: { domain: 'required' },
  parse: parseDomain,
  run: runAbuseContactLookup,
});
