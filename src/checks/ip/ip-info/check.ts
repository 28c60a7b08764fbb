/** The ip-info check: the Query field ipInfo and GET /api/v1/ip-info. */
import { ipInfoWatch } from './watch.js';
import { defineIpFactsCheck } from './ip-facts-check.js';

defineIpFactsCheck(
  'ipInfo',
  'ip-info',
  "Where an IP address, or a domain's first A record, is on the internet: its network and country",
  ipInfoWatch,
);
