/** The dns-lookup check: the Query field dnsLookup and GET /api/v1/dns-lookup. */
import { runDnsLookup } from './run.js';
import { parseHostname } from '../../../validation.js';
import { defineCheck } from '../../../graphql/check-declaration.js';
import { DnsLookup } from './types.js';
import { dnsLookupWatch } from './watch.js';

defineCheck({
  field: 'dnsLookup',
  tool: 'dns-lookup',
  watch: dnsLookupWatch,
  family: 'DNS',
  type: DnsLookup,
  description:
    'A, AAAA, MX, TXT, CNAME, NS and SOA of a name, asked in parallel (REST: dns-lookup). `resolver` is one of the public resolvers\' IPs or "system" (default); an unknown value falls back to system and `resolver.note` says so.',
  args: (arg) => ({
    domain: arg.string({ required: true, description: 'The name to look up.' }),
    resolver: arg.string({ description: 'A public resolver\'s IP (dns.publicResolvers), or "system" (the default).' }),
  }),
  rest: { domain: 'required', resolver: 'optional' },
  parse: (args: { domain: string; resolver?: string | null }) => ({
    domain: parseHostname('domain', args.domain),
    resolver: args.resolver?.trim() || null,
  }),
  run: (checks, { domain, resolver }) => runDnsLookup(checks, domain, resolver),
});
