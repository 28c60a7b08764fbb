/** abuse-contact-lookup (docs/contract/api-v1.md): the registrar's abuse contact. */
import { bool, str } from '../../../watch/projection.js';
import { defineWatch } from '../../../watch/watch-spec.js';

export const abuseContactWatch = defineWatch({
  tool: 'abuse-contact-lookup',
  project(data) {
    return { found: bool(data.found), registrar: str(data.registrar), email: str(data.email), phone: str(data.phone) };
  },
  ranked: [],
  assess(data) {
    const name = str(data.matchedDomain) || str(data.domain) || '?';
    return data.found === true
      ? {
          status: 'ok',
          grade: null,
          summary: `Abuse reports for ${name} go to ${str(data.email) || str(data.phone) || '?'}.`,
        }
      : { status: 'info', grade: null, summary: `No abuse contact was found for ${name}.` };
  },
});
