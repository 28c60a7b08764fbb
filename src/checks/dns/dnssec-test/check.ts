/** The dnssec-test check: the Query field dnssecTest and GET /api/v1/dnssec-test. */
import { runDnssecTest } from './run.js';
import { parseHostname } from '../../../validation.js';
import { defineCheck } from '../../../graphql/check-declaration.js';
import { DnssecTest } from './types.js';
import { dnssecTestWatch } from './watch.js';

defineCheck({
  field: 'dnssecTest',
  tool: 'dnssec-test',
  watch: dnssecTestWatch,
  family: 'DNS',
  type: DnssecTest,
  description:
    'DNSSEC status of a domain as the system resolver validates it: DNSKEY with DO (and again with CD on SERVFAIL), DS at the parent (REST: dnssec-test). Meaningful only when the system resolver validates; otherwise signed zones read insecure.',
  args: (arg) => ({ domain: arg.string({ required: true, description: 'The domain whose DNSSEC status is read.' }) }),
  rest: { domain: 'required' },
  parse: (args: { domain: string }) => parseHostname('domain', args.domain),
  run: runDnssecTest,
});
