/**
 * tls-rpt as a part of mailhealth-check (docs/contract/mail-transport.md): the domain's reporting policy,
 * judged with what the mta-sts and dane parts found (a domain using either should publish one). Pure rule
 * and the part's declaration.
 */
import { mailParts } from '../../composite/mailhealth-check/parts.js';
import type { HostFacts, TransportFinding } from '../../composite/mailhealth-check/transport-rules.js';
import { listInProse, type HealthCheckStatus } from '../../composite/shared/verdict.js';
import { usesDane, type DaneFacts } from '../dane/mailhealth-part.js';
import type { MtaStsResult } from '../mta-sts/mta-sts.js';
import { runTlsRptCheck } from './run.js';
import type { TlsRptCheckResult } from './tls-rpt.js';

/**
 * - a record that is not valid: warning;
 * - no record while MTA-STS or DANE is in use: warning (failures go unreported, RFC 8460 §1);
 * - no record otherwise: info; valid: ok.
 */
export function tlsRptFinding(
  tlsRpt: TlsRptCheckResult,
  transport: { mtaSts: boolean; dane: boolean },
): TransportFinding<TlsRptCheckResult> {
  const details = tlsRpt;
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

export const mailhealthPart = mailParts.part({
  id: 'tls-rpt',
  label: 'TLS reporting',
  order: 70,
  description:
    'tls-rpt — warning: a record that is not valid, or none while the domain uses MTA-STS or DANE (delivery failures go unreported, RFC 8460); info: no record; ok: a valid record.',
  fieldDescription: "tls-rpt's data.",
  facts: (mail) => runTlsRptCheck(mail.checks, mail.domain),
  // whether MTA-STS or DANE is in use is unknown when their part failed: then it reads as not in use
  findings: async (tlsRpt: TlsRptCheckResult, mail) => {
    const [mtaSts, dane] = await Promise.all([
      (mail.factsOf('mta-sts') as Promise<MtaStsResult>).catch(() => null),
      (mail.factsOf('dane') as Promise<HostFacts<DaneFacts>[]>).catch(() => null),
    ]);
    return [{ host: null, ...tlsRptFinding(tlsRpt, { mtaSts: mtaSts?.found ?? false, dane: usesDane(dane) }) }];
  },
});
