/**
 * Which address and which handshake a check of one connection uses: ssl-checker, tls-configuration,
 * port-checker, tls-rating, and the MX checks (smtp-starttls, dane) pick their address here, so that
 * questions asked by several checks of one request are one.
 */
import type { ResolvedAddress } from '../../../probes/guard.js';
import type { TlsQuestion } from '../../../loaders/connections.js';

/**
 * ALPN offered by the main handshake, as a browser does: "h2" first, so that
 * `negotiated.http2` says whether the server would speak HTTP/2 (RFC 7301, RFC 9113 §3.2).
 * ssl-checker offers the same, so that its handshake and tls-configuration's are one
 * question when an operation asks both.
 */
export const MAIN_HANDSHAKE_ALPN: readonly string[] = ['h2', 'http/1.1'];

/** One address per family the target has, IPv4 first; each the first of its family in resolution order. */
export function firstAddressPerFamily(addresses: readonly ResolvedAddress[]): ResolvedAddress[] {
  return ([4, 6] as const).flatMap((family) => addresses.find((a) => a.family === family) ?? []);
}

/** The address a single-connection check uses: the first IPv4 address, else the first IPv6 one. */
export function preferredAddress(addresses: readonly ResolvedAddress[]): string {
  const first = firstAddressPerFamily(addresses)[0];
  // The guard never returns an empty list (a name without addresses is its InputError).
  if (first === undefined) throw new RangeError('the target guard returned no address');
  return first.address;
}

export function mainHandshake(domain: string, ip: string, port: number): TlsQuestion {
  return { ip, port, servername: domain, alpn: MAIN_HANDSHAKE_ALPN, target: domain };
}
