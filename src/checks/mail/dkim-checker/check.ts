/** The dkim-checker check: the Query field dkimChecker and GET /api/v1/dkim-checker. */
import { runDkimCheck } from './run.js';
import { InputError } from '../../../errors.js';
import { parseHostname, parseSelector } from '../../../validation.js';
import { defineCheck } from '../../../graphql/check-declaration.js';
import { DkimCheck } from './types.js';
import { dkimCheckerWatch } from './watch.js';

defineCheck({
  field: 'dkimChecker',
  tool: 'dkim-checker',
  watch: dkimCheckerWatch,
  family: 'Mail',
  type: DkimCheck,
  description: 'The DKIM key record of a selector at <selector>._domainkey.<domain> (RFC 6376) (REST: dkim-checker).',
  args: (arg) => ({
    domain: arg.string({ required: true, description: 'The domain.' }),
    selector: arg.string({ required: true, description: 'The DKIM selector (DNS labels, dots allowed).' }),
  }),
  rest: { domain: 'required', selector: 'required' },
  parse: (args: { domain: string; selector: string }) => {
    const domain = parseHostname('domain', args.domain);
    const selector = parseSelector('selector', args.selector);
    // RFC 1035 §2.3.4: the name asked must fit in 253 characters.
    const length = selector.length + '._domainkey.'.length + domain.length;
    if (length > 253) {
      throw new InputError(
        'selector',
        `selector: ${selector}._domainkey.${domain} would be ${length} characters long; a DNS name has at most 253`,
      );
    }
    return { domain, selector };
  },
  run: (checks, { domain, selector }) => runDkimCheck(checks, domain, selector),
});
