/** The dnssec-chain check: the Query field dnssecChain and GET /api/v1/dnssec-chain (docs/contract/dnssec-chain.md). */
import { CHAIN_RECORD_TYPES, runDnssecChain, type ChainRecordType } from './run.js';
import { InputError } from '../../../errors.js';
import { parseHostname } from '../../../validation.js';
import { defineCheck } from '../../../graphql/check-declaration.js';
import { DnssecChain } from './types.js';
import { dnssecChainWatch } from './watch.js';

function parseRecordType(type: string | null | undefined): ChainRecordType {
  const wanted = (type ?? '').trim().toUpperCase() || 'A';
  if (!(CHAIN_RECORD_TYPES as readonly string[]).includes(wanted)) {
    throw new InputError('type', `type: expected one of ${CHAIN_RECORD_TYPES.join(', ')}`);
  }
  return wanted as ChainRecordType;
}

defineCheck({
  field: 'dnssecChain',
  tool: 'dnssec-chain',
  watch: dnssecChainWatch,
  family: 'DNS',
  price: 5,
  type: DnssecChain,
  description:
    'The DNSSEC chain of trust of a name, link by link, verified by netdiag itself (REST: dnssec-chain): DS and DNSKEY of every zone cut from the trust anchor down, every RRSIG, DS digest and NSEC/NSEC3 denial, asked with DO and CD (config dnssec.source). `brokenLink` names the first link that fails and why. `type` (default A): A AAAA MX TXT NS SOA CNAME DS DNSKEY TLSA.',
  args: (arg) => ({ domain: arg.string({ required: true }), type: arg.string() }),
  rest: { domain: 'required', type: 'optional' },
  parse: (args: { domain: string; type?: string | null }) => ({
    domain: parseHostname('domain', args.domain),
    type: parseRecordType(args.type),
  }),
  run: (checks, { domain, type }) => runDnssecChain(checks, domain, type),
});
