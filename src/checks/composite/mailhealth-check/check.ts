/** The mailhealth-check check: the Query field mailhealthCheck and GET /api/v1/mailhealth-check. */
import { runMailHealth } from './run.js';
import { MAIL_PART_BOUND_MS } from './rules.js';
import { parseHostname } from '../../../validation.js';
import { defineCheck } from '../../../graphql/check-declaration.js';
import { MailHealthCheckRef } from './types.js';
import { mailParts } from './parts.js';
import { mailhealthWatch } from './watch.js';

defineCheck({
  field: 'mailhealthCheck',
  tool: 'mailhealth-check',
  watch: mailhealthWatch,
  family: 'Composite',
  composite: true,
  type: MailHealthCheckRef,
  description:
    'MX, SPF, DMARC, DKIM and blacklist checks of a domain, and how mail to it travels (MTA-STS, TLS reporting, STARTTLS and DANE of each MX host) and its BIMI logo, in one request, with a verdict (REST: mailhealth-check; a composite check: 30 s bound). ' +
    `The parts run concurrently and share the single checks' DNS questions, each asked once; a part that fails, or is still running ${MAIL_PART_BOUND_MS / 1000} s after the start, is that check's error and the others still report.`,
  args: (arg) => ({ domain: arg.string({ required: true, description: 'The mail domain.' }) }),
  rest: { domain: 'required' },
  parse: (args: { domain: string }) => parseHostname('domain', args.domain),
  // not runMailHealth itself: its third parameter is its options, not the request context
  run: (checks, domain) => runMailHealth(checks, domain),
  // REST answers a joined part's data as its details (./parts.ts)
  flatten: () => mailParts.flattenMarks(),
});
