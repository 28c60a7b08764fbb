/**
 * mx-lookup (docs/contract/api-v1.md): the MX set, each host by its name with its priority and addresses
 * (docs/contract/monitors.md "Events": record sets), and whether the domain exists or refuses mail.
 */
import { arr, bool, keyed, num, obj, sortedSet, str } from '../../../watch/projection.js';
import { levels } from '../../../watch/ranking.js';
import { defineWatch } from '../../../watch/watch-spec.js';

export const mxLookupWatch = defineWatch({
  tool: 'mx-lookup',
  project(data) {
    return {
      rcode: str(data.rcode),
      nullMx: bool(data.nullMx),
      hosts: keyed(
        arr(data.hosts),
        (h) => str(obj(h).exchange),
        (h) => ({ priority: num(obj(h).priority), addresses: sortedSet(arr(obj(h).addresses)) }),
      ),
    };
  },
  ranked: [{ pattern: 'rcode', ranking: levels({ NOERROR: 0, NXDOMAIN: 1 }, ['NXDOMAIN']) }],
  assess(data) {
    const name = str(data.domain) ?? '?';
    const hosts = arr(data.hosts);
    // as mailhealth-check's mx part judges (critical: no domain, or no MX host with an address)
    if (data.rcode === 'NXDOMAIN') return { status: 'critical', grade: null, summary: `${name} does not exist.` };
    if (data.nullMx === true) return { status: 'info', grade: null, summary: `${name} takes no mail (null MX).` };
    if (hosts.length === 0) return { status: 'warning', grade: null, summary: `${name} has no MX record.` };
    const reachable = hosts.filter((h) => arr(obj(h).addresses).length > 0).length;
    return {
      status: reachable === 0 ? 'critical' : 'ok',
      grade: null,
      summary: `${name} has ${hosts.length} MX hosts, ${reachable} of them with an address.`,
    };
  },
});
