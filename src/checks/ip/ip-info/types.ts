/** ip-info, asn-lookup and what-is-my-ip: object types (the checks themselves are in ../definitions/). */
import { assertPublic, type IpInfoResult } from './run.js';
import { parseHostOrIp, type HostOrIp } from '../../../validation.js';
import type { IpFacts } from '../../../probes/ipdata/facts.js';
import { builder } from '../../../graphql/builder.js';

export const IpDataSourceKind = builder.enumType('IpDataSourceKind', {
  description: 'live: from the IPinfo Lite API; database: from the bundled database or an operator-supplied MMDB.',
  values: ['live', 'database'] as const,
});

/** The facts shared by ip-info, asn-lookup and what-is-my-ip (one GraphQL interface, fields defined once). */
export const IpFactsRef = builder.interfaceRef<IpFacts>('IpFacts').implement({
  description: 'Routing and location facts of a public IP address.',
  fields: (t) => ({
    ip: t.exposeString('ip'),
    source: t.field({ type: IpDataSourceKind, resolve: (f) => f.source }),
    asn: t.exposeString('asn', { description: '"AS<number>", or "" when no AS announces the address.' }),
    asName: t.exposeString('asName'),
    asDomain: t.exposeString('asDomain', {
      description:
        'The AS\'s web domain. Only IPinfo sources carry it (live API or an IPinfo Lite MMDB); "" from the bundled data.',
    }),
    countryCode: t.exposeString('countryCode', { description: 'ISO 3166-1 alpha-2, or "" when unknown.' }),
    country: t.exposeString('country'),
    continentCode: t.exposeString('continentCode'),
    continent: t.exposeString('continent'),
    liveError: t.exposeString('liveError', {
      nullable: true,
      description: 'Why the live provider could not answer, when these facts therefore come from the database.',
    }),
  }),
});

export const IpInfo = builder.objectRef<IpInfoResult>('IpInfo').implement({
  description: 'Routing and location facts of an IP address or of the domain resolved to it.',
  interfaces: [IpFactsRef],
  isTypeOf: (v) => typeof v === 'object' && v !== null && 'resolvedFrom' in v,
  fields: (t) => ({
    resolvedFrom: t.exposeString('resolvedFrom', {
      nullable: true,
      description: 'The domain that was resolved (its first A record), or null when the target was an IP.',
    }),
  }),
});

export const WhatIsMyIp = builder.objectRef<IpFacts>('WhatIsMyIp').implement({
  description: "The caller's public address with its AS and country.",
  interfaces: [IpFactsRef],
  isTypeOf: (v) => typeof v === 'object' && v !== null && !('resolvedFrom' in v),
});

/** The target of ip-info and asn-lookup: a host name, or a public IP address (a private one has no routing data). */
export function parsePublicTarget(args: { target: string }): HostOrIp {
  const target = parseHostOrIp('target', args.target);
  if (target.kind === 'ip') assertPublic(target.ip, null);
  return target;
}
