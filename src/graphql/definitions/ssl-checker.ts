/** The ssl-checker check: the Query field sslChecker and GET /api/v1/ssl-checker. */
import { HTTPS_PORT, runSslChecker } from '../../checks/tls/run.js';
import { parseHostname } from '../../validation.js';
import { defineCheck } from '../checks.js';
import { portArgument, SslChecker } from '../types/tls.js';

defineCheck({
  field: 'sslChecker',
  tool: 'ssl-checker',
  family: 'TLS/HTTP',
  type: SslChecker,
  description:
    'The certificate a server presents for `domain` (TLS with SNI, REST: ssl-checker, port 443). A certificate problem is a status, not an error; a failed handshake is a 502 (504 when it times out). Private and internal addresses are refused.',
  args: (arg) => ({
    domain: arg.string({ required: true }),
    port: arg.int({
      description: 'TCP port, 1–65535; default 443 (e.g. 8443, 993, 995 for TLS on other services).',
    }),
  }),
  rest: { domain: 'required' },
  parse: (args: { domain: string; port?: number | null }) => ({
    domain: parseHostname('domain', args.domain),
    port: args.port == null ? HTTPS_PORT : portArgument('port', args.port),
  }),
  run: (input, checks) => runSslChecker(checks, input),
});
