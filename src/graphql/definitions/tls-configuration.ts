/** The tls-configuration check: the Query field tlsConfiguration and GET /api/v1/tls-configuration. */
import { HTTPS_PORT, runTlsConfiguration } from '../../checks/tls/run.js';
import { InputError } from '../../errors.js';
import { parseDomainOrUrl } from '../../validation.js';
import { defineCheck } from '../checks.js';
import { portArgument, TlsConfiguration } from '../types/tls.js';

defineCheck({
  field: 'tlsConfiguration',
  tool: 'tls-configuration',
  family: 'TLS/HTTP',
  type: TlsConfiguration,
  description:
    'TLS set-up of a domain (REST: tls-configuration): versions supported, negotiated parameters, SNI, certificate, timing, and each IP family, from handshakes run in parallel. `domain` is a hostname or an https URL (reduced to its host; an explicit port in the URL is the port tested). Handshake failures are findings inside the result; private and internal addresses are refused.',
  args: (arg) => ({
    domain: arg.string({ required: true }),
    port: arg.int({
      description: "TCP port, 1–65535; default the URL's port, else 443. Must agree with a port given in the URL.",
    }),
  }),
  rest: { domain: 'required' },
  parse: (args: { domain: string; port?: number | null }) => {
    const { hostname, url } = parseDomainOrUrl('domain', args.domain);
    if (url !== null && url.protocol !== 'https:') {
      throw new InputError(
        'domain',
        `domain: ${url.protocol.slice(0, -1)} URLs are not accepted here; give a hostname or an https:// URL`,
      );
    }
    const urlPort = url !== null && url.port !== '' ? Number(url.port) : null;
    const argPort = args.port == null ? null : portArgument('port', args.port);
    if (urlPort !== null && argPort !== null && urlPort !== argPort) {
      throw new InputError(
        'port',
        `port: ${argPort} differs from the port of the URL in domain (${urlPort}); give one or make them agree`,
      );
    }
    return { domain: hostname, port: argPort ?? urlPort ?? HTTPS_PORT };
  },
  run: (input, checks) => runTlsConfiguration(checks, input),
});
