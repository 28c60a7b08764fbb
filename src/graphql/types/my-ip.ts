/** my-ip (api-v1.md rule 1): the caller's public source address, no lookups. */
import { clientAddress, type ClientAddress } from '../../platform/client-address.js';
import { builder } from '../builder.js';
import { defineCheck } from '../checks.js';

export const IpVersion = builder.enumType('IpVersion', {
  description: 'IP protocol version of an address.',
  values: ['IPv4', 'IPv6'] as const,
});

const MyIp = builder.objectRef<ClientAddress>('MyIp').implement({
  description: "The caller's public source address as this service sees it.",
  fields: (t) => ({
    ip: t.exposeString('ip', { description: 'Public source address (IPv4-mapped IPv6 reported as IPv4).' }),
    version: t.field({ type: IpVersion, description: 'IPv4 or IPv6.', resolve: (a) => a.version }),
  }),
});

builder.queryField('myIp', (t) =>
  t.field({
    nullable: true,
    type: MyIp,
    description:
      'The public source address of this connection (REST: my-ip). Forwarding headers are ignored unless the peer is a trusted front-end proxy (server.trustedProxies). A missing, malformed or private address is an input error.',
    resolve: defineCheck({
      field: 'myIp',
      tool: 'my-ip',
      parse: (_args: Record<string, never>, ctx) =>
        clientAddress(
          ctx.peerAddress,
          ctx.request.headers.get('x-forwarded-for'),
          ctx.services.config.server.trustedProxies,
        ),
      run: (address) => address,
    }),
  }),
);
