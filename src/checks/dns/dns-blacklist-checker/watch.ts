/**
 * dns-blacklist-checker (docs/contract/api-v1.md): the address and its listings, a list by its zone with
 * the codes it answered (docs/contract/monitors.md "Events": an address that becomes listed is critical).
 * A list that gave no usable answer this run (`error`) is not known: its last answer is kept, so a list's
 * outage is neither a listing nor a delisting.
 */
import { arr, keyed, obj, sortedSet, str, UNKNOWN } from '../../../watch/projection.js';
import { criticalWhenPresent } from '../../../watch/ranking.js';
import { defineWatch } from '../../../watch/watch-spec.js';

export const dnsBlacklistWatch = defineWatch({
  tool: 'dns-blacklist-checker',
  project(data) {
    return { ip: str(data.ip), listings: listingsOf(arr(data.results)) };
  },
  ranked: [{ pattern: 'listings[*]', ranking: criticalWhenPresent }],
  assess(data) {
    const results = arr(data.results);
    const listed = results.filter((r) => obj(r).status === 'listed').map((r) => str(obj(r).name) ?? str(obj(r).zone));
    const ip = str(data.ip) ?? '?';
    return listed.length > 0
      ? {
          status: 'critical',
          grade: null,
          summary: `${ip} is listed on ${listed.length} of ${results.length} lists (${listed.join(', ')}).`,
        }
      : { status: 'ok', grade: null, summary: `${ip} is on none of the ${results.length} lists asked.` };
  },
});

/** `[zone]: codes` for each listing, UNKNOWN for a list that failed; a clean answer is no member. */
function listingsOf(results: readonly unknown[]) {
  return keyed(
    results,
    (r) => (obj(r).status === 'listed' || obj(r).status === 'error' ? str(obj(r).zone) : null),
    (r) => (obj(r).status === 'listed' ? sortedSet(arr(obj(r).codes)) : UNKNOWN),
  );
}
