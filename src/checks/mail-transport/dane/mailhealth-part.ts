/**
 * dane as a part of mailhealth-check (docs/contract/mail-transport.md): one check per MX host, on port
 * 25, matched against the chain of the host's STARTTLS session (the loaders share that session with the
 * starttls part). Pure rules, like the composite's own (../../composite/mailhealth-check/rules.ts), and
 * the part's declaration.
 */
import type { CheckContext } from '../../../loaders/context.js';
import type { PartNotTested } from '../../composite/mailhealth-check/details.js';
import { mailParts } from '../../composite/mailhealth-check/parts.js';
import {
  perHostFindings,
  type HostFacts,
  type HostFinding,
  type MxContext,
} from '../../composite/mailhealth-check/transport-rules.js';
import { perHost } from '../../composite/mailhealth-check/transport-run.js';
import { withoutFinalStop } from '../../composite/shared/finding.js';
import type { HealthCheckStatus } from '../../composite/shared/verdict.js';
import { bogusBrokenLink, describeBrokenLink } from '../../dns/dnssec-chain/broken-link.js';
import type { BrokenLink } from '../../dns/dnssec-chain/result.js';
import { MAIL_TRANSPORT_MAX_HOSTS } from '../../../loaders/fan-out-limits.js';
import type { DaneResult } from './dane.js';
import { runDane } from './run.js';

/** dane's result for one MX host; bogus records with the link of their chain of trust that breaks (dnssec-chain). */
export type DaneFacts = DaneResult & { readonly brokenLink?: BrokenLink | null };

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
): HostFinding<DaneResult | PartNotTested>[] {
  return perHostFindings(hosts, mx, (host, result) => {
    const finding = (status: HealthCheckStatus, summary: string) => ({ status, summary, details: result });
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

/** dane per MX host; bogus TLSA records come with the link of their chain of trust that breaks (dnssec-chain). */
export function daneFacts(ctx: CheckContext, exchanges: readonly string[]): Promise<HostFacts<DaneFacts>[]> {
  return perHost(exchanges, async (host): Promise<DaneFacts> => {
    const result = await runDane(ctx, { host, port: ctx.ports.smtp });
    if (result.dnssec !== 'bogus') return result;
    return { ...result, brokenLink: await bogusBrokenLink(ctx, result.name, 'TLSA') };
  });
}

/** DANE is in use when a tested MX host has secure TLSA records. */
export function usesDane(hosts: readonly HostFacts<DaneResult>[] | null): boolean {
  return hosts?.some((h) => 'result' in h && h.result.tlsa.length > 0 && h.result.dnssec === 'secure') ?? false;
}

export const mailhealthPart = mailParts.part({
  id: 'dane',
  label: 'DANE',
  order: 90,
  perHost: true,
  description:
    `dane — one check per MX host (MailCheck.host; the first ${MAIL_TRANSPORT_MAX_HOSTS} by priority), as dane reports it on port 25, matched against the chain of starttls's session. critical: a TLSA mismatch or bogus TLSA records (DANE senders will not deliver); ` +
    'warning: records unusable for SMTP, or no chain to match; error: the host could not be tested; info: no TLSA records, records not DNSSEC-signed (DANE not in use), a host beyond the first ones, or no MX host at all (one check, host null); ok: valid.',
  fieldDescription: "dane's data for the check's MX host (a host not tested has MailPartNotTested details).",
  facts: (mail) => mail.mx.then((mx) => daneFacts(mail.checks, mx.exchanges)),
  findings: async (hosts: HostFacts<DaneFacts>[], mail) => daneFindings(hosts, mail.mxContext(await mail.mx)),
});
