/** ip-info (docs/contract/api-v1.md): see ./ip-facts-watch.ts. */
import { ipFactsWatch } from './ip-facts-watch.js';
import { defineWatch } from '../../../watch/watch-spec.js';

export const ipInfoWatch = defineWatch(ipFactsWatch('ip-info'));
