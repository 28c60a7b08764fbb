/**
 * mailhealth-check: gathering the mail transport parts' facts on the request's check context. The
 * single checks' run functions do the work, so their loaders are shared: one SMTP session (with
 * STARTTLS) per MX address serves both starttls and dane, the MX answer is the mx part's, the DMARC
 * answers are the dmarc part's (bimi's eligibility). The rules are transport-rules.ts's.
 */
import { NetdiagError } from '../../../errors.js';
import { MAIL_TRANSPORT_MAX_HOSTS } from '../../../loaders/fan-out-limits.js';
import type { HostFacts } from './transport-rules.js';

/** Runs `check` for each MX host (the first MAIL_TRANSPORT_MAX_HOSTS), by priority; the others are left out. */
export function perHost<R>(exchanges: readonly string[], check: (host: string) => Promise<R>): Promise<HostFacts<R>[]> {
  return Promise.all(
    exchanges.map(async (host, index): Promise<HostFacts<R>> => {
      if (index >= MAIL_TRANSPORT_MAX_HOSTS) return { host, omitted: true };
      try {
        return { host, result: await check(host) };
      } catch (e) {
        // a refused address (target rules), a name without addresses, a failed resolution: this host's
        // finding; a bug fails the request
        if (e instanceof NetdiagError) return { host, failure: e.message };
        throw e;
      }
    }),
  );
}
