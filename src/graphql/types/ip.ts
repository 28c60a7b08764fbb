/** ip-info, asn-lookup and what-is-my-ip: object types and their query fields. */
import { runIpInfo, assertPublic, type IpInfoResult } from '../../checks/ip/run.js';
import type { IpFacts } from '../../probes/ipdata/facts.js';
import { clientAddress } from '../../platform/client-address.js';
import { parseHostOrIp } from '../../validation.js';
import { builder } from '../builder.js';
import { defineCheck } from '../checks.js';

export const IpDataSourceKind = builder.enumType('IpDataSourceKind', {
  description: 'live: from the IPinfo Lite API; database: from the bundled database or an operator-supplied MMDB.',
  values: ['live', 'database'] as const,
});

/** The facts shared by ip-info, asn-lookup and what-is-my-ip (one GraphQL interface, fields defined once). */
const IpFactsRef = builder.interfaceRef<IpFacts>('IpFacts').implement({
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

const IpInfo = builder.objectRef<IpInfoResult>('IpInfo').implement({
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

const WhatIsMyIp = builder.objectRef<IpFacts>('WhatIsMyIp').implement({
  description: "The caller's public address with its AS and country.",
  interfaces: [IpFactsRef],
  isTypeOf: (v) => typeof v === 'object' && v !== null && !('resolvedFrom' in v),
});

for (const [field, tool] of [
  ['ipInfo', 'ip-info'],
  ['asnLookup', 'asn-lookup'],
] as const) {
  builder.queryField(field, (t) =>
    t.field({
      nullable: true,
      type: IpInfo,
      description: `AS, AS name, country and continent of an IP address or of a domain's first A record (REST: ${tool}). A private or reserved address is an input error: it has no public routing data.`,
      args: { target: t.arg.string({ required: true }) },
      resolve: defineCheck({
        field,
        tool,
        parse: (args: { target: string }) => {
          const target = parseHostOrIp('target', args.target);
          if (target.kind === 'ip') assertPublic(target.ip, null);
          return target;
        },
        run: (target, checks) => runIpInfo(checks, target),
      }),
    }),
  );
}

builder.queryField('whatIsMyIp', (t) =>
  t.field({
    nullable: true,
    type: WhatIsMyIp,
    description: "The caller's public address (as my-ip) with its AS, AS name and country (REST: what-is-my-ip).",
    resolve: defineCheck({
      field: 'whatIsMyIp',
      tool: 'what-is-my-ip',
      parse: (_args: Record<string, never>, ctx) =>
        clientAddress(
          ctx.peerAddress,
          ctx.request.headers.get('x-forwarded-for'),
          ctx.services.config.server.trustedProxies,
        ),
      run: (address, checks) => checks.ipFacts(address.ip),
    }),
  }),
);
