/**
 * mailhealth-check: gathering the mail transport parts' facts on the request's check context. The
 * single checks' run functions do the work, so their loaders are shared: one SMTP session (with
 * STARTTLS) per MX address serves both starttls and dane, the MX answer is the mx part's, the DMARC
 * answers are the dmarc part's (bimi's eligibility). The rules are transport-rules.ts's.
 */
import { NetdiagError } from '../../../errors.js';
import type { CheckContext } from '../../../loaders/context.js';
import { runDane } from '../../mail-transport/dane/run.js';
import { bogusBrokenLink } from '../../dns/dnssec-chain/broken-link.js';
import { runSmtpStarttls } from '../../mail-transport/smtp-starttls/run.js';
import type { SmtpStarttlsResult } from '../../mail-transport/smtp-starttls/starttls.js';
import { MAIL_TRANSPORT_MAX_HOSTS } from '../../../loaders/fan-out-limits.js';
import type { DaneFacts, HostFacts } from './transport-rules.js';

/** Runs `check` for each MX host (the first MAIL_TRANSPORT_MAX_HOSTS), by priority; the others are left out. */
function perHost<R>(exchanges: readonly string[], check: (host: string) => Promise<R>): Promise<HostFacts<R>[]> {
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

export function starttlsFacts(
  ctx: CheckContext,
  exchanges: readonly string[],
): Promise<HostFacts<SmtpStarttlsResult>[]> {
  return perHost(exchanges, (hostname) =>
    runSmtpStarttls(ctx, { host: { kind: 'hostname', hostname }, port: ctx.ports.smtp }),
  );
}

/** dane per MX host; bogus TLSA records come with the link of their chain of trust that breaks (dnssec-chain). */
export function daneFacts(ctx: CheckContext, exchanges: readonly string[]): Promise<HostFacts<DaneFacts>[]> {
  return perHost(exchanges, async (host): Promise<DaneFacts> => {
    const result = await runDane(ctx, { host, port: ctx.ports.smtp });
    if (result.dnssec !== 'bogus') return result;
    return { ...result, brokenLink: await bogusBrokenLink(ctx, result.name, 'TLSA') };
  });
}
