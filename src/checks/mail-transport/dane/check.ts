/** The dane check: the Query field dane and GET /api/v1/dane. */
import { runDane } from './run.js';
import { SMTP_PORT } from '../smtp-starttls/run.js';
import { InputError } from '../../../errors.js';
import { parseHostname } from '../../../validation.js';
import { defineCheck } from '../../../graphql/check-declaration.js';
import { mailhealthPart } from './mailhealth-part.js';
import { optionalPortArgument } from '../smtp-starttls/types.js';
import { Dane } from './types.js';
import { daneWatch } from './watch.js';

defineCheck({
  field: 'dane',
  tool: 'dane',
  watch: daneWatch,
  family: 'Mail transport',
  type: Dane,
  description:
    'The DANE TLSA records of a mail server, their DNSSEC state, and whether they match the certificate chain it presents (REST: dane). The chain comes from STARTTLS on ports 25 and 587, from TLS at once on other ports. Private and internal addresses are refused.',
  args: (arg) => ({
    host: arg.string({ required: true, description: 'The MX host name.' }),
    port: arg.int({ description: 'TCP port, 1–65535; default 25.' }),
  }),
  rest: { host: 'required', port: 'optionalPort' },
  parse: (args: { host: string; port?: number | null }) => {
    const host = parseHostname('host', args.host);
    const port = optionalPortArgument('port', args.port, SMTP_PORT);
    if (`_${port}._tcp.${host}`.length > 253)
      throw new InputError(
        'host',
        `host: _${port}._tcp.${host} would be longer than the 253 characters a DNS name may have`,
      );
    return { host, port };
  },
  run: runDane,
  partOf: [mailhealthPart],
});
