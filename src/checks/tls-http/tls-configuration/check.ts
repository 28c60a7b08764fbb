/** The tls-configuration check: the Query field tlsConfiguration and GET /api/v1/tls-configuration. */
import { runTlsConfiguration } from './run.js';
import { parseTlsTarget } from '../shared/tls-target.js';
import { defineCheck } from '../../../graphql/check-declaration.js';
import { TlsConfiguration } from './types.js';
import { tlsConfigurationWatch } from './watch.js';

defineCheck({
  field: 'tlsConfiguration',
  tool: 'tls-configuration',
  watch: tlsConfigurationWatch,
  family: 'TLS/HTTP',
  price: 4,
  type: TlsConfiguration,
  description:
    'TLS set-up of a domain (REST: tls-configuration): versions supported, negotiated parameters, SNI, certificate, timing, and each IP family, from handshakes run in parallel. `domain` is a hostname or an https URL (reduced to its host; an explicit port in the URL is the port tested). Handshake failures are findings inside the result; private and internal addresses are refused.',
  args: (arg) => ({
    domain: arg.string({
      required: true,
      description: 'A hostname, or an https URL (reduced to its host; an explicit port is the port tested).',
    }),
    port: arg.int({
      description: "TCP port, 1–65535; default the URL's port, else 443. Must agree with a port given in the URL.",
    }),
  }),
  rest: { domain: 'required' },
  parse: parseTlsTarget,
  run: runTlsConfiguration,
});
