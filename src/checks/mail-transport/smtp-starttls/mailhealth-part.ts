/**
 * smtp-starttls as the starttls part of mailhealth-check (docs/contract/mail-transport.md): one check per
 * MX host, its first address, one SMTP session each (shared through the loaders with the dane part). Pure
 * rules, like the composite's own (../../composite/mailhealth-check/rules.ts), and the part's declaration.
 */
import type { CheckContext } from '../../../loaders/context.js';
import { MAIL_TRANSPORT_MAX_HOSTS } from '../../../loaders/fan-out-limits.js';
import { partNotTested, type PartNotTested } from '../../composite/mailhealth-check/details.js';
import { mailParts } from '../../composite/mailhealth-check/parts.js';
import {
  noHosts,
  perHostFindings,
  type HostFacts,
  type HostFinding,
  type MxContext,
} from '../../composite/mailhealth-check/transport-rules.js';
import { perHost } from '../../composite/mailhealth-check/transport-run.js';
import { withoutFinalStop } from '../../composite/shared/finding.js';
import type { HealthCheckStatus } from '../../composite/shared/verdict.js';
import { runSmtpStarttls } from './run.js';
import type { SmtpStarttlsResult } from './starttls.js';

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
): HostFinding<SmtpStarttlsResult | PartNotTested>[] {
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
      details: result,
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

export function starttlsFacts(
  ctx: CheckContext,
  exchanges: readonly string[],
): Promise<HostFacts<SmtpStarttlsResult>[]> {
  return perHost(exchanges, (hostname) =>
    runSmtpStarttls(ctx, { host: { kind: 'hostname', hostname }, port: ctx.ports.smtp }),
  );
}

export const mailhealthPart = mailParts.part({
  id: 'starttls',
  label: 'STARTTLS',
  order: 80,
  perHost: true,
  field: 'starttls',
  description:
    `starttls — one check per MX host (MailCheck.host; its first address, the first ${MAIL_TRANSPORT_MAX_HOSTS} by priority), as smtp-starttls reports it. critical: no STARTTLS (mail to it travels in clear text); ` +
    'warning: STARTTLS failing, or a certificate problem; error: the host could not be reached (port 25 may be blocked on the way out of this service), or not tested (refused by the target rules, no address); ' +
    `info: a host beyond the first ${MAIL_TRANSPORT_MAX_HOSTS}, SMTP probes turned off (smtp.enabled), or no MX host at all (one check, host null); ok otherwise.`,
  fieldDescription: "smtp-starttls's data for the check's MX host (a host not tested has MailPartNotTested details).",
  facts: (mail) => mail.mx.then((mx) => starttlsFacts(mail.checks, mx.exchanges)),
  findings: async (hosts: HostFacts<SmtpStarttlsResult>[], mail) =>
    starttlsFindings(hosts, mail.mxContext(await mail.mx)),
});
