/**
 * Where the zone cuts are between the anchor zone and the name (RFC 4033 §2 "zone cut"), read from
 * the DS and DNSKEY answers of every name on the way: a name is a zone apex when it has DNSKEYs, when
 * a negative DNSKEY answer carries its own SOA (RFC 2308 §3: the SOA of the zone that answered), or
 * when its parent holds DS records or an NSEC/NSEC3 at it that lists NS.
 */
import type { Nsec3Data, NsecData } from '../../../probes/dns/client.js';
import { sameName } from './names.js';
import { nsec3Matches } from './nsec3.js';
import type { NameObservations } from './observations.js';
import { recordsAt } from './rrsets.js';

export function zoneCuts(names: readonly NameObservations[]): NameObservations[] {
  const [anchor, ...below] = names;
  if (anchor === undefined) return [];
  const cuts = [anchor];
  for (const observed of below) {
    const verdict = isZoneApex(observed);
    if (verdict === 'absent') break;
    if (verdict === 'apex') cuts.push(observed);
  }
  return cuts;
}

function isZoneApex(observed: NameObservations): 'apex' | 'not-apex' | 'absent' {
  const { name, dnskey, ds } = observed;
  if (ds?.response && recordsAt(ds.response.answers, name, 'DS').length > 0) return 'apex';
  if (dnskey.response) {
    const r = dnskey.response;
    if (recordsAt(r.answers, name, 'DNSKEY').length > 0) return 'apex';
    if (r.answers.length === 0 && r.authority.some((a) => a.type === 'SOA' && sameName(a.name, name))) return 'apex';
    if (r.rcode === 'NXDOMAIN') return 'absent';
    return delegationInDenial(observed) ? 'apex' : 'not-apex';
  }
  // the DNSKEY question failed: a failed DS question leaves the cut unknown, shown as one (indeterminate)
  if (ds === null || ds.failure !== undefined) return 'apex';
  return delegationInDenial(observed) ? 'apex' : 'not-apex';
}

/** The parent's NSEC or NSEC3 at the name lists NS: an unsigned delegation. */
function delegationInDenial({ name, ds }: NameObservations): boolean {
  const authority = ds?.response?.authority ?? [];
  return authority.some((record) => {
    if (record.type === 'NSEC') return sameName(record.name, name) && (record.data as NsecData).types.includes('NS');
    if (record.type !== 'NSEC3') return false;
    const data = record.data as Nsec3Data;
    return data.types.includes('NS') && nsec3Matches({ owner: record.name, ...data }, name);
  });
}
