/** The ssl-checker check: the Query field sslChecker and GET /api/v1/ssl-checker. */
import { runSslChecker } from './run.js';
import { parseTlsTarget } from '../shared/tls-target.js';
import { defineCheck } from '../../../graphql/check-declaration.js';
import { SslChecker } from './types.js';
import { sslCheckerWatch } from './watch.js';

defineCheck({
  field: 'sslChecker',
  tool: 'ssl-checker',
  watch: sslCheckerWatch,
  family: 'TLS/HTTP',
  type: SslChecker,
  description:
    'The certificate a server presents for `domain` (TLS with SNI, REST: ssl-checker). `domain` is a hostname or an https URL (reduced to its host; an explicit port in the URL is the port tested, else 443). A certificate problem is a status, not an error; a failed handshake is a 502 (504 when it times out). Private and internal addresses are refused.',
  args: (arg) => ({
    domain: arg.string({
      required: true,
      description: 'A hostname, or an https URL (reduced to its host; an explicit port is the port tested).',
    }),
    port: arg.int({
      description:
        "TCP port, 1–65535; default the URL's port, else 443 (e.g. 8443, 993, 995 for TLS on other services). Must agree with a port given in the URL.",
    }),
  }),
  rest: { domain: 'required' },
  parse: parseTlsTarget,
  run: runSslChecker,
});
