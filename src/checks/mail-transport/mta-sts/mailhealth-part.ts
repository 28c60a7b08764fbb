/**
 * mta-sts as a part of mailhealth-check (docs/contract/mail-transport.md): the domain's policy, asked as
 * the single check asks it. Pure rule and the part's declaration.
 */
import { mailParts } from '../../composite/mailhealth-check/parts.js';
import type { TransportFinding } from '../../composite/mailhealth-check/transport-rules.js';
import type { HealthCheckStatus } from '../../composite/shared/verdict.js';
import type { MtaStsResult } from './mta-sts.js';
import { runMtaStsCheck } from './run.js';

/** invalid: warning; not configured, mode none or testing: info; enforce: ok. */
export function mtaStsFinding(mtaSts: MtaStsResult): TransportFinding<MtaStsResult> {
  const details = mtaSts;
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

export const mailhealthPart = mailParts.part({
  id: 'mta-sts',
  label: 'MTA-STS policy',
  order: 60,
  description:
    'mta-sts — warning: a policy that cannot be used (invalid: several records, a failed fetch, a bad certificate, a syntax error, an MX host not matched under enforce); info: no policy, mode none or testing; ok: enforce.',
  fieldDescription: "mta-sts's data.",
  facts: (mail) => runMtaStsCheck(mail.checks, mail.domain),
  findings: (mtaSts: MtaStsResult) => [{ host: null, ...mtaStsFinding(mtaSts) }],
});
