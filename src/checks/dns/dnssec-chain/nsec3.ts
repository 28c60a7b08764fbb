/**
 * Authenticated denial with NSEC3 (RFC 5155): owner names are hashed (SHA-1, iterated with a salt,
 * §5), each NSEC3 matches one hash and covers the hashes up to the next one (§7.2.9), and proofs go
 * through the closest encloser (§8.3). The Opt-Out flag (§6) lets a covering NSEC3 pass over unsigned
 * delegations: it proves an insecure delegation, never a secure name.
 */
import { createHash } from 'node:crypto';
import { base32hexEncode } from '../../../probes/dns/base32hex.js';
import type { Nsec3Data } from '../../../probes/dns/client.js';
import { ancestor, canonicalNameWire, isAtOrBelow, labelCount, labelsOf, wildcardOf } from './names.js';
import { sameType } from './record-types.js';
import type { DenialOutcome } from './nsec.js';

export interface Nsec3Record extends Nsec3Data {
  /** the full owner name, hashed label first */
  readonly owner: string;
}

export interface Nsec3Outcome {
  readonly outcome: DenialOutcome;
  /** a covering NSEC3 with Opt-Out took part in the proof */
  readonly optOut: boolean;
}

const SHA1 = 1;
const OPT_OUT = 0x01;

/** RFC 5155 §5: IH(salt, x, 0) = H(x ‖ salt); IH(salt, x, k) = H(IH(salt, x, k−1) ‖ salt), x the canonical wire name. */
export function nsec3Hash(name: string, saltHex: string, iterations: number): string {
  const salt = Buffer.from(saltHex, 'hex');
  let digest = createHash('sha1').update(canonicalNameWire(name)).update(salt).digest();
  for (let i = 0; i < iterations; i++) digest = createHash('sha1').update(digest).update(salt).digest();
  return base32hexEncode(digest);
}

const ownerHash = (r: Nsec3Record) => (labelsOf(r.owner)[0] ?? '').toLowerCase();
const hashOf = (r: Nsec3Record, name: string) => nsec3Hash(name, r.salt, r.iterations);
const hasType = (r: Nsec3Record, type: string) => r.types.some((t) => sameType(t, type));

export function nsec3Matches(r: Nsec3Record, name: string): boolean {
  return r.hashAlgorithm === SHA1 && ownerHash(r) === hashOf(r, name);
}

/** §7.2.9 and §8.3: the name's hash lies strictly between the owner's and the next one, wrapping at the end. */
export function nsec3Covers(r: Nsec3Record, name: string): boolean {
  if (r.hashAlgorithm !== SHA1) return false;
  const hash = hashOf(r, name);
  const owner = ownerHash(r);
  const next = r.nextHashedOwner.toLowerCase();
  if (owner < next) return owner < hash && hash < next;
  return hash > owner || hash < next;
}

interface EncloserProof {
  readonly encloser: string;
  readonly optOut: boolean;
}

/** §8.3: the longest ancestor of `qname` with a matching NSEC3, whose next-closer name is covered. */
function closestEncloserProof(qname: string, zone: string, records: readonly Nsec3Record[]): EncloserProof | string {
  const zoneLabels = labelCount(zone);
  for (let keep = labelCount(qname) - 1; keep >= zoneLabels; keep--) {
    const encloser = ancestor(qname, keep);
    if (!records.some((r) => nsec3Matches(r, encloser))) continue;
    const nextCloser = ancestor(qname, keep + 1);
    const covering = records.find((r) => nsec3Covers(r, nextCloser));
    if (covering === undefined) return `no NSEC3 record covers the next closer name ${nextCloser}`;
    return { encloser, optOut: (covering.flags & OPT_OUT) !== 0 };
  }
  return `no NSEC3 record matches an ancestor of ${qname} in ${zone}`;
}

const fail = (reason: string, optOut = false): Nsec3Outcome => ({ outcome: { proven: false, reason }, optOut });
const pass = (optOut: boolean): Nsec3Outcome => ({ outcome: { proven: true }, optOut });

/** §8.4: the closest encloser proof and an NSEC3 covering the wildcard at the closest encloser. */
export function proveNameError3(qname: string, zone: string, records: readonly Nsec3Record[]): Nsec3Outcome {
  if (!isAtOrBelow(qname, zone)) return fail(`${qname} is not in ${zone}`);
  const proof = closestEncloserProof(qname, zone, records);
  if (typeof proof === 'string') return fail(proof);
  const wildcard = wildcardOf(proof.encloser);
  if (!records.some((r) => nsec3Covers(r, wildcard))) return fail(`no NSEC3 record covers ${wildcard}`, proof.optOut);
  return pass(proof.optOut);
}

/**
 * §8.5–§8.7: an NSEC3 matching the name without the type (nor CNAME; for DS, one from the parent,
 * without SOA); for DS without a match, an Opt-Out NSEC3 covering the next closer name (§8.6); or a
 * wildcard's NSEC3 without the type beside the closest encloser proof (§8.7).
 */
export function proveNoData3(
  qname: string,
  qtype: string,
  zone: string,
  records: readonly Nsec3Record[],
): Nsec3Outcome {
  const matching = records.find((r) => nsec3Matches(r, qname));
  if (matching !== undefined) {
    if (hasType(matching, qtype) || hasType(matching, 'CNAME'))
      return fail(`the NSEC3 of ${qname} lists ${qtype}: the type exists`);
    if (sameType(qtype, 'DS') && hasType(matching, 'SOA'))
      return fail(`the NSEC3 of ${qname} comes from the child zone, which cannot deny its own DS`);
    return pass(false);
  }
  const proof = closestEncloserProof(qname, zone, records);
  if (typeof proof === 'string') return fail(proof);
  if (sameType(qtype, 'DS')) {
    return proof.optOut ? pass(true) : fail(`the NSEC3 covering the next closer name of ${qname} has no Opt-Out flag`);
  }
  const wildcard = records.find((r) => nsec3Matches(r, wildcardOf(proof.encloser)));
  if (wildcard !== undefined && !hasType(wildcard, qtype) && !hasType(wildcard, 'CNAME')) return pass(proof.optOut);
  return fail(`no NSEC3 record matches ${qname} or a wildcard without ${qtype}`, proof.optOut);
}

/**
 * §8.8: a positive answer expanded from the wildcard at `ancestor(qname, signatureLabels)` needs an
 * NSEC3 covering the next closer name, proving that no closer match exists.
 */
export function proveWildcardExpansion3(
  qname: string,
  signatureLabels: number,
  records: readonly Nsec3Record[],
): Nsec3Outcome {
  const nextCloser = ancestor(qname, signatureLabels + 1);
  const covering = records.find((r) => nsec3Covers(r, nextCloser));
  if (covering === undefined)
    return fail(`the answer for ${qname} was expanded from a wildcard, and no NSEC3 record covers ${nextCloser}`);
  return pass((covering.flags & OPT_OUT) !== 0);
}

/** A proven unsigned delegation: the parent's NSEC3 at the cut with NS and without DS, or Opt-Out (§8.6). */
export function proveNoDs3(child: string, parent: string, records: readonly Nsec3Record[]): Nsec3Outcome {
  const matching = records.find((r) => nsec3Matches(r, child));
  if (matching !== undefined && !hasType(matching, 'NS'))
    return fail(`the NSEC3 of ${child} lists no NS: it is no delegation`);
  return proveNoData3(child, 'DS', parent, records);
}
