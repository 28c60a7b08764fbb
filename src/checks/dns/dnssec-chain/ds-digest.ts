/**
 * DS records (RFC 4034 §5): the digest of the owner name and the DNSKEY RDATA with SHA-1 (type 1),
 * SHA-256 (type 2, RFC 4509) or SHA-384 (type 4, RFC 6605), and what a DS says about a key set.
 */
import { createHash } from 'node:crypto';
import type { DnskeyData, DsData } from '../../../probes/dns/client.js';
import { isSupportedAlgorithm } from './algorithms.js';
import { keyTag } from './key-tag.js';
import { canonicalNameWire } from './names.js';
import { dnskeyRdata } from './rdata.js';

const DIGESTS: Readonly<Record<number, string>> = { 1: 'sha1', 2: 'sha256', 4: 'sha384' };

export type DsStatus = 'valid' | 'no-matching-dnskey' | 'invalid-digest' | 'unsupported';

export function isSupportedDigest(digestType: number): boolean {
  return DIGESTS[digestType] !== undefined;
}

/** The DS digest of `key` owned by `owner`, upper-case hex; null for a digest type this side does not know. */
export function dsDigest(
  owner: string,
  key: Pick<DnskeyData, 'flags' | 'protocol' | 'algorithm' | 'publicKey'>,
  digestType: number,
): string | null {
  const hash = DIGESTS[digestType];
  if (hash === undefined) return null;
  return createHash(hash).update(canonicalNameWire(owner)).update(dnskeyRdata(key)).digest('hex').toUpperCase();
}

export interface DsMatch {
  readonly status: DsStatus;
  /** the key the DS authenticates, when `valid` */
  readonly key: DnskeyData | null;
}

/**
 * RFC 4035 §5.2: a DS authenticates the zone key with its tag and algorithm whose digest it holds.
 * A DS whose digest type or algorithm cannot be checked here is `unsupported` (and RFC 4035 §5.2
 * treats a zone with only such DS records as insecure).
 */
export function matchDs(owner: string, ds: DsData, keys: readonly DnskeyData[]): DsMatch {
  if (!isSupportedDigest(ds.digestType) || !isSupportedAlgorithm(ds.algorithm))
    return { status: 'unsupported', key: null };
  const candidates = keys.filter((k) => k.algorithm === ds.algorithm && keyTag(k) === ds.keyTag && k.zoneKey);
  if (candidates.length === 0) return { status: 'no-matching-dnskey', key: null };
  const wanted = ds.digest.toUpperCase();
  const key = candidates.find((k) => dsDigest(owner, k, ds.digestType) === wanted);
  return key ? { status: 'valid', key } : { status: 'invalid-digest', key: null };
}
