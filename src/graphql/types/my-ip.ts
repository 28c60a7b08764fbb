/** my-ip (api-v1.md rule 1): the caller's public source address, no lookups. */
import { clientAddress, type ClientAddress } from '../../platform/client-address.js';
import { builder } from '../builder.js';
import type { RequestContext } from '../context.js';

export const IpVersion = builder.enumType('IpVersion', {
  description: 'IP protocol version of an address.',
  values: ['IPv4', 'IPv6'] as const,
});

export const MyIp = builder.objectRef<ClientAddress>('MyIp').implement({
  description: "The caller's public source address as this service sees it.",
  fields: (t) => ({
    ip: t.exposeString('ip', { description: 'Public source address (IPv4-mapped IPv6 reported as IPv4).' }),
    version: t.field({ type: IpVersion, description: 'IPv4 or IPv6.', resolve: (a) => a.version }),
  }),
});

/** The caller's public address (my-ip, what-is-my-ip): forwarding headers count only from a trusted proxy. */
export function callerAddress(_args: Record<string, never>, ctx: RequestContext): ClientAddress {
  return clientAddress(
    ctx.peerAddress,
    ctx.request.headers.get('x-forwarded-for'),
    ctx.services.config.server.trustedProxies,
  );
}
