/**
 * DKIM key records (RFC 6376 §3.6.1) at `<selector>._domainkey.<domain>`.
 *
 * A TXT record counts as a DKIM key record when it parses as a tag-list, has a `p=` tag, and has
 * no `v=` tag or a first `v=DKIM1` (§3.6.1: records beginning with another v= MUST be discarded).
 * Other TXT records at the name (verification tokens, SPF by mistake) are not keys: `found: false`.
 */
import { createPublicKey } from 'node:crypto';
import { parseTagList, tagsObject, colonList } from '../shared/txt.js';
import type { TxtAnswer } from '../shared/txt.js';

/** The owner name of a selector's key record (RFC 6376 §3.6.2.1). */
export function dkimRecordName(selector: string, domain: string): string {
  return `${selector}._domainkey.${domain.replace(/\.$/, '')}`;
}

export interface DkimKey {
  record: string;
  tags: Record<string, string>;
  /** k=, default "rsa" */
  keyType: string;
  /** p= with white space removed */
  publicKey: string;
  /** p= is empty: the key has been revoked */
  revoked: boolean;
  /** RSA modulus length; null for other key types or a key that does not decode */
  keyBits: number | null;
  /** how the key is encoded: SubjectPublicKeyInfo, PKCS#1 RSAPublicKey, or raw (Ed25519) */
  keyEncoding: 'spki' | 'pkcs1' | 'raw' | null;
  /** h=, or null when absent (any algorithm) */
  hashAlgorithms: string[] | null;
  /** s=, default ["*"] */
  serviceTypes: string[];
  /** t=y: the domain is testing DKIM */
  testing: boolean;
  /** t=s: the i= domain of signatures must equal d= */
  strict: boolean;
  errors: string[];
  warnings: string[];
}

export function isDkimKeyRecord(txt: string): boolean {
  const list = parseTagList(txt);
  const first = list.tags[0];
  if (first?.name === 'v' && first.value !== 'DKIM1') return false;
  if (list.tags.some((t, i) => t.name === 'v' && i > 0 && t.value !== 'DKIM1')) return false;
  return list.tags.some((t) => t.name === 'p');
}

const MAX_KEY_BYTES = 4096; // a 16384-bit RSA key is about 2 KiB of DER: anything larger is not a key worth parsing

export function parseDkimKey(record: string): DkimKey {
  const list = parseTagList(record);
  const tags = tagsObject(list);
  const errors = [...list.errors];
  const warnings: string[] = [];

  if (Object.hasOwn(tags, 'v') && list.tags[0]?.name !== 'v') errors.push('v= must be the first tag (RFC 6376 §3.6.1)');
  if (Object.hasOwn(tags, 'v') && tags.v !== 'DKIM1') errors.push(`v=${tags.v} is not DKIM1`);

  const keyType = tags.k ?? 'rsa';
  const publicKey = (tags.p ?? '').replace(/\s+/g, '');
  const revoked = Object.hasOwn(tags, 'p') && publicKey === '';
  if (revoked) warnings.push('the key has been revoked (empty p=): signatures with this selector fail');

  const hashAlgorithms = Object.hasOwn(tags, 'h') ? colonList(tags.h ?? '') : null;
  if (hashAlgorithms) {
    if (hashAlgorithms.length > 0 && hashAlgorithms.every((h) => h === 'sha1')) {
      warnings.push('h= allows only sha1, which verifiers must no longer accept (RFC 8301 §3.1)');
    }
    const unknown = hashAlgorithms.filter((h) => h !== 'sha1' && h !== 'sha256');
    if (unknown.length > 0) warnings.push(`h= names unknown hash algorithms: ${unknown.join(', ')}`);
  }

  const serviceTypes = Object.hasOwn(tags, 's') ? colonList(tags.s ?? '') : ['*'];
  if (!serviceTypes.includes('*') && !serviceTypes.includes('email')) {
    errors.push(`s=${tags.s} excludes email: the key cannot verify mail signatures`);
  }

  const flags = Object.hasOwn(tags, 't') ? colonList(tags.t ?? '') : [];
  const testing = flags.includes('y');
  const strict = flags.includes('s');
  if (testing) warnings.push('t=y: the domain is testing DKIM; verifiers may treat failures as unsigned mail');

  let keyBits: number | null = null;
  let keyEncoding: DkimKey['keyEncoding'] = null;
  if (publicKey !== '') {
    const decoded = decodePublicKey(keyType, publicKey);
    if ('error' in decoded) errors.push(decoded.error);
    else {
      keyBits = decoded.bits;
      keyEncoding = decoded.encoding;
      if (decoded.encoding === 'pkcs1')
        warnings.push('the RSA key is a bare PKCS#1 RSAPublicKey; most verifiers expect SubjectPublicKeyInfo');
      if (keyBits !== null) {
        const size = rsaSizeFindings(keyBits);
        errors.push(...size.errors);
        warnings.push(...size.warnings);
      }
    }
  }

  return {
    record,
    tags,
    keyType,
    publicKey,
    revoked,
    keyBits,
    keyEncoding,
    hashAlgorithms,
    serviceTypes,
    testing,
    strict,
    errors,
    warnings,
  };
}

/** RFC 8301 §3.2: verifiers MUST NOT accept RSA keys under 1024 bits; signers SHOULD use at least 2048. */
function rsaSizeFindings(bits: number): { errors: string[]; warnings: string[] } {
  if (bits < 1024) {
    return {
      errors: [`the RSA key has ${bits} bits; verifiers reject keys under 1024 bits (RFC 8301 §3.2)`],
      warnings: [],
    };
  }
  if (bits < 2048)
    return { errors: [], warnings: [`the RSA key has ${bits} bits; at least 2048 is recommended (RFC 8301 §3.2)`] };
  if (bits > 4096) {
    return {
      errors: [],
      warnings: [`the RSA key has ${bits} bits; verifiers are only required to handle up to 4096 (RFC 8301 §3.2)`],
    };
  }
  return { errors: [], warnings: [] };
}

type DecodedKey = { bits: number | null; encoding: 'spki' | 'pkcs1' | 'raw' } | { error: string };

function decodePublicKey(keyType: string, base64: string): DecodedKey {
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(base64) || base64.length % 4 === 1) return { error: 'p= is not valid base64' };
  const der = Buffer.from(base64, 'base64');
  if (der.length > MAX_KEY_BYTES) return { error: `p= holds ${der.length} bytes, far more than any key` };

  if (keyType === 'ed25519') {
    // RFC 8463 §4.2: the raw 32-byte public key, not wrapped in SubjectPublicKeyInfo.
    return der.length === 32
      ? { bits: null, encoding: 'raw' }
      : { error: `an Ed25519 key is 32 raw bytes (RFC 8463 §4.2); p= holds ${der.length}` };
  }
  if (keyType !== 'rsa') return { error: `k=${keyType} is not a known key type (rsa, ed25519)` };

  for (const type of ['spki', 'pkcs1'] as const) {
    try {
      const key = createPublicKey({ key: der, format: 'der', type });
      if (key.asymmetricKeyType !== 'rsa')
        return { error: `k=rsa but p= holds an ${key.asymmetricKeyType ?? 'unknown'} key` };
      return { bits: key.asymmetricKeyDetails?.modulusLength ?? null, encoding: type };
    } catch {
      // not this encoding; try the next
    }
  }
  return { error: 'p= does not decode as an RSA public key' };
}

/** dkim-checker's result (api-v1.md) with added fields. */
export interface DkimCheckResult {
  domain: string;
  selector: string;
  found: boolean;
  record: string | null;
  keyType: string | null;
  hasPublicKey: boolean;
  /** the name that was asked */
  name: string;
  revoked: boolean;
  keyBits: number | null;
  testing: boolean;
  tags: Record<string, string>;
  errors: string[];
  warnings: string[];
}

export function evaluateDkim(domain: string, selector: string, answer: TxtAnswer): DkimCheckResult {
  const name = dkimRecordName(selector, domain);
  const records = answer.rcode === 'NXDOMAIN' ? [] : answer.records;
  const keys = records.filter(isDkimKeyRecord);
  const first = keys[0];
  if (first === undefined) {
    return {
      domain,
      selector,
      found: false,
      record: null,
      keyType: null,
      hasPublicKey: false,
      name,
      revoked: false,
      keyBits: null,
      testing: false,
      tags: {},
      errors: [],
      warnings: records.length > 0 ? [`${name} has TXT records, but none is a DKIM key record`] : [],
    };
  }
  const key = parseDkimKey(first);
  const warnings = [...key.warnings];
  if (keys.length > 1)
    warnings.unshift(`${name} has ${keys.length} key records; verifiers' results are undefined (RFC 6376 §3.6.2.2)`);
  return {
    domain,
    selector,
    found: true,
    record: first,
    keyType: key.keyType,
    hasPublicKey: key.publicKey !== '',
    name,
    revoked: key.revoked,
    keyBits: key.keyBits,
    testing: key.testing,
    tags: key.tags,
    errors: key.errors,
    warnings,
  };
}
