/**
 * One RRSIG against the RRset it covers and the zone keys that may have made it (RFC 4035 §5.3):
 * the signer must be the zone, a zone key (RFC 4034 §2.1.1) with the RRSIG's tag and algorithm must
 * exist, now must lie within inception and expiration (§5.3.1), and the signature must verify over
 * the canonical RRset (RFC 4034 §3.1.8.1).
 */
import type { KeyObject } from 'node:crypto';
import type { DnskeyData, DnsRecord, RrsigData } from '../../../probes/dns/client.js';
import { importPublicKey, isSupportedAlgorithm, verifySignature } from './algorithms.js';
import { keyTag } from './key-tag.js';
import { isAtOrBelow, sameName } from './names.js';
import { signedData } from './signed-data.js';
import { absoluteTime } from './time.js';
import { measured, type VerificationCost } from './verification-cost.js';

export type SignatureStatus =
  | 'valid'
  | 'expired'
  | 'not-yet-valid'
  | 'invalid-signature'
  | 'no-matching-key'
  | 'unsupported-algorithm';

export interface SignatureCheck {
  readonly status: SignatureStatus;
  /** the key whose signature verified, when `valid` */
  readonly key: DnskeyData | null;
}

/** Imports each DNSKEY once per chain: the same key checks many signatures. */
export class KeyImports {
  private readonly imported = new Map<string, KeyObject | null>();
  get(key: DnskeyData): KeyObject | null {
    const id = `${key.algorithm}/${key.publicKey}`;
    if (!this.imported.has(id))
      this.imported.set(id, importPublicKey(key.algorithm, Buffer.from(key.publicKey, 'base64')));
    return this.imported.get(id) ?? null;
  }
}

export interface SignatureContext {
  readonly nowSeconds: number;
  readonly keys: KeyImports;
  readonly cost: VerificationCost;
}

/**
 * The status of `sig` over `rrset`, checked against the DNSKEYs of `zone`. Checks run cheapest first;
 * the first that fails names the status.
 */
export function checkSignature(
  rrset: readonly DnsRecord[],
  sig: RrsigData,
  zone: string,
  zoneKeys: readonly DnskeyData[],
  ctx: SignatureContext,
): SignatureCheck {
  const failed = (status: SignatureStatus): SignatureCheck => ({ status, key: null });
  if (!isSupportedAlgorithm(sig.algorithm)) return failed('unsupported-algorithm');
  const owner = rrset[0]?.name;
  if (owner === undefined || !sameName(sig.signerName, zone) || !isAtOrBelow(owner, zone))
    return failed('no-matching-key');
  const candidates = zoneKeys.filter(
    (k) => k.zoneKey && k.protocol === 3 && k.algorithm === sig.algorithm && keyTag(k) === sig.keyTag,
  );
  if (candidates.length === 0) return failed('no-matching-key');
  if (ctx.nowSeconds > absoluteTime(sig.expiration, ctx.nowSeconds)) return failed('expired');
  if (ctx.nowSeconds < absoluteTime(sig.inception, ctx.nowSeconds)) return failed('not-yet-valid');
  const data = signedData(rrset, sig);
  if (data === null) return failed('invalid-signature');
  const signature = Buffer.from(sig.signature, 'base64');
  for (const candidate of candidates) {
    const key = ctx.keys.get(candidate);
    if (key === null) continue;
    if (measured(ctx.cost, () => verifySignature(sig.algorithm, key, data, signature)))
      return { status: 'valid', key: candidate };
  }
  return failed('invalid-signature');
}
