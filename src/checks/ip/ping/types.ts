/** ping: its object types; the check is ./check.ts. */
import type { PingData } from './result.js';
import { builder } from '../../../graphql/builder.js';

export const PingStatus = builder.enumType('PingStatus', {
  description: 'Whether the host answered ICMP echo.',
  values: {
    Online: { description: 'At least one echo reply arrived.' },
    Offline: {
      description: 'No reply arrived within ping.timeoutMs; min, max and average are null. A finding, not an error.',
    },
  } as const,
});

export const Ping = builder.objectRef<PingData>('Ping').implement({
  fields: (t) => ({
    host: t.exposeString('host', {
      description:
        'The host as requested, normalised (lower-case A-label without trailing dot, or the canonical IP text).',
    }),
    ip: t.exposeString('ip', {
      description: 'The address pinged: the first IPv4 address of the host, else its first IPv6 address.',
    }),
    reverseDns: t.exposeString('reverseDns', {
      description:
        'The PTR name of ip without the trailing dot; "" when there is none, or when the lookup failed (see reverseDnsError).',
    }),
    reverseDnsError: t.exposeString('reverseDnsError', {
      nullable: true,
      description:
        'Why the PTR lookup failed (time-out, SERVFAIL, …): a failed lookup does not fail the ping. Null when it answered.',
    }),
    status: t.field({ type: PingStatus, resolve: (r) => r.status }),
    sent: t.exposeInt('sent', { description: 'Echo requests sent (ping.count unless the deadline came first).' }),
    received: t.exposeInt('received', { description: 'Echo replies received (duplicates not counted).' }),
    lost: t.exposeInt('lost', { description: 'sent − received.' }),
    lossPercent: t.exposeFloat('lossPercent', { description: 'Packet loss in percent, as ping computes it.' }),
    min: t.exposeFloat('min', { nullable: true, description: 'Shortest round-trip time, ms; null when Offline.' }),
    max: t.exposeFloat('max', { nullable: true, description: 'Longest round-trip time, ms; null when Offline.' }),
    average: t.exposeFloat('average', { nullable: true, description: 'Mean round-trip time, ms; null when Offline.' }),
    duplicates: t.exposeInt('duplicates', { description: 'Duplicate replies ping counted.' }),
    icmpErrors: t.exposeInt('icmpErrors', {
      description: 'ICMP errors ping counted (e.g. Destination Host Unreachable from a router).',
    }),
    text: t.exposeString('text', { description: 'The ping transcript (iputils, numeric output).' }),
  }),
});
