/**
 * tls-rpt: its object types; the check is ./check.ts.
 */
import type { TlsRptCheckResult } from './tls-rpt.js';
import { builder } from '../../../graphql/builder.js';
/* ----------------------------------------------------------------- TLS-RPT */

export const TlsRptCheck = builder.objectRef<TlsRptCheckResult>('TlsRptCheck').implement({
  description: 'SMTP TLS Reporting (RFC 8460): where sending MTAs report TLS failures with the MX hosts.',
  fields: (t) => ({
    domain: t.exposeString('domain'),
    found: t.exposeBoolean('found', {
      description: 'A TXT record beginning with v=TLSRPTv1 exists at _smtp._tls.<domain>.',
    }),
    record: t.exposeString('record', { description: 'The record that applies; "" when none (no record, or several).' }),
    multiple: t.exposeBoolean('multiple', {
      description: 'Several TLS-RPT records: none applies (RFC 8460 §3).',
    }),
    rua: t.exposeStringList('rua', { description: 'The rua= URIs (mailto: or https:) as written.' }),
    valid: t.exposeBoolean('valid', { description: 'Exactly one record, with a rua= and nothing invalid.' }),
    errors: t.exposeStringList('errors'),
  }),
});
