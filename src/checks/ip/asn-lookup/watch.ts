/** asn-lookup (docs/contract/api-v1.md): see ../ip-info/ip-facts-watch.ts. */
import { ipFactsWatch } from '../ip-info/ip-facts-watch.js';
import { defineWatch } from '../../../watch/watch-spec.js';

export const asnLookupWatch = defineWatch(ipFactsWatch('asn-lookup'));
