/**
 * The verdict of dnssec-test (decisions §4) from observations a validating resolver gives.
 *
 * Observations (gathered by the caller):
 * - dnskeyCount: DNSKEY records at the name (asked with DO and CD, so a broken chain still shows keys);
 * - adWithDo: a query with DO and without CD came back with AD set: the resolver authenticated
 *   every RRset of the answer (RFC 4035 §3.2.3, RFC 6840 §5.8);
 * - servfailWithoutCd: that query failed with SERVFAIL;
 * - answerWithCd: the same question with CD set was answered (RFC 4035 §3.2.2: CD asks the
 *   resolver to skip validation, so only a validation failure tells these two apart);
 * - dsPresent: the parent zone holds a DS RRset for the name (RFC 4034 §5, RFC 4035 §2.4).
 *
 * Decision table, first matching row wins:
 * | # | observation                                    | status   | why |
 * |---|------------------------------------------------|----------|-----|
 * | 1 | servfailWithoutCd and answerWithCd             | bogus    | validation failed: the data is there but does not validate (RFC 4033 §5 "Bogus", RFC 4035 §5.5) |
 * | 2 | servfailWithoutCd and not answerWithCd         | (error)  | the zone's servers fail with or without validation: not a DNSSEC verdict, a 502 |
 * | 3 | adWithDo                                       | enabled  | a chain of trust from the root validates (RFC 4033 §5 "Secure"); also holds for a name inside a signed zone that has no DNSKEY of its own |
 * | 4 | dsPresent and dnskeyCount = 0                  | bogus    | the parent promises a signed child that publishes no key: a validator must reject it (RFC 4035 §5.2) |
 * | 5 | dnskeyCount > 0                                | insecure | the zone is signed but its answers do not validate to the root: no DS at the parent, or a DS whose algorithm the resolver does not support (RFC 4035 §5.2 treats that as insecure) |
 * | 6 | otherwise                                      | disabled | no DNSKEY and no DS: the zone is unsigned |
 *
 * `validated` is true exactly for `enabled`.
 */
import { ProbeError } from '../../../probes/errors.js';

export interface DnssecObservations {
  dnskeyCount: number;
  adWithDo: boolean;
  servfailWithoutCd: boolean;
  answerWithCd: boolean;
  dsPresent: boolean;
  /** "host:port" of the resolver that was asked, named in the error of row 2 */
  resolver?: string;
}

export type DnssecStatus = 'enabled' | 'insecure' | 'disabled' | 'bogus';

export interface DnssecVerdict {
  keyCount: number;
  validated: boolean;
  status: DnssecStatus;
  /** one sentence naming the table row that decided */
  reason: string;
}

/** Throws ProbeError('SERVFAIL') for row 2 of the table (the check could not run). */
export function dnssecVerdict(o: DnssecObservations): DnssecVerdict {
  const verdict = (status: DnssecStatus, reason: string): DnssecVerdict => ({
    keyCount: o.dnskeyCount,
    validated: status === 'enabled',
    status,
    reason,
  });
  if (o.servfailWithoutCd && o.answerWithCd) {
    return verdict(
      'bogus',
      'the validating resolver answers SERVFAIL, but answers with checking disabled: the signatures do not validate',
    );
  }
  if (o.servfailWithoutCd) {
    throw new ProbeError(
      'SERVFAIL',
      o.resolver ?? 'resolver',
      'the resolver answered SERVFAIL with and without checking disabled: the zone cannot be resolved, so DNSSEC cannot be judged',
    );
  }
  if (o.adWithDo) return verdict('enabled', 'the validating resolver authenticated the answer (AD bit set)');
  if (o.dsPresent && o.dnskeyCount === 0) {
    return verdict('bogus', 'the parent zone has a DS record but the zone publishes no DNSKEY');
  }
  if (o.dnskeyCount > 0) {
    return verdict(
      'insecure',
      o.dsPresent
        ? 'the zone is signed and has a DS record, but the resolver did not authenticate the answer (unsupported algorithm or no validation)'
        : 'the zone is signed but the parent zone has no DS record: there is no chain of trust',
    );
  }
  return verdict('disabled', 'the zone publishes no DNSKEY and the parent has no DS record: the zone is unsigned');
}
