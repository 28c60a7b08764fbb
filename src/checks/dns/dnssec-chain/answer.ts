/**
 * The answer to the question, judged with the keys of the zone holding the name (RFC 4035 §5.3):
 * each RRset at the name needs a valid RRSIG by an authenticated key; a NXDOMAIN or NODATA needs its
 * NSEC/NSEC3 proof (RFC 4035 §5.4, RFC 5155 §8).
 */
import type { DnskeyData, RecordType } from '../../../probes/dns/client.js';
import { checkDenial } from './denial.js';
import type { LinkVerdict } from './link.js';
import { noteExpiry } from './link.js';
import { labelCount, sameName } from './names.js';
import type { Asked } from './observations.js';
import { nsec3IterationWarning } from './policy.js';
import { presentRecord } from './presentation.js';
import type { AnswerSignature, ChainAnswer, ChainError, ChainStatus } from './result.js';
import { signedRrsets } from './rrsets.js';
import { checkSignature, type SignatureContext } from './rrsig.js';
import { signatureFailure } from './signature-failure.js';
import { isoTime } from './time.js';

export interface AnswerVerdict {
  readonly answer: ChainAnswer;
  readonly decisive: ChainError | null;
}

const REVOKE = 0x0080;

export function evaluateAnswer(
  qname: string,
  qtype: RecordType,
  asked: Asked,
  holding: LinkVerdict,
  ctx: SignatureContext,
): AnswerVerdict {
  const zone = holding.link.zone;
  const zoneSecure = holding.link.status === 'secure';
  const keys: readonly DnskeyData[] = zoneSecure ? holding.validatedKeys : holding.publishedKeys;
  if (asked.failure !== undefined) {
    const decisive: ChainError = {
      code: 'SERVER_FAILURE',
      message: `the question ${qname} ${qtype} failed: ${asked.failure}`,
    };
    return {
      answer: {
        name: qname,
        type: qtype,
        rcode: null,
        records: [],
        signatures: [],
        status: 'indeterminate',
        denial: null,
      },
      decisive,
    };
  }
  const response = asked.response;
  const sets = signedRrsets(response.answers).filter((s) => sameName(s.owner, qname));
  const signatures: AnswerSignature[] = [];
  const signers: DnskeyData[] = [];
  let failure: ChainError | null = null;
  for (const set of sets) {
    const checks = set.signatures.map((sig) => ({ sig, check: checkSignature(set.records, sig, zone, keys, ctx) }));
    for (const { sig, check } of checks) {
      signatures.push({
        signer: sig.signerName === '' ? '.' : sig.signerName,
        keyTag: sig.keyTag,
        algorithm: sig.algorithm,
        inception: isoTime(sig.inception, ctx.nowSeconds),
        expiration: isoTime(sig.expiration, ctx.nowSeconds),
        status: check.status,
      });
      if (check.status === 'valid' && check.key) signers.push(check.key);
    }
    const valid = checks.find((c) => c.check.status === 'valid');
    if (valid) noteExpiry(holding.warnings, `${qname} ${set.type}`, valid.sig.expiration, ctx);
    else failure ??= signatureFailure(`${qname} ${set.type}`, checks);
    if (valid && valid.sig.labels < labelCount(set.owner)) {
      // RFC 4035 §5.3.4: a wildcard expansion holds only beside the proof that the name itself does not exist
      const proof = checkDenial(
        response,
        { name: qname, type: qtype },
        zone,
        keys,
        { wildcardLabels: valid.sig.labels },
        ctx,
      );
      signers.push(...proof.signers);
      if (proof.status !== 'valid') {
        failure ??= {
          code: proof.status === 'missing' ? 'DENIAL_MISSING' : 'DENIAL_INVALID',
          message: `${qname} ${set.type} comes from a wildcard without proof that ${qname} does not exist: ${proof.reason}`,
        };
      }
    }
  }

  let denial: ChainAnswer['denial'] = null;
  const negative = response.rcode === 'NXDOMAIN' || sets.length === 0;
  if (negative) {
    const check = checkDenial(
      response,
      { name: qname, type: qtype },
      zone,
      keys,
      response.rcode === 'NXDOMAIN' ? 'name-error' : 'no-data',
      ctx,
    );
    signers.push(...check.signers);
    denial = { kind: check.kind, status: check.status, iterations: check.iterations, optOut: check.optOut };
    const iterationWarning = check.iterations === null ? null : nsec3IterationWarning(zone, check.iterations);
    if (iterationWarning && !holding.warnings.some((w) => w.code === 'NSEC3_ITERATIONS'))
      holding.warnings.push(iterationWarning);
    if (check.status === 'missing')
      failure = {
        code: 'DENIAL_MISSING',
        message: `${response.rcode === 'NXDOMAIN' ? 'NXDOMAIN' : 'NODATA'} for ${qname} ${qtype} without proof: ${check.reason}`,
      };
    else if (check.status === 'invalid')
      failure = { code: 'DENIAL_INVALID', message: `the denial of ${qname} ${qtype} does not hold: ${check.reason}` };
  }
  if (signers.some((k) => (k.flags & REVOKE) !== 0) && !holding.warnings.some((w) => w.code === 'REVOKED_KEY_IN_USE')) {
    holding.warnings.push({
      code: 'REVOKED_KEY_IN_USE',
      message: `a key of ${zone} with its REVOKE flag set (RFC 5011 §7) still signs ${qname}`,
    });
  }

  let status: ChainStatus = holding.link.status;
  let decisive: ChainError | null = null;
  if (zoneSecure) {
    status = failure ? 'bogus' : 'secure';
    decisive = failure;
    if (failure && !holding.errors.some((e) => e.code === failure!.code)) holding.errors.push(failure);
  }
  return {
    answer: {
      name: qname,
      type: qtype,
      rcode: response.rcode,
      records: response.answers.filter((r) => r.type !== 'RRSIG').map(presentRecord),
      signatures,
      status,
      denial,
    },
    decisive,
  };
}
