/** The spf-checker check: the Query field spfChecker and GET /api/v1/spf-checker. */
import { runSpfCheck } from './run.js';
import { parseHostname } from '../../../validation.js';
import { defineCheck } from '../../../graphql/check-declaration.js';
import { SpfCheck } from './types.js';
import { spfCheckerWatch } from './watch.js';

defineCheck({
  field: 'spfChecker',
  tool: 'spf-checker',
  watch: spfCheckerWatch,
  family: 'Mail',
  type: SpfCheck,
  description:
    'The SPF record of a domain (RFC 7208), its terms, and its include/redirect tree with the DNS-lookup and void-lookup counts against their limits (REST: spf-checker). The parsed record is returned even when a limit is exceeded.',
  args: (arg) => ({ domain: arg.string({ required: true, description: 'The domain whose SPF record is read.' }) }),
  rest: { domain: 'required' },
  parse: (args: { domain: string }) => parseHostname('domain', args.domain),
  run: runSpfCheck,
});
