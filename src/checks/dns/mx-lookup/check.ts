/** The mx-lookup check: the Query field mxLookup and GET /api/v1/mx-lookup. */
import { runMxLookup } from './run.js';
import { parseHostname } from '../../../validation.js';
import { defineCheck } from '../../../graphql/check-declaration.js';
import { MxLookup } from './types.js';
import { mxLookupWatch } from './watch.js';

defineCheck({
  field: 'mxLookup',
  tool: 'mx-lookup',
  watch: mxLookupWatch,
  family: 'DNS',
  type: MxLookup,
  description: 'MX hosts of a domain with their addresses and recognised providers (REST: mx-lookup).',
  args: (arg) => ({ domain: arg.string({ required: true, description: 'The mail domain.' }) }),
  rest: { domain: 'required' },
  parse: (args: { domain: string }) => parseHostname('domain', args.domain),
  run: runMxLookup,
});
