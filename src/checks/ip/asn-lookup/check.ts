/** The asn-lookup check: the Query field asnLookup and GET /api/v1/asn-lookup. */
import { asnLookupWatch } from './watch.js';
import { defineIpFactsCheck } from '../ip-info/ip-facts-check.js';

defineIpFactsCheck(
  'asnLookup',
  'asn-lookup',
  "The autonomous system that announces an IP address, or a domain's first A record",
  asnLookupWatch,
);
