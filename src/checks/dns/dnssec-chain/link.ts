/**
 * One link of the chain of trust (RFC 4035 §5.2): the parent's DS RRset for a zone (or the trust
 * anchors for the anchor zone), authenticated by the parent's keys; the zone's DNSKEY RRset; and the
 * RRSIG over that set by a key a DS points at. Or, without DS, the parent's proof that there is none.
 */
import type { DnskeyData, DsData, RrsigData } from '../../../probes/dns/client.js';
import { keyBits } from './algorithms.js';
import { checkDenial } from './denial.js';
import { matchDs, type DsMatch } from './ds-digest.js';
import { keyTag } from './key-tag.js';
import type { Asked, TrustAnchor } from './observations.js';
import { algorithmFindings, digestFindings, EXPIRES_SOON_SECONDS, nsec3IterationWarning } from './policy.js';
import type { ChainError, ChainLink, ChainStatus, ChainWarning, DnskeyEntry, SignatureEntry } from './result.js';
import { recordsAt, signaturesOver } from './rrsets.js';
import { checkSignature, type SignatureCheck, type SignatureContext } from './rrsig.js';
import { signatureFailure } from './signature-failure.js';
import { absoluteTime, isoTime } from './time.js';

export interface LinkVerdict {
  readonly link: ChainLink;
  /** the zone's keys once its DNSKEY RRset is authenticated (RFC 4035 §5.3.1 lets any of them sign) */
  readonly validatedKeys: readonly DnskeyData[];
  /** every key the zone publishes, authenticated or not */
  readonly publishedKeys: readonly DnskeyData[];
  /** the failure that decides a bogus or indeterminate status */
  readonly decisive: ChainError | null;
  /** mutable until the chain is done: the answer may add its own findings to the zone holding the name */
  readonly errors: ChainError[];
  readonly warnings: ChainWarning[];
}

export interface LinkInput {
  readonly zone: string;
  readonly parent: LinkVerdict | null;
  /** the trust anchors, for the anchor zone only */
  readonly anchors: readonly TrustAnchor[] | null;
  readonly ds: Asked | null;
  readonly dnskey: Asked;
}

type Own = { status: ChainStatus; decisive: ChainError | null };

export function evaluateLink(input: LinkInput, ctx: SignatureContext): LinkVerdict {
  const { zone, parent } = input;
  const errors: ChainError[] = [];
  const warnings: ChainWarning[] = [];
  const published = input.dnskey.response
    ? recordsAt(input.dnskey.response.answers, zone, 'DNSKEY').map((r) => r.data as DnskeyData)
    : [];
  const dnskeyRecords = input.dnskey.response ? recordsAt(input.dnskey.response.answers, zone, 'DNSKEY') : [];
  const dnskeySigs = input.dnskey.response ? signaturesOver(input.dnskey.response.answers, zone, 'DNSKEY') : [];
  const parentKeys = parent ? (parent.link.status === 'secure' ? parent.validatedKeys : parent.publishedKeys) : [];
  const parentSecure = parent === null || parent.link.status === 'secure';
  let own: Own | null = null;

  // the DS RRset (or the anchors), authenticated by the parent
  let dsRecords: DsData[] = [];
  if (input.anchors) {
    dsRecords = input.anchors.map((a) => a.ds);
  } else if (input.ds?.failure !== undefined) {
    own = {
      status: 'indeterminate',
      decisive: { code: 'SERVER_FAILURE', message: `the DS question for ${zone} failed: ${input.ds.failure}` },
    };
  } else if (input.ds?.response) {
    const answers = input.ds.response.answers;
    const records = recordsAt(answers, zone, 'DS');
    dsRecords = records.map((r) => r.data as DsData);
    if (records.length > 0 && parent) {
      const checks = signaturesOver(answers, zone, 'DS').map((sig) => ({
        sig,
        check: checkSignature(records, sig, parent.link.zone, parentKeys, ctx),
      }));
      const valid = checks.find((c) => c.check.status === 'valid');
      if (valid) noteExpiry(warnings, `the DS RRset of ${zone}`, valid.sig.expiration, ctx);
      else if (parentSecure)
        own = { status: 'bogus', decisive: signatureFailure(`the DS RRset of ${zone} in ${parent.link.zone}`, checks) };
    } else if (records.length === 0 && parent && parentSecure) {
      const denial = checkDenial(
        input.ds.response,
        { name: zone, type: 'DS' },
        parent.link.zone,
        parent.validatedKeys,
        'no-ds',
        ctx,
      );
      const iterationWarning =
        denial.iterations === null ? null : nsec3IterationWarning(parent.link.zone, denial.iterations);
      if (iterationWarning) warnings.push(iterationWarning);
      own =
        denial.status === 'valid'
          ? { status: 'insecure', decisive: null }
          : {
              status: 'bogus',
              decisive: {
                code: 'INSECURE_DELEGATION_UNPROVEN',
                message: `${parent.link.zone} has no DS for ${zone} and does not prove that there is none: ${denial.reason}`,
              },
            };
    }
  }

  const matches: DsMatch[] = dsRecords.map((ds) => matchDs(zone, ds, published));
  const policy = [
    algorithmFindings(zone, [...dsRecords.map((d) => d.algorithm), ...published.map((k) => k.algorithm)]),
    digestFindings(
      zone,
      dsRecords.map((d) => d.digestType),
    ),
  ];
  for (const p of policy) {
    errors.push(...p.errors);
    warnings.push(...p.warnings);
  }
  const trusted = matches.flatMap((m) => (m.status === 'valid' && m.key ? [m.key] : []));
  const sigChecks = dnskeySigs.map((sig) => ({ sig, check: checkSignature(dnskeyRecords, sig, zone, published, ctx) }));
  const validByTrusted = sigChecks.find(
    (c) => c.check.status === 'valid' && c.check.key !== null && trusted.includes(c.check.key),
  );

  if (own === null && dsRecords.length > 0)
    own = judgeKeys(zone, input, matches, published, trusted, sigChecks, validByTrusted !== undefined, errors);
  if (own === null) own = { status: 'insecure', decisive: null };
  if (!parentSecure && parent) own = { status: parent.link.status, decisive: own.decisive };
  if (own.decisive && !errors.some((e) => e.code === own.decisive!.code)) errors.unshift(own.decisive);
  if (validByTrusted) noteExpiry(warnings, `the DNSKEY RRset of ${zone}`, validByTrusted.sig.expiration, ctx);
  for (const key of trusted.filter((k) => (k.flags & REVOKE) !== 0)) {
    warnings.push({
      code: 'REVOKED_KEY_IN_USE',
      message: `the DS of ${zone} points at key ${keyTag(key)}, which has its REVOKE flag set (RFC 5011 §7)`,
    });
  }

  const dnskeyValidated = validByTrusted !== undefined;
  const dnskeys: DnskeyEntry[] = published.map((key) => ({
    keyTag: keyTag(key),
    algorithm: key.algorithm,
    flags: key.flags,
    sep: (key.flags & 1) !== 0,
    revoked: (key.flags & REVOKE) !== 0,
    bits: keyBits(key.algorithm, Buffer.from(key.publicKey, 'base64')),
    status: trusted.includes(key) ? 'trusted' : dnskeyValidated ? 'signed-by-trusted' : 'unused',
  }));
  const dnskeySignatures: SignatureEntry[] = sigChecks.map(({ sig, check }) => signatureEntry(sig, check, ctx));
  const link: ChainLink = {
    zone,
    status: own.status,
    ds: dsRecords.map((ds, i) => ({
      keyTag: ds.keyTag,
      algorithm: ds.algorithm,
      digestType: ds.digestType,
      digest: ds.digest,
      status: matches[i]!.status,
    })),
    dnskeys,
    dnskeySignatures,
    errors,
    warnings,
  };
  const validatedKeys = own.status === 'secure' ? published.filter((k) => k.zoneKey && k.protocol === 3) : [];
  return { link, validatedKeys, publishedKeys: published, decisive: own.decisive, errors, warnings };
}

const REVOKE = 0x0080;

/** RFC 4035 §5.2 with a DS RRset in hand: which keys it authenticates and whether they sign the key set. */
function judgeKeys(
  zone: string,
  input: LinkInput,
  matches: readonly DsMatch[],
  published: readonly DnskeyData[],
  trusted: readonly DnskeyData[],
  sigChecks: readonly { sig: RrsigData; check: SignatureCheck }[],
  validated: boolean,
  errors: ChainError[],
): Own {
  // RFC 4035 §5.2: a DS RRset with no algorithm and digest this side supports makes the zone insecure
  if (matches.every((m) => m.status === 'unsupported')) {
    if (!errors.some((e) => e.code === 'ALGORITHM_PROHIBITED' || e.code === 'DIGEST_PROHIBITED')) {
      errors.push({
        code: 'ALGORITHM_UNSUPPORTED',
        message: `every DS record of ${zone} uses an algorithm or digest type this side cannot check: the zone is treated as insecure (RFC 4035 §5.2)`,
      });
    }
    return { status: 'insecure', decisive: null };
  }
  if (input.dnskey.failure !== undefined) {
    return {
      status: 'indeterminate',
      decisive: { code: 'SERVER_FAILURE', message: `the DNSKEY question for ${zone} failed: ${input.dnskey.failure}` },
    };
  }
  if (published.length === 0) {
    return {
      status: 'bogus',
      decisive: {
        code: 'DNSKEY_MISSING',
        message: `the parent holds DS records for ${zone}, but ${zone} publishes no DNSKEY`,
      },
    };
  }
  const noTrusted: ChainError = {
    code: 'NO_TRUSTED_DNSKEY',
    message: `no DNSKEY of ${zone} is authenticated by a DS record or trust anchor`,
  };
  if (trusted.length === 0) {
    const mismatch = matches.find((m) => m.status === 'invalid-digest');
    errors.push(noTrusted);
    return {
      status: 'bogus',
      decisive: mismatch
        ? {
            code: 'DS_DIGEST_MISMATCH',
            message: `a DNSKEY of ${zone} has the tag and algorithm of a DS record, but the DS digest does not match it`,
          }
        : {
            code: 'DS_NO_MATCHING_DNSKEY',
            message: `no DNSKEY of ${zone} has the tag and algorithm of its DS records (${matches.length} DS)`,
          },
    };
  }
  if (validated) return { status: 'secure', decisive: null };
  const trustedTags = new Set(trusted.map((k) => `${keyTag(k)}/${k.algorithm}`));
  const byTrusted = sigChecks.filter((c) => trustedTags.has(`${c.sig.keyTag}/${c.sig.algorithm}`));
  errors.push(noTrusted);
  return {
    status: 'bogus',
    decisive: signatureFailure(`the DNSKEY RRset of ${zone} by the key its DS points at`, byTrusted),
  };
}

export function signatureEntry(sig: RrsigData, check: SignatureCheck, ctx: SignatureContext): SignatureEntry {
  return {
    keyTag: sig.keyTag,
    algorithm: sig.algorithm,
    inception: isoTime(sig.inception, ctx.nowSeconds),
    expiration: isoTime(sig.expiration, ctx.nowSeconds),
    status: check.status,
  };
}

export function noteExpiry(warnings: ChainWarning[], what: string, expiration: number, ctx: SignatureContext): void {
  const left = absoluteTime(expiration, ctx.nowSeconds) - ctx.nowSeconds;
  if (left < EXPIRES_SOON_SECONDS && !warnings.some((w) => w.code === 'RRSIG_EXPIRES_SOON')) {
    warnings.push({
      code: 'RRSIG_EXPIRES_SOON',
      message: `the RRSIG over ${what} expires in ${Math.max(0, Math.floor(left / 3600))} hours`,
    });
  }
}
