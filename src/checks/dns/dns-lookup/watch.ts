/**
 * dns-lookup (docs/contract/api-v1.md): the record sets (docs/contract/monitors.md "Events"), sorted. TTLs
 * are not in the answer; the SOA serial is left out (it changes with every edit of the zone, and zones
 * signed on the fly change it on their own), and so is the resolver. A type whose question failed
 * (`errors`) is not known that run: its last set is kept.
 */
import { arr, type JsonObject, num, obj, sortedSet, str, UNKNOWN } from '../../../watch/projection.js';
import { levels } from '../../../watch/ranking.js';
import { defineWatch } from '../../../watch/watch-spec.js';

const TYPES = ['A', 'AAAA', 'MX', 'TXT', 'CNAME', 'NS', 'SOA'] as const;

export const dnsLookupWatch = defineWatch({
  tool: 'dns-lookup',
  project(data) {
    const records = obj(data.records);
    const failed = new Set(arr(data.errors).map((e) => str(obj(e).type)));
    const sets: Record<string, string[] | typeof UNKNOWN> = {};
    for (const type of TYPES) sets[type] = failed.has(type) ? UNKNOWN : recordTexts(type, arr(records[type]));
    return { rcode: str(data.rcode), records: sets };
  },
  ranked: [{ pattern: 'rcode', ranking: levels({ NOERROR: 0, NXDOMAIN: 1 }) }],
  assess(data) {
    const name = str(data.domain) ?? '?';
    if (data.rcode === 'NXDOMAIN')
      return { status: 'warning', grade: null, summary: `${name} does not exist (NXDOMAIN).` };
    const failed = arr(data.errors).length;
    const count = TYPES.reduce((n, type) => n + arr(obj(data.records)[type]).length, 0);
    return {
      status: failed > 0 ? 'warning' : 'ok',
      grade: null,
      summary: `${name} has ${count} records${failed > 0 ? `; ${failed} record types could not be asked` : ''}.`,
    };
  },
});

/** A record type's set as text, one line per record (MX `priority exchange`, SOA without its serial). */
export function recordTexts(type: string, records: readonly unknown[]): string[] {
  if (type === 'MX') return sortedSet(records.map((r) => `${num(obj(r).priority)} ${str(obj(r).exchange)}`));
  if (type === 'SOA')
    return sortedSet(
      records.map((r) => {
        const soa = obj(r) as JsonObject;
        return ['nsname', 'hostmaster', 'refresh', 'retry', 'expire', 'minttl'].map((f) => soa[f]).join(' ');
      }),
    );
  return sortedSet(records);
}
