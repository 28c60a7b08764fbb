/** The dns-propagation check: the Query field dnsPropagation and GET /api/v1/dns-propagation. */
import { parsePropagationType, runDnsPropagation } from './run.js';
import { parseDnsName } from '../../../validation.js';
import { defineCheck } from '../../../graphql/check-declaration.js';
import { DnsPropagation } from './types.js';
import { dnsPropagationWatch } from './watch.js';

defineCheck({
  field: 'dnsPropagation',
  tool: 'dns-propagation',
  watch: dnsPropagationWatch,
  family: 'DNS',
  type: DnsPropagation,
  description:
    'Asks every configured public resolver in parallel for one record type of a name and compares their answers with the authoritative answer (REST: dns-propagation). `type` is one of A, AAAA, MX, TXT, CNAME, NS, SOA (default A). Never served from a cache.',
  args: (arg) => ({
    domain: arg.string({ required: true, description: 'The name to ask about.' }),
    type: arg.string({ description: 'A, AAAA, MX, TXT, CNAME, NS or SOA (default A).' }),
  }),
  rest: { domain: 'required', type: 'optional' },
  parse: (args: { domain: string; type?: string | null }) => ({
    // DNS names, not only hostnames: TXT records live at _dmarc.example.com and similar owner names.
    domain: parseDnsName('domain', args.domain),
    type: parsePropagationType('type', args.type),
  }),
  run: (checks, { domain, type }) => runDnsPropagation(checks, domain, type),
});
