/**
 * mailhealth-check: the rules of the mail transport parts (mail-transport.md) — starttls, dane,
 * mta-sts, tls-rpt, bimi. Pure, like rules.ts: the single checks' data in, a status, a
 * one-sentence summary and the details out. The table of rules in docs/tools/notes/mailhealth-check.md
 * is written from this file.
 *
 * starttls and dane judge each MX host on its own (its first address, the first MAIL_TRANSPORT_MAX_HOSTS
 * by priority, fan-out-limits.ts): one check per host, so that each host's data is its single check's, and
 * the verdict names the host that needs work. A host the target rules refuse, or whose address cannot be
 * resolved, is that host's `error`.
 */
import type { TlsRptCheckResult } from '../../mail-transport/tls-rpt/tls-rpt.js';
import type { DaneResult } from '../../mail-transport/dane/dane.js';
import type { SmtpStarttlsResult } from '../../mail-transport/smtp-starttls/starttls.js';
import type { BimiResult } from '../../mail-transport/bimi/bimi.js';
import type { MtaStsResult } from '../../mail-transport/mta-sts/mta-sts.js';
import { MAIL_TRANSPORT_MAX_HOSTS } from '../../../loaders/fan-out-limits.js';
import {
  partNotTested,
  type BimiDetails,
  type DaneDetails,
  type MtaStsDetails,
  type NotTestedReason,
  type PartNotTested,
  type StarttlsDetails,
  type TlsRptDetails,
} from './details.js';
import type { HealthCheckStatus } from '../shared/verdict.js';
import { listInProse } from '../shared/verdict.js';
import { withoutFinalStop } from '../shared/finding.js';
import type { BrokenLink } from '../../dns/dnssec-chain/result.js';
import { describeBrokenLink } from '../../dns/dnssec-chain/broken-link.js';

/** dane's result for one MX host; bogus records with the link of their chain of trust that breaks (dnssec-chain). */
export type DaneFacts = DaneResult & { readonly brokenLink?: BrokenLink | null };

/** What a per-host part learnt of one MX host. */
export type HostFacts<R> =
  /** the single check's result */
  | { host: string; result: R }
  /** the host could not be tested: refused by the target rules, no address, a failed resolution */
  | { host: string; failure: string }
  /** beyond the first MAIL_TRANSPORT_MAX_HOSTS by priority: left out on purpose */
  | { host: string; omitted: true };

export interface TransportFinding<D> {
  status: HealthCheckStatus;
  summary: string;
  error?: string;
  details: D;
}

/** A per-host part's finding about one MX host; host null: about the domain (it has no MX host to test). */
export interface HostFinding<D> extends TransportFinding<D> {
  host: string | null;
}

/** What the mx part knows (the domain takes no mail, or has no MX host to test), and whether SMTP probes run. */
export interface MxContext {
  nullMx: boolean;
  hostCount: number;
  /** config smtp.enabled: false where outbound port 25 is blocked */
  smtpProbes: boolean;
}

function noHosts(mx: MxContext): { status: HealthCheckStatus; summary: string; reason: NotTestedReason } | null {
  if (mx.nullMx)
    return {
      status: 'info',
      summary: 'The domain accepts no mail (null MX): there is no mail server to test.',
      reason: 'null-mx',
    };
  if (mx.hostCount === 0)
    return {
      status: 'info',
      summary: 'The domain has no MX host to test (see the MX check).',
      reason: 'no-mx-hosts',
    };
  return null;
}

/**
 * One finding per MX host, by `judge` for a host with a result; the same words for the hosts that were
 * not tested in either part; a single info finding when there is no MX host at all. A host without a
 * result has details all the same, saying why (PartNotTested).
 */
function perHostFindings<R, D>(
  hosts: readonly HostFacts<R>[],
  mx: MxContext,
  judge: (host: string, result: R) => TransportFinding<D>,
): HostFinding<D | PartNotTested>[] {
  const none = noHosts(mx);
  if (none) return [{ host: null, status: none.status, summary: none.summary, details: partNotTested(none.reason) }];
  return hosts.map((facts): HostFinding<D | PartNotTested> => {
    const { host } = facts;
    if ('result' in facts) return { host, ...judge(host, facts.result) };
    if ('omitted' in facts)
      return {
        host,
        status: 'info',
        summary: `${host} was not tested: only the first ${MAIL_TRANSPORT_MAX_HOSTS} MX hosts by priority are (senders seldom get further).`,
        details: partNotTested('beyond-host-limit', [host]),
      };
    return {
      host,
      status: 'error',
      error: facts.failure,
      summary: `${host} could not be tested (${withoutFinalStop(facts.failure)}); run the health check again, and if it persists, check the host's address records.`,
      details: partNotTested('host-not-testable', [host]),
    };
  });
}

/**
 * Each MX host:
 * - not reached (refused, no answer, not SMTP): error (port 25 may be blocked on the way out of this service);
 * - no STARTTLS offered: critical (mail to it travels in clear text);
 * - STARTTLS failing (refused or handshake failed): warning (senders fall back to clear text or defer);
 * - a certificate problem: warning (many MTAs deliver anyway, but DANE and MTA-STS senders do not);
 * - otherwise ok.
 * With SMTP probes turned off (smtp.enabled false) every host is info, not tested.
 */
export function starttlsFindings(
  hosts: readonly HostFacts<SmtpStarttlsResult>[],
  mx: MxContext,
): HostFinding<StarttlsDetails | PartNotTested>[] {
  const details = (starttls: SmtpStarttlsResult): StarttlsDetails => ({ starttls });
  if (!mx.smtpProbes && !noHosts(mx))
    return hosts.map((h) => ({
      host: h.host,
      status: 'info',
      summary: `${h.host} was not tested: SMTP probes are turned off on this instance (smtp.enabled).`,
      details: partNotTested('smtp-probes-off', [h.host]),
    }));
  return perHostFindings(hosts, mx, (host, result) => {
    const finding = (status: HealthCheckStatus, summary: string, error?: string) => ({
      status,
      summary,
      details: details(result),
      ...(error !== undefined ? { error } : {}),
    });
    switch (result.status) {
      case 'unreachable': {
        const reason = result.error ?? 'no SMTP answer';
        return finding(
          'error',
          `${host} could not be reached over SMTP (${withoutFinalStop(reason)}); check that port 25 is open to this service, then run the check again.`,
          reason,
        );
      }
      case 'no-starttls':
        return finding(
          'critical',
          `${host} does not offer STARTTLS, so mail to it travels in clear text; enable STARTTLS with a valid certificate.`,
        );
      case 'tls-failed':
        return finding(
          'warning',
          `STARTTLS fails on ${host} (${withoutFinalStop(result.error ?? 'handshake failed')}); senders fall back to clear text or defer: fix the TLS set-up.`,
        );
      case 'certificate-problem':
        return finding(
          'warning',
          `The certificate of ${host} is ${result.tls?.certificate.status ?? 'not valid'}; senders that check it (MTA-STS, DANE) will not deliver: install a valid certificate for the MX name.`,
        );
      case 'ok':
        return finding('ok', `${host} offers STARTTLS with a valid certificate.`);
    }
  });
}

/**
 * Each MX host:
 * - a TLSA mismatch, or TLSA records that do not validate (bogus): critical (DANE senders will not deliver);
 * - secure records that are unusable for SMTP, or a chain that could not be had: warning (with SMTP
 *   probes turned off the chain is never fetched: info);
 * - no TLSA records, or records that are not DNSSEC-signed: info (DANE is not in use);
 * - valid: ok.
 */
export function daneFindings(
  hosts: readonly HostFacts<DaneFacts>[],
  mx: MxContext,
): HostFinding<DaneDetails | PartNotTested>[] {
  const details = (dane: DaneResult): DaneDetails => ({ dane });
  return perHostFindings(hosts, mx, (host, result) => {
    const finding = (status: HealthCheckStatus, summary: string) => ({ status, summary, details: details(result) });
    if (result.status === 'mismatch')
      return finding(
        'critical',
        `No TLSA record of ${host} matches the certificate it presents: DANE-aware senders will not deliver; publish TLSA records for the current certificate or key.`,
      );
    if (result.dnssec === 'bogus')
      return finding(
        'critical',
        `The TLSA records of ${host} do not validate (DNSSEC bogus${result.brokenLink ? `: ${describeBrokenLink(result.brokenLink)}` : ''}): DANE-aware senders will not deliver; fix the zone's signatures.`,
      );
    switch (result.status) {
      case 'error':
      case 'unusable':
        // without SMTP probes secure records cannot be matched: worth knowing, not a fault
        if (result.status === 'error' && !mx.smtpProbes)
          return finding(
            'info',
            `TLSA records exist for ${host} but cannot be matched here: SMTP probes are turned off on this instance (smtp.enabled).`,
          );
        return finding(
          'warning',
          `DANE cannot be verified for ${host} (${withoutFinalStop(result.error ?? 'only TLSA usages 0 and 1, which SMTP ignores')}); use DANE-EE (3 1 1) or DANE-TA records.`,
        );
      case 'insecure':
        return finding('info', `TLSA records exist for ${host} but are not DNSSEC-signed, so senders ignore them.`);
      case 'no-tlsa':
        return finding(
          'info',
          `${host} publishes no TLSA records: DANE is not in use for it (it needs a DNSSEC-signed zone).`,
        );
      case 'valid':
        return finding('ok', `DANE validates for ${host}.`);
    }
  });
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
