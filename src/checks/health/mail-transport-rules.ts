/**
 * mailhealth-check: the rules of the mail transport parts (mail-transport.md) — starttls, dane,
 * mta-sts, tls-rpt, bimi. Pure, like mail-rules.ts: the single checks' data in, a status, a
 * one-sentence summary and the details out. The README table of rules is written from this file.
 *
 * starttls and dane test each MX host (its first address, at most MAIL_TRANSPORT_MAX_HOSTS by
 * priority, fan-out-limits.ts); an MX host the target rules refuse, or whose address cannot be resolved, is `skipped`
 * with the reason.
 */
import type { TlsRptCheckResult } from '../mail/tls-rpt.js';
import type { DaneResult } from '../mail/dane.js';
import type { SmtpStarttlsResult } from '../mail/starttls.js';
import type { BimiResult } from '../mail/bimi.js';
import type { MtaStsResult } from '../mail/mta-sts.js';
import type {
  BimiDetails,
  DaneDetails,
  MtaStsDetails,
  StarttlsDetails,
  TlsRptDetails,
  TransportSkip,
} from './mail-details.js';
import type { HealthCheckStatus } from '../composite/verdict.js';
import { listInProse } from '../composite/verdict.js';

/** What a per-host part found: one single-check result per MX host tested, and the hosts not tested. */
export interface PerHostFacts<R> {
  hosts: R[];
  skipped: TransportSkip[];
}

export interface TransportFinding<D> {
  status: HealthCheckStatus;
  summary: string;
  error?: string;
  details: D;
}

/** What the mx part knows (the domain takes no mail, or has no MX host to test), and whether SMTP probes run. */
export interface MxContext {
  nullMx: boolean;
  hostCount: number;
  /** config smtp.enabled: false where outbound port 25 is blocked */
  smtpProbes: boolean;
}

function noHosts(mx: MxContext): { status: HealthCheckStatus; summary: string } | null {
  if (mx.nullMx)
    return { status: 'info', summary: 'The domain accepts no mail (null MX): there is no mail server to test.' };
  if (mx.hostCount === 0) return { status: 'info', summary: 'The domain has no MX host to test (see the MX check).' };
  return null;
}

function names(items: readonly { host: string }[]): string {
  return listInProse(items.map((i) => i.host));
}

/**
 * - no MX host: info; every host unreachable or skipped: error (the reason; port 25 may be blocked on
 *   the way out of this service);
 * - an MX host that does not offer STARTTLS: critical (mail to it travels in clear text);
 * - STARTTLS failing (refused or handshake failed): warning (senders fall back to clear text or defer);
 * - a certificate problem: warning (many MTAs deliver anyway, but DANE and MTA-STS senders do not);
 * - some hosts unreachable: warning; otherwise ok.
 */
export function starttlsFinding(
  facts: PerHostFacts<SmtpStarttlsResult>,
  mx: MxContext,
): TransportFinding<StarttlsDetails> {
  const details: StarttlsDetails = { starttls: facts.hosts, notTested: facts.skipped };
  const finding = (status: HealthCheckStatus, summary: string, error?: string) => ({
    status,
    summary,
    details,
    ...(error !== undefined ? { error } : {}),
  });
  const none = noHosts(mx);
  if (none) return finding(none.status, none.summary);
  if (!mx.smtpProbes)
    return finding('info', 'The MX hosts were not tested: SMTP probes are turned off on this instance (smtp.enabled).');
  const reached = facts.hosts.filter((h) => h.status !== 'unreachable');
  const unreachable = facts.hosts.filter((h) => h.status === 'unreachable');
  if (reached.length === 0) {
    const reason = unreachable[0]?.error ?? facts.skipped[0]?.reason ?? 'no MX host could be tested';
    return finding(
      'error',
      `No MX host could be reached over SMTP (${reason}); check that port 25 is open to this service, then run the check again.`,
      reason,
    );
  }
  const plain = reached.filter((h) => h.status === 'no-starttls');
  if (plain.length > 0)
    return finding(
      'critical',
      `${names(plain)} ${plain.length === 1 ? 'does' : 'do'} not offer STARTTLS, so mail to ${plain.length === 1 ? 'it' : 'them'} travels in clear text; enable STARTTLS with a valid certificate.`,
    );
  const failed = reached.filter((h) => h.status === 'tls-failed');
  if (failed.length > 0)
    return finding(
      'warning',
      `STARTTLS fails on ${names(failed)} (${failed[0]!.error ?? 'handshake failed'}); senders fall back to clear text or defer: fix the TLS set-up.`,
    );
  const certificates = reached.filter((h) => h.status === 'certificate-problem');
  if (certificates.length > 0)
    return finding(
      'warning',
      `The certificate of ${names(certificates)} is ${certificates[0]!.tls?.certificate.status ?? 'not valid'}; senders that check it (MTA-STS, DANE) will not deliver: install a valid certificate for the MX name.`,
    );
  if (unreachable.length > 0 || facts.skipped.length > 0)
    return finding(
      'warning',
      `STARTTLS works on ${names(reached)}, but ${names([...unreachable, ...facts.skipped])} could not be tested.`,
    );
  return finding('ok', `Every MX host offers STARTTLS with a valid certificate (${names(reached)}).`);
}

/**
 * - a TLSA mismatch, or TLSA records that do not validate (bogus): critical (DANE senders will not deliver);
 * - secure records that are unusable for SMTP, or a chain that could not be had: warning;
 * - no TLSA records, or records that are not DNSSEC-signed: info (DANE is not in use);
 * - otherwise ok (every tested host with TLSA validates).
 */
export function daneFinding(facts: PerHostFacts<DaneResult>, mx: MxContext): TransportFinding<DaneDetails> {
  const details: DaneDetails = { dane: facts.hosts, notTested: facts.skipped };
  const finding = (status: HealthCheckStatus, summary: string) => ({ status, summary, details });
  const none = noHosts(mx);
  if (none) return finding(none.status, none.summary);
  const by = (status: DaneResult['status']) => facts.hosts.filter((h) => h.status === status);
  const mismatch = by('mismatch');
  if (mismatch.length > 0)
    return finding(
      'critical',
      `No TLSA record of ${names(mismatch)} matches the certificate it presents: DANE-aware senders will not deliver; publish TLSA records for the current certificate or key.`,
    );
  const bogus = facts.hosts.filter((h) => h.dnssec === 'bogus');
  if (bogus.length > 0)
    return finding(
      'critical',
      `The TLSA records of ${names(bogus)} do not validate (DNSSEC bogus): DANE-aware senders will not deliver; fix the zone's signatures.`,
    );
  // without SMTP probes (smtp.enabled false) secure records cannot be matched: worth knowing, not a fault
  const unverified = mx.smtpProbes ? [] : by('error').filter((h) => h.dnssec !== 'bogus');
  const broken = [...by('unusable'), ...by('error').filter((h) => !unverified.includes(h))];
  if (broken.length > 0)
    return finding(
      'warning',
      `DANE cannot be verified for ${names(broken)} (${broken[0]!.error ?? 'only TLSA usages 0 and 1, which SMTP ignores'}); use DANE-EE (3 1 1) or DANE-TA records.`,
    );
  const valid = by('valid');
  if (valid.length === 0 && unverified.length > 0)
    return finding(
      'info',
      `TLSA records exist for ${names(unverified)} but cannot be matched here: SMTP probes are turned off on this instance (smtp.enabled).`,
    );
  if (valid.length === 0)
    return finding(
      'info',
      by('insecure').length > 0
        ? `TLSA records exist for ${names(by('insecure'))} but are not DNSSEC-signed, so senders ignore them.`
        : 'No MX host publishes TLSA records: DANE is not in use (it needs a DNSSEC-signed zone).',
    );
  return finding('ok', `DANE validates for ${names(valid)}.`);
}

/** invalid: warning; not configured, mode none or testing: info; enforce: ok. */
export function mtaStsFinding(mtaSts: MtaStsResult): TransportFinding<MtaStsDetails> {
  const details: MtaStsDetails = { mtaSts };
  const finding = (status: HealthCheckStatus, summary: string) => ({ status, summary, details });
  switch (mtaSts.status) {
    case 'invalid':
      return finding(
        'warning',
        `The MTA-STS policy cannot be used (${mtaSts.errors[0] ?? 'invalid'}); senders treat the domain as having none: fix the policy or its record.`,
      );
    case 'not-configured':
      return finding('info', 'No MTA-STS policy: senders cannot insist on TLS (RFC 8461).');
    case 'none':
      return finding('info', 'The MTA-STS policy is in mode none: it asks nothing of senders.');
    case 'testing':
      return finding('info', 'The MTA-STS policy is in testing mode: failures are reported, not enforced.');
    case 'enforce':
      return finding('ok', 'The MTA-STS policy is enforced.');
  }
}

/**
 * - a record that is not valid: warning;
 * - no record while MTA-STS or DANE is in use: warning (failures go unreported, RFC 8460 §1);
 * - no record otherwise: info; valid: ok.
 */
export function tlsRptFinding(
  tlsRpt: TlsRptCheckResult,
  transport: { mtaSts: boolean; dane: boolean },
): TransportFinding<TlsRptDetails> {
  const details: TlsRptDetails = { tlsRpt };
  const finding = (status: HealthCheckStatus, summary: string) => ({ status, summary, details });
  if (tlsRpt.found && !tlsRpt.valid)
    return finding(
      'warning',
      `The TLS-RPT record is not valid (${tlsRpt.errors[0] ?? (tlsRpt.multiple ? 'several records' : 'invalid')}); fix it so that TLS failures are reported.`,
    );
  if (!tlsRpt.found) {
    const uses = [...(transport.mtaSts ? ['MTA-STS'] : []), ...(transport.dane ? ['DANE'] : [])];
    return uses.length > 0
      ? finding(
          'warning',
          `The domain uses ${uses.join(' and ')} but publishes no TLS-RPT record: delivery failures go unreported; publish v=TLSRPTv1 at _smtp._tls.${tlsRpt.domain}.`,
        )
      : finding('info', 'No TLS-RPT record: TLS delivery failures are not reported to the domain.');
  }
  return finding('ok', `TLS failures are reported to ${listInProse(tlsRpt.rua)}.`);
}

/** absent: info; invalid: warning; valid: ok. */
export function bimiFinding(bimi: BimiResult): TransportFinding<BimiDetails> {
  const details: BimiDetails = { bimi };
  const finding = (status: HealthCheckStatus, summary: string) => ({ status, summary, details });
  if (bimi.status === 'not-configured') return finding('info', 'No BIMI record: mail clients show no brand logo.');
  if (bimi.status === 'invalid')
    return finding('warning', `The BIMI record cannot be used (${bimi.errors[0] ?? 'invalid'}).`);
  return finding('ok', 'A BIMI logo is published and the DMARC policy makes it eligible.');
}
