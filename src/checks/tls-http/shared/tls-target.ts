/**
 * The target of a TLS check (ssl-checker, tls-configuration): a hostname, or an https URL reduced to its
 * host, whose explicit port is the port tested. A port given beside the URL must agree with it.
 */
import { InputError } from '../../../errors.js';
import { parseDomainOrUrl, parsePort } from '../../../validation.js';

/** api-v1.md rule 7: ssl-checker connects on port 443; so does tls-configuration unless told otherwise. */
export const HTTPS_PORT = 443;

export interface TlsTarget {
  readonly domain: string;
  readonly port: number;
}

export function parseTlsTarget(args: { domain: string; port?: number | null }): TlsTarget {
  const { hostname, url } = parseDomainOrUrl('domain', args.domain);
  if (url !== null && url.protocol !== 'https:') {
    throw new InputError(
      'domain',
      `domain: ${url.protocol.slice(0, -1)} URLs are not accepted here; give a hostname or an https:// URL`,
    );
  }
  const urlPort = url !== null && url.port !== '' ? Number(url.port) : null;
  const argPort = args.port == null ? null : parsePort('port', String(args.port));
  if (urlPort !== null && argPort !== null && urlPort !== argPort) {
    throw new InputError(
      'port',
      `port: ${argPort} differs from the port of the URL in domain (${urlPort}); give one or make them agree`,
    );
  }
  return { domain: hostname, port: argPort ?? urlPort ?? HTTPS_PORT };
}
