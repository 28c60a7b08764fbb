/** The asn-lookup check: the Query field asnLookup and GET /api/v1/asn-lookup. */
import { runIpInfo } from '../../checks/ip/run.js';
import { defineCheck } from '../checks.js';
import { IpInfo, parsePublicTarget } from '../types/ip.js';

defineCheck({
  field: 'asnLookup',
  tool: 'asn-lookup',
  family: 'IP',
  type: IpInfo,
  description: `AS, AS name, country and continent of an IP address or of a domain's first A record (REST: asn-lookup). A private or reserved address is an input error: it has no public routing data.`,
  args: (arg) => ({ target: arg.string({ required: true }) }),
  rest: { target: 'required' },
  parse: parsePublicTarget,
  run: (target, checks) => runIpInfo(checks, target),
});
