/**
 * dns-propagation (docs/contract/api-v1.md): the status, the expected set, and what each resolver answered
 * (docs/contract/monitors.md "Events": record sets). Response times are left out, and so is a resolver
 * that did not answer this run (its last answer is kept): an unreachable resolver is not a change of the
 * name's records. Where `expected` came from is left out too: it falls back to the majority when the
 * authoritative servers do not answer.
 */
import { arr, bool, keyed, obj, sortedSet, str, UNKNOWN } from '../../../watch/projection.js';
import { goodWhenTrue } from '../../../watch/common.js';
import { ordered } from '../../../watch/ranking.js';
import { defineWatch } from '../../../watch/watch-spec.js';

export const dnsPropagationWatch = defineWatch({
  tool: 'dns-propagation',
  project(data) {
    return {
      type: str(data.type),
      status: str(data.status),
      expected: sortedSet(arr(data.expected)),
      resolvers: keyed(
        arr(data.resolvers),
        (r) => str(obj(r).name),
        (r) =>
          obj(r).error !== null && obj(r).error !== undefined
            ? UNKNOWN
            : { matches: bool(obj(r).matches), records: sortedSet(arr(obj(r).records)) },
      ),
    };
  },
  ranked: [
    { pattern: 'status', ranking: ordered(['propagated', 'partial', 'not-propagated']) },
    { pattern: 'resolvers[*].matches', ranking: goodWhenTrue },
  ],
  assess(data) {
    const status = str(data.status);
    return {
      status: status === 'propagated' ? 'ok' : 'warning',
      grade: null,
      summary: `${str(data.type) ?? 'The'} records of ${str(data.domain) ?? '?'} are ${status ?? 'unknown'} across the resolvers asked.`,
    };
  },
});
