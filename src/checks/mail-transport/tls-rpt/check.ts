/** The tls-rpt check: the Query field tlsRpt and GET /api/v1/tls-rpt. */
import { runTlsRptCheck } from './run.js';
import { tlsRptName } from './tls-rpt.js';
import { InputError } from '../../../errors.js';
import { parseHostname } from '../../../validation.js';
import { defineCheck } from '../../../graphql/check-declaration.js';
import { mailhealthPart } from './mailhealth-part.js';
import { TlsRptCheck } from './types.js';
import { tlsRptWatch } from './watch.js';

defineCheck({
  field: 'tlsRpt',
  tool: 'tls-rpt',
  watch: tlsRptWatch,
  family: 'Mail transport',
  type: TlsRptCheck,
  description:
    'The SMTP TLS Reporting policy of a domain (RFC 8460): the TXT record at _smtp._tls.<domain> and its report URIs (REST: tls-rpt).',
  args: (arg) => ({ domain: arg.string({ required: true, description: 'The mail domain.' }) }),
  rest: { domain: 'required' },
  parse: (args: { domain: string }) => {
    const domain = parseHostname('domain', args.domain);
    if (tlsRptName(domain).length > 253) {
      throw new InputError(
        'domain',
        `domain: ${tlsRptName(domain)} would be longer than the 253 characters a DNS name may have`,
      );
    }
    return domain;
  },
  run: runTlsRptCheck,
  partOf: [mailhealthPart],
});
