/** The dns-blacklist-checker check: the Query field dnsBlacklistChecker and GET /api/v1/dns-blacklist-checker. */
import { parseDnsblHost, runDnsblCheck } from './run.js';
import { defineCheck } from '../../../graphql/check-declaration.js';
import { DnsblCheck } from './types.js';
import { dnsBlacklistWatch } from './watch.js';

defineCheck({
  field: 'dnsBlacklistChecker',
  tool: 'dns-blacklist-checker',
  watch: dnsBlacklistWatch,
  family: 'DNS',
  type: DnsblCheck,
  description:
    "Whether an IPv4 address (or a domain's first IPv4 address) is on the configured DNS block lists, all asked in parallel (RFC 5782) (REST: dns-blacklist-checker). An IPv6 address, or a private or otherwise special-purpose IPv4 address, is refused (400).",
  args: (arg) => ({
    host: arg.string({
      required: true,
      description: 'An IPv4 address, or a domain (its first IPv4 address is checked).',
    }),
  }),
  rest: { host: 'required' },
  parse: (args: { host: string }, ctx) => parseDnsblHost('host', args.host, ctx.services.config.targets.allow),
  run: runDnsblCheck,
});
