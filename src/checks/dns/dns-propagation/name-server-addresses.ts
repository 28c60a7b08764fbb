/**
 * Where a check may ask a zone's own name servers: each NS host at its first address that passes the
 * target guard, IPv4 first (many hosts have no IPv6 route). NS records are the caller's data, so every
 * address passes the guard (decisions §7): a domain cannot make us send packets into a private network.
 * A host that cannot be found, or has no address the guard allows, is left out; the others stand in.
 */
import type { HostPort } from '../../../config.js';
import { TargetRefusedError } from '../../../errors.js';
import type { CheckContext } from '../../../loaders/context.js';
import type { ResolvedAddress } from '../../../probes/guard.js';

export type NameServerContext = Pick<CheckContext, 'addresses' | 'guard' | 'ports'>;

/** The hosts' allowed addresses, each once, on the authoritative DNS port, in the hosts' order. */
export async function nameServerAddresses(ctx: NameServerContext, hosts: readonly string[]): Promise<HostPort[]> {
  const picked = await Promise.all(hosts.map((host) => firstAllowedAddress(ctx, host)));
  const addresses = [...new Set(picked.filter((address): address is string => address !== null))];
  return addresses.map((host) => ({ host, port: ctx.ports.dnsAuthoritative }));
}

async function firstAllowedAddress(ctx: NameServerContext, host: string): Promise<string | null> {
  let addresses: ResolvedAddress[];
  try {
    addresses = await ctx.addresses(host);
  } catch {
    return null; // this server cannot be found (or its name is refused); the others stand in
  }
  const ordered = [...addresses.filter((a) => a.family === 4), ...addresses.filter((a) => a.family === 6)];
  for (const { address } of ordered) {
    try {
      ctx.guard.assertAllowed(address, host);
      return address;
    } catch (e) {
      if (!(e instanceof TargetRefusedError)) throw e;
    }
  }
  return null;
}
