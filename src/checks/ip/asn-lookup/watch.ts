/** asn-lookup (docs/contract/api-v1.md): see ./ip-facts.ts. */
import { ipFactsWatch } from './ip-facts.js';
import { defineWatch } from './watch-spec.js';

export const asnLookupWatch = defineWatch(ipFactsWatch('asn-lookup'));
