/** The what-is-my-ip check: the Query field whatIsMyIp and GET /api/v1/what-is-my-ip. */
import { defineCheck } from '../../../graphql/check-declaration.js';
import { callerAddress } from '../my-ip/types.js';
import { WhatIsMyIp } from '../ip-info/types.js';

defineCheck({
  field: 'whatIsMyIp',
  tool: 'what-is-my-ip',
  family: 'IP',
  type: WhatIsMyIp,
  description: "The caller's public address (as my-ip) with its AS, AS name and country (REST: what-is-my-ip).",
  rest: {},
  parse: callerAddress,
  run: (checks, address) => checks.ipFacts(address.ip),
});
