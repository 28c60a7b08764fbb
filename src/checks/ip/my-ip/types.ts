/** my-ip (api-v1.md rule 1): the caller's public source address, no lookups. */
import { builder } from '../../../graphql/builder.js';
import { callerAddress as callerAddressOf, type CallerAddress } from '../../../graphql/caller-address.js';
import type { RequestContext } from '../../../graphql/context.js';

export const IpVersion = builder.enumType('IpVersion', {
  description: 'IP protocol version of an address.',
  values: ['IPv4', 'IPv6'] as const,
});

export const MyIp = builder.objectRef<CallerAddress>('MyIp').implement({
  description: "The caller's public source address as this service sees it.",
  fields: (t) => ({
    ip: t.exposeString('ip', { description: 'Public source address (IPv4-mapped IPv6 reported as IPv4).' }),
    version: t.field({ type: IpVersion, description: 'IPv4 or IPv6.', resolve: (a) => a.version }),
  }),
});

/** The caller's public address (my-ip, what-is-my-ip): forwarding headers count only from a trusted proxy. */
export function callerAddress(_args: Record<string, never>, ctx: RequestContext): CallerAddress {
  return callerAddressOf(ctx);
}
