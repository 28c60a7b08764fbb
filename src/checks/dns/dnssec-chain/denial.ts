/**
 * The denial a negative response carries (RFC 4035 §3.1.3, §5.4; RFC 5155 §7.2, §8): its NSEC or
 * NSEC3 RRsets, each accepted only with a valid RRSIG by the zone's keys, and the proof they make.
 */
import type { DnskeyData, DnsResponse, Nsec3Data, NsecData } from '../../../probes/dns/client.js';
import { isAtOrBelow } from './names.js';
import {
  proveNameError,
  proveNoData,
  proveNoDs,
  proveWildcardExpansion,
  type DenialOutcome,
  type NsecRecord,
} from './nsec.js';
import { proveNameError3, proveNoData3, proveNoDs3, proveWildcardExpansion3, type Nsec3Record } from './nsec3.js';
import { signedRrsets, type SignedRrset } from './rrsets.js';
import { checkSignature, type SignatureContext } from './rrsig.js';

/** `wildcard`: the proof that no closer match exists beside a wildcard expansion (RFC 4035 §5.3.4, RFC 5155 §8.8) */
export type DenialPurpose = 'name-error' | 'no-data' | 'no-ds' | { readonly wildcardLabels: number };

export interface DenialCheck {
  readonly kind: 'nsec' | 'nsec3';
  readonly status: 'valid' | 'invalid' | 'missing';
  /** why the proof fails, when `invalid` or `missing` */
  readonly reason: string;
  readonly optOut: boolean | null;
  readonly iterations: number | null;
  /** keys whose signatures over the proof verified */
  readonly signers: readonly DnskeyData[];
}

export function checkDenial(
  response: DnsResponse,
  question: { readonly name: string; readonly type: string },
  zone: string,
  zoneKeys: readonly DnskeyData[],
  purpose: DenialPurpose,
  ctx: SignatureContext,
): DenialCheck {
  const sets = signedRrsets(response.authority).filter(
    (s) => (s.type === 'NSEC' || s.type === 'NSEC3') && isAtOrBelow(s.owner, zone),
  );
  const nsec3Sets = sets.filter((s) => s.type === 'NSEC3');
  const kind = nsec3Sets.length > 0 ? 'nsec3' : 'nsec';
  const used = kind === 'nsec3' ? nsec3Sets : sets.filter((s) => s.type === 'NSEC');
  const first3 = nsec3Sets[0]?.records[0]?.data as Nsec3Data | undefined;
  const iterations = first3 ? first3.iterations : null;
  if (used.length === 0) {
    return {
      kind,
      status: 'missing',
      reason: `the answer carries no NSEC or NSEC3 records from ${zone}`,
      optOut: null,
      iterations,
      signers: [],
    };
  }
  const signers: DnskeyData[] = [];
  const validSets = used.filter((set) => {
    const valid = set.signatures
      .map((sig) => checkSignature(set.records, sig, zone, zoneKeys, ctx))
      .find((c) => c.status === 'valid');
    if (valid?.key) signers.push(valid.key);
    return valid !== undefined;
  });
  const withValid = prove(kind, validSets, question, zone, purpose);
  if (withValid.outcome.proven)
    return { kind, status: 'valid', reason: '', optOut: withValid.optOut, iterations, signers };
  const withAll = prove(kind, used, question, zone, purpose);
  const reason = withAll.outcome.proven
    ? `the ${kind.toUpperCase()} records that would prove it carry no valid signature by ${zone}`
    : withAll.outcome.reason;
  return { kind, status: 'invalid', reason, optOut: withAll.optOut, iterations, signers };
}

function prove(
  kind: 'nsec' | 'nsec3',
  sets: readonly SignedRrset[],
  question: { readonly name: string; readonly type: string },
  zone: string,
  purpose: DenialPurpose,
): { outcome: DenialOutcome; optOut: boolean | null } {
  if (kind === 'nsec') {
    const records: NsecRecord[] = sets.flatMap((s) =>
      s.records.map((r) => ({
        owner: s.owner,
        next: (r.data as NsecData).nextDomain,
        types: (r.data as NsecData).types,
      })),
    );
    const outcome =
      typeof purpose === 'object'
        ? proveWildcardExpansion(question.name, zone, records)
        : purpose === 'name-error'
          ? proveNameError(question.name, zone, records)
          : purpose === 'no-ds'
            ? proveNoDs(question.name, zone, records)
            : proveNoData(question.name, question.type, zone, records);
    return { outcome, optOut: null };
  }
  const records: Nsec3Record[] = sets.flatMap((s) =>
    s.records.map((r) => ({ owner: s.owner, ...(r.data as Nsec3Data) })),
  );
  const result =
    typeof purpose === 'object'
      ? proveWildcardExpansion3(question.name, purpose.wildcardLabels, records)
      : purpose === 'name-error'
        ? proveNameError3(question.name, zone, records)
        : purpose === 'no-ds'
          ? proveNoDs3(question.name, zone, records)
          : proveNoData3(question.name, question.type, zone, records);
  return { outcome: result.outcome, optOut: result.optOut };
}
