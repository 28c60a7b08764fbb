/** The whois check: the Query field whois and GET /api/v1/whois. */
import { runWhois } from './run.js';
import { defineCheck } from '../../../graphql/check-declaration.js';
import { parseDomain } from '../shared/types.js';
import { Whois } from './types.js';
import { whoisWatch } from './watch.js';

defineCheck({
  field: 'whois',
  tool: 'whois',
  watch: whoisWatch,
  family: 'Registry',
  type: Whois,
  description:
    'Registration data of the registrable domain of a name (REST: whois): RDAP first, WHOIS with referrals otherwise. A public suffix ("co.uk") is an input error.',
  args: (arg) => ({
    domain: arg.string({
      required: true,
      description: 'A hostname or IDN; its registrable domain is looked up (a bare public suffix is refused).',
    }),
  }),
  rest: { domain: 'required' },
  parse: parseDomain,
  run: runWhois,
});
