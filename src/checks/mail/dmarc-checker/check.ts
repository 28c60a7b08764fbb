/** The dmarc-checker check: the Query field dmarcChecker and GET /api/v1/dmarc-checker. */
import { runDmarcCheck } from './run.js';
import { InputError } from '../../../errors.js';
import { parseHostname } from '../../../validation.js';
import { defineCheck } from '../../../graphql/check-declaration.js';
import { DmarcCheck } from './types.js';
import { dmarcCheckerWatch } from './watch.js';

defineCheck({
  field: 'dmarcChecker',
  tool: 'dmarc-checker',
  watch: dmarcCheckerWatch,
  family: 'Mail',
  type: DmarcCheck,
  description:
    'The DMARC policy of a domain (RFC 7489): the record at _dmarc.<domain>, else at the organisational domain, with its tags parsed (REST: dmarc-checker).',
  args: (arg) => ({ domain: arg.string({ required: true, description: 'The domain whose DMARC policy is read.' }) }),
  rest: { domain: 'required' },
  parse: (args: { domain: string }) => {
    const domain = parseHostname('domain', args.domain);
    if (domain.length + '_dmarc.'.length > 253) {
      throw new InputError(
        'domain',
        `domain: _dmarc.${domain} would be longer than the 253 characters a DNS name may have`,
      );
    }
    return domain;
  },
  run: runDmarcCheck,
});
