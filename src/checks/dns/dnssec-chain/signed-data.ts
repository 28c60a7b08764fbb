/**
 * The octets an RRSIG signs (RFC 4034 §3.1.8.1): its own RDATA without the signature, then every
 * record of the RRset in canonical form (RFC 4034 §6.2) and canonical order (§6.3, duplicates
 * dropped), each with the RRSIG's Original TTL. An RRSIG whose Labels field is smaller than the
 * owner's label count was made over a wildcard: the owner is rebuilt as "*." and the rightmost
 * Labels labels (RFC 4035 §5.3.2).
 */
import type { DnsRecord, RrsigData } from '../../../probes/dns/client.js';
import { ancestor, canonicalNameWire, labelCount, wildcardOf } from './names.js';
import { canonicalRdata, rrsigRdataWithoutSignature } from './rdata.js';
import { typeNumber } from './record-types.js';

const CLASS_IN = 1;

/** The signed data, or null when a record of the set cannot be rebuilt (a type this module does not know). */
export function signedData(rrset: readonly DnsRecord[], sig: RrsigData): Buffer | null {
  const first = rrset[0];
  if (first === undefined) return null;
  const type = typeNumber(first.type);
  if (type === null) return null;
  const owner = signedOwner(first.name, sig.labels);
  if (owner === null) return null;
  const rdatas: Buffer[] = [];
  for (const record of rrset) {
    const rdata = canonicalRdata(record);
    if (rdata === null) return null;
    rdatas.push(rdata);
  }
  const ordered = dedupe(rdatas.sort(Buffer.compare));
  const ownerWire = canonicalNameWire(owner);
  const header = Buffer.alloc(8);
  header.writeUInt16BE(type, 0);
  header.writeUInt16BE(CLASS_IN, 2);
  header.writeUInt32BE(sig.originalTtl >>> 0, 4);
  const parts: Buffer[] = [rrsigRdataWithoutSignature(sig)];
  for (const rdata of ordered) {
    const length = Buffer.alloc(2);
    length.writeUInt16BE(rdata.length);
    parts.push(ownerWire, header, length, rdata);
  }
  return Buffer.concat(parts);
}

/** The owner as signed: the name itself, or the wildcard it was expanded from; null when Labels exceeds the name's. */
export function signedOwner(owner: string, labels: number): string | null {
  const count = labelCount(owner);
  if (labels > count) return null;
  return labels === count ? owner : wildcardOf(ancestor(owner, labels));
}

function dedupe(sorted: Buffer[]): Buffer[] {
  return sorted.filter((rdata, i) => i === 0 || !rdata.equals(sorted[i - 1]!));
}
