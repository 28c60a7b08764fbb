/** Records of a response grouped as DNSSEC handles them: RRsets (RFC 2181 §5) and the RRSIGs over each. */
import type { DnsRecord, RrsigData } from '../../../probes/dns/client.js';
import { normalName, sameName } from './names.js';
import { sameType } from './record-types.js';

export interface SignedRrset {
  readonly owner: string;
  readonly type: string;
  readonly records: readonly DnsRecord[];
  readonly signatures: readonly RrsigData[];
}

/** Every RRset of `section` (RRSIGs aside), each with the RRSIGs at its owner covering its type. */
export function signedRrsets(section: readonly DnsRecord[]): SignedRrset[] {
  const sets = new Map<string, DnsRecord[]>();
  for (const record of section) {
    if (record.type === 'RRSIG' || record.type === 'OPT') continue;
    const key = `${normalName(record.name)}|${record.type}`;
    const set = sets.get(key) ?? [];
    set.push(record);
    sets.set(key, set);
  }
  return [...sets.values()].map((records) => {
    const { name, type } = records[0]!;
    return { owner: normalName(name), type, records, signatures: signaturesOver(section, name, type) };
  });
}

export function signaturesOver(section: readonly DnsRecord[], owner: string, type: string): RrsigData[] {
  return section
    .filter((r) => r.type === 'RRSIG' && sameName(r.name, owner) && sameType((r.data as RrsigData).typeCovered, type))
    .map((r) => r.data as RrsigData);
}

export function recordsAt(section: readonly DnsRecord[], owner: string, type: string): DnsRecord[] {
  return section.filter((r) => r.type === type && sameName(r.name, owner));
}
