/**
 * The dispatcher the RDAP client connects through. RDAP base URLs come from the IANA bootstrap, but
 * a registry's answer links to the registrar's RDAP server and servers redirect: text from upstream
 * decides where we connect. So every address an RDAP host name resolves to is checked against the
 * special-purpose ranges (decisions §7, `targets.allow` exempts) before the socket opens — the same
 * rule as caller targets, so a registry cannot point the service at a private network or a cloud
 * metadata address. IP-literal hosts never reach a lookup (undici skips it), so the client checks
 * those itself with `assertAllowed`.
 */
import dns from 'node:dns';
import type { LookupFunction } from 'node:net';
import { Agent } from 'undici';

export function createGuardedRdapDispatcher(assertAllowed: (address: string, target: string) => void): Agent {
  const lookup: LookupFunction = (hostname, options, callback) => {
    dns.lookup(hostname, { all: true, family: options.family ?? 0 }, (error, addresses) => {
      if (error) return callback(error, '', 0);
      try {
        for (const a of addresses) assertAllowed(a.address, hostname);
      } catch (refused) {
        return callback(refused as NodeJS.ErrnoException, '', 0);
      }
      if ((options as { all?: boolean }).all)
        return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, addresses);
      const first = addresses[0];
      if (!first) return callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), '', 0);
      callback(null, first.address, first.family);
    });
  };
  return new Agent({ connect: { lookup } });
}
