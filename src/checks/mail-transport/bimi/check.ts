/** The bimi check: the Query field bimi and GET /api/v1/bimi. */
import { bimiName } from './bimi.js';
import { runBimiCheck } from './run.js';
import { InputError } from '../../../errors.js';
import { parseHostname, parseSelector } from '../../../validation.js';
import { defineCheck } from '../../../graphql/check-declaration.js';
import { mailhealthPart } from './mailhealth-part.js';
import { Bimi } from './types.js';
import { bimiWatch } from './watch.js';

defineCheck({
  field: 'bimi',
  tool: 'bimi',
  watch: bimiWatch,
  family: 'Mail transport',
  type: Bimi,
  description:
    'The BIMI record of a domain (REST: bimi): <selector>._bimi.<domain> (falling back to the organisational domain), the SVG logo fetched through the target guard and checked against the SVG Tiny PS profile, and whether the DMARC policy makes the domain eligible.',
  args: (arg) => ({
    domain: arg.string({ required: true, description: 'The domain whose BIMI record is read.' }),
    selector: arg.string({ description: 'The BIMI selector; default "default".' }),
  }),
  rest: { domain: 'required', selector: 'optional' },
  parse: (args: { domain: string; selector?: string | null }) => {
    const domain = parseHostname('domain', args.domain);
    const selector =
      args.selector == null || args.selector === '' ? 'default' : parseSelector('selector', args.selector);
    if (bimiName(selector, domain).length > 253)
      throw new InputError(
        'domain',
        `domain: ${bimiName(selector, domain)} would be longer than the 253 characters a DNS name may have`,
      );
    return { domain, selector };
  },
  run: (checks, input) => runBimiCheck(checks, input.domain, input.selector),
  partOf: [mailhealthPart],
});
