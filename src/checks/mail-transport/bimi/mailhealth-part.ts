/**
 * bimi as a part of mailhealth-check (docs/contract/mail-transport.md): the domain's logo record, selector
 * "default", asked as the single check asks it. Pure rule and the part's declaration.
 */
import { mailParts } from '../../composite/mailhealth-check/parts.js';
import type { TransportFinding } from '../../composite/mailhealth-check/transport-rules.js';
import type { HealthCheckStatus } from '../../composite/shared/verdict.js';
import type { BimiResult } from './bimi.js';
import { runBimiCheck } from './run.js';

/** absent: info; invalid: warning; valid: ok. */
export function bimiFinding(bimi: BimiResult): TransportFinding<BimiResult> {
  const details = bimi;
  const finding = (status: HealthCheckStatus, summary: string) => ({ status, summary, details });
  if (bimi.status === 'not-configured') return finding('info', 'No BIMI record: mail clients show no brand logo.');
  if (bimi.status === 'invalid')
    return finding('warning', `The BIMI record cannot be used (${bimi.errors[0] ?? 'invalid'}).`);
  return finding('ok', 'A BIMI logo is published and the DMARC policy makes it eligible.');
}

export const mailhealthPart = mailParts.part({
  id: 'bimi',
  label: 'BIMI logo',
  order: 100,
  description:
    'bimi (selector "default") — info: no record; warning: a record that cannot be used (bimi\'s errors say why); ok: valid.',
  fieldDescription: "bimi's data.",
  facts: (mail) => runBimiCheck(mail.checks, mail.domain, 'default'),
  findings: (bimi: BimiResult) => [{ host: null, ...bimiFinding(bimi) }],
});
