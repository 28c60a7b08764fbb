/**
 * Authenticated denial with NSEC (RFC 4035 §5.4, RFC 4034 §4): an NSEC record owned by a name
 * lists the types there and, in canonical order (RFC 4034 §6.1), the next name of the zone, so it
 * proves that no name lies between the two and which types its owner lacks.
 */
import { ancestor, compareCanonical, isAtOrBelow, labelCount, labelsOf, sameName, wildcardOf } from './names.js';
import { sameType } from './record-types.js';

export interface NsecRecord {
  readonly owner: string;
  readonly next: string;
  readonly types: readonly string[];
}

export type DenialOutcome = { readonly proven: true } | { readonly proven: false; readonly reason: string };

const proven: DenialOutcome = { proven: true };
const unproven = (reason: string): DenialOutcome => ({ proven: false, reason });

/** `name` lies strictly between the NSEC's owner and next name (the last NSEC's next name is the apex). */
export function nsecCovers(nsec: NsecRecord, name: string): boolean {
  if (compareCanonical(nsec.owner, name) >= 0) return false;
  const wraps = compareCanonical(nsec.next, nsec.owner) <= 0;
  return wraps || compareCanonical(name, nsec.next) < 0;
}

const hasType = (nsec: NsecRecord, type: string) => nsec.types.some((t) => sameType(t, type));

/**
 * The NSEC at a delegation point (NS without SOA) belongs to the parent: it speaks for the cut
 * (its DS), never for the data below it (RFC 4035 §5.4, "ancestor" NSEC).
 */
function isDelegation(nsec: NsecRecord): boolean {
  return hasType(nsec, 'NS') && !hasType(nsec, 'SOA');
}

/** NXDOMAIN: an NSEC covers the name and one covers the wildcard at its closest encloser (RFC 4035 §5.4). */
export function proveNameError(qname: string, zone: string, nsecs: readonly NsecRecord[]): DenialOutcome {
  const covering = nsecs.find((n) => nsecCovers(n, qname) && isAtOrBelow(n.owner, zone));
  if (covering === undefined) return unproven(`no NSEC record covers ${qname}`);
  const delegation = nsecs.find((n) => isDelegation(n) && isAtOrBelow(qname, n.owner) && !sameName(qname, n.owner));
  if (delegation !== undefined)
    return unproven(`the NSEC at ${delegation.owner} is a delegation: it cannot deny names below it`);
  const encloser = closestEncloser(qname, covering);
  const wildcard = wildcardOf(encloser);
  if (!nsecs.some((n) => nsecCovers(n, wildcard)))
    return unproven(`no NSEC record proves that ${wildcard} does not exist`);
  return proven;
}

/**
 * NODATA (RFC 4035 §5.4): an NSEC at the name without the type (nor CNAME); an NSEC covering an empty
 * non-terminal whose next name lies below it; or, for a wildcard, the NSEC of the wildcard without
 * the type beside one covering the name. For DS the NSEC must come from the parent (no SOA).
 */
export function proveNoData(qname: string, qtype: string, zone: string, nsecs: readonly NsecRecord[]): DenialOutcome {
  const matching = nsecs.find((n) => sameName(n.owner, qname));
  if (matching !== undefined) {
    if (hasType(matching, qtype) || hasType(matching, 'CNAME'))
      return unproven(`the NSEC at ${qname} lists ${qtype}: the type exists`);
    if (sameType(qtype, 'DS') && hasType(matching, 'SOA'))
      return unproven(`the NSEC at ${qname} comes from the child zone, which cannot deny its own DS`);
    if (!sameType(qtype, 'DS') && isDelegation(matching))
      return unproven(`the NSEC at ${qname} is the parent's at a delegation: it cannot deny data in the child`);
    return proven;
  }
  const covering = nsecs.find((n) => nsecCovers(n, qname) && isAtOrBelow(n.owner, zone));
  if (covering === undefined) return unproven(`no NSEC record at or covering ${qname}`);
  if (isAtOrBelow(covering.next, qname) && !sameName(covering.next, qname)) return proven;
  const wildcard = wildcardOf(closestEncloser(qname, covering));
  const atWildcard = nsecs.find((n) => sameName(n.owner, wildcard));
  if (atWildcard !== undefined && !hasType(atWildcard, qtype) && !hasType(atWildcard, 'CNAME')) return proven;
  return unproven(`the NSEC records neither match ${qname} nor prove a wildcard without ${qtype}`);
}

/**
 * A positive answer expanded from a wildcard (RFC 4035 §5.3.4): an NSEC must cover the name itself,
 * proving that no closer match exists.
 */
export function proveWildcardExpansion(qname: string, zone: string, nsecs: readonly NsecRecord[]): DenialOutcome {
  return nsecs.some((n) => nsecCovers(n, qname) && isAtOrBelow(n.owner, zone))
    ? proven
    : unproven(
        `the answer for ${qname} was expanded from a wildcard, and no NSEC record proves that ${qname} itself does not exist`,
      );
}

/** A proven unsigned delegation (RFC 4035 §5.2): the parent's NSEC at the cut has NS and lacks DS. */
export function proveNoDs(child: string, parent: string, nsecs: readonly NsecRecord[]): DenialOutcome {
  const matching = nsecs.find((n) => sameName(n.owner, child));
  if (matching === undefined) return unproven(`no NSEC record at ${child}`);
  if (!hasType(matching, 'NS')) return unproven(`the NSEC at ${child} lists no NS: it is no delegation`);
  return proveNoData(child, 'DS', parent, nsecs);
}

/**
 * RFC 4035 §5.4 via RFC 5155's term: the longest ancestor of the name shared with the covering NSEC's
 * owner or next name.
 */
function closestEncloser(qname: string, covering: NsecRecord): string {
  const shared = Math.max(commonLabels(qname, covering.owner), commonLabels(qname, covering.next));
  return ancestor(qname, Math.min(shared, labelCount(qname)));
}

function commonLabels(a: string, b: string): number {
  const left = labelsOf(a).reverse();
  const right = labelsOf(b).reverse();
  let n = 0;
  while (n < left.length && n < right.length && left[n] === right[n]) n++;
  return n;
}
