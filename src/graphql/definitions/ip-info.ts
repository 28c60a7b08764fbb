/** The ip-info check: the Query field ipInfo and GET /api/v1/ip-info. */
import { runIpInfo } from '../../checks/ip/run.js';
import { defineCheck } from '../checks.js';
import { IpInfo, parsePublicTarget } from '../types/ip.js';

defineCheck({
  field: 'ipInfo',
  tool: 'ip-info',
  family: 'IP',
  type: IpInfo,
  description: `AS, AS name, country and continent of an IP address or of a domain's first A record (REST: ip-info). A private or reserved address is an input error: it has no public routing data.`,
  args: (arg) => ({ target: arg.string({ required: true }) }),
  rest: { target: 'required' },
  parse: parsePublicTarget,
  run: (target, checks) => runIpInfo(checks, target),
});
