/**
 * port-checker: its object types; the check is ./check.ts.
 */
import type { PortCheckerResult } from './run.js';
import { builder } from '../../../graphql/builder.js';

export const PortStatus = builder.enumType('PortStatus', {
  description:
    'open: the TCP handshake completed (nothing is sent, the connection is closed at once). closed: the host refused it (RST). filtered: no answer within the connect bound (5 s), or an ICMP unreachable came back (a firewall in the way).',
  values: ['open', 'closed', 'filtered'] as const,
});

export const PortChecker = builder.objectRef<PortCheckerResult>('PortChecker').implement({
  fields: (t) => ({
    host: t.exposeString('host', {
      description: 'The host as checked: a lower-case hostname or a canonical IP address.',
    }),
    port: t.exposeInt('port'),
    status: t.field({ type: PortStatus, resolve: (r) => r.status }),
    responseTime: t.exposeFloat('responseTime', {
      description: 'Milliseconds until the verdict (for filtered, the time waited).',
    }),
    ip: t.exposeString('ip', {
      description: 'The address tested: the host itself, or its first IPv4 address, else its first IPv6 address.',
    }),
    reason: t.exposeString('reason', {
      nullable: true,
      description: 'Why the port counts as filtered (the time-out, or the ICMP error code); null when open or closed.',
    }),
  }),
});
