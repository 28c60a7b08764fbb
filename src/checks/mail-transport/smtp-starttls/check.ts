/** The smtp-starttls check: the Query field smtpStarttls and GET /api/v1/smtp-starttls. */
import { SMTP_PORT, runSmtpStarttls } from './run.js';
import { parseHostOrIp } from '../../../validation.js';
import { defineCheck } from '../../../graphql/check-declaration.js';
import { mailhealthPart } from './mailhealth-part.js';
import { optionalPortArgument, SmtpStarttls } from './types.js';
import { smtpStarttlsWatch } from './watch.js';

defineCheck({
  field: 'smtpStarttls',
  tool: 'smtp-starttls',
  watch: smtpStarttlsWatch,
  family: 'Mail transport',
  type: SmtpStarttls,
  description:
    'Whether a mail server offers STARTTLS and with what certificate (REST: smtp-starttls). Connects to the first address of the host (port 25 unless told otherwise), reads the greeting, sends EHLO and STARTTLS, completes a TLS handshake with SNI = host, and closes: no mail is sent. Every outcome is a result (status); private and internal addresses are refused.',
  args: (arg) => ({
    host: arg.string({ required: true, description: 'MX host name or IP address.' }),
    port: arg.int({ description: 'TCP port, 1–65535; default 25 (587 for submission).' }),
  }),
  rest: { host: 'required', port: 'optionalPort' },
  parse: (args: { host: string; port?: number | null }) => ({
    host: parseHostOrIp('host', args.host),
    port: optionalPortArgument('port', args.port, SMTP_PORT),
  }),
  run: runSmtpStarttls,
  partOf: [mailhealthPart],
});
