/** The mta-sts check: the Query field mtaSts and GET /api/v1/mta-sts. */
import { mtaStsName, policyHost } from './mta-sts.js';
import { runMtaStsCheck } from './run.js';
import { InputError } from '../../../errors.js';
import { parseHostname } from '../../../validation.js';
import { defineCheck } from '../../../graphql/check-declaration.js';
import { mailhealthPart } from './mailhealth-part.js';
import { MtaSts } from './types.js';
import { mtaStsWatch } from './watch.js';

defineCheck({
  field: 'mtaSts',
  tool: 'mta-sts',
  watch: mtaStsWatch,
  family: 'Mail transport',
  type: MtaSts,
  description:
    'The MTA-STS policy of a domain (RFC 8461; REST: mta-sts): the TXT record at _mta-sts.<domain>, the policy fetched from https://mta-sts.<domain>/.well-known/mta-sts.txt through the target guard (redirects not followed, certificate checked, at most 64 KiB), and its mx patterns against the MX hosts. A missing or unusable policy is a status, not an error.',
  args: (arg) => ({ domain: arg.string({ required: true, description: 'The mail domain.' }) }),
  rest: { domain: 'required' },
  parse: (args: { domain: string }) => {
    const domain = parseHostname('domain', args.domain);
    for (const name of [mtaStsName(domain), policyHost(domain)])
      if (name.length > 253)
        throw new InputError('domain', `domain: ${name} would be longer than the 253 characters a DNS name may have`);
    return domain;
  },
  run: runMtaStsCheck,
  partOf: [mailhealthPart],
});
