/**
 * mailhealth-check: gathering the mail transport parts' facts on the request's check context. The
 * single checks' run functions do the work, so their loaders are shared: one SMTP session (with
 * STARTTLS) per MX address serves both starttls and dane, the MX answer is the mx part's, the DMARC
 * answers are the dmarc part's (bimi's eligibility). The rules are mail-transport-rules.ts's.
 */
import { NetdiagError } from '../../errors.js';
import type { CheckContext } from '../../loaders/context.js';
import { runDane } from '../mail/dane-run.js';
import { runSmtpStarttls } from '../mail/starttls-run.js';
import type { DaneResult } from '../mail/dane.js';
import type { SmtpStarttlsResult } from '../mail/starttls.js';
import type { TransportSkip } from './mail-details.js';
import { MAIL_TRANSPORT_MAX_HOSTS } from '../../loaders/fan-out-limits.js';
import type { PerHostFacts } from './mail-transport-rules.js';

/** Runs `check` for each MX host (the first MAIL_TRANSPORT_MAX_HOSTS); a host that cannot be tested is skipped with the reason. */
async function perHost<R>(exchanges: readonly string[], check: (host: string) => Promise<R>): Promise<PerHostFacts<R>> {
  const tested = exchanges.slice(0, MAIL_TRANSPORT_MAX_HOSTS);
  type Outcome = { result: R } | { skip: TransportSkip };
  const outcomes = await Promise.all(
    tested.map(async (host): Promise<Outcome> => {
      try {
        return { result: await check(host) };
      } catch (e) {
        // a refused address (target rules), a name without addresses, a failed resolution: this host's
        // finding; a bug fails the request
        if (e instanceof NetdiagError) return { skip: { host, reason: e.message } };
        throw e;
      }
    }),
  );
  const skipped: TransportSkip[] = outcomes.flatMap((o) => ('skip' in o ? [o.skip] : []));
  for (const host of exchanges.slice(MAIL_TRANSPORT_MAX_HOSTS))
    skipped.push({ host, reason: `only the first ${MAIL_TRANSPORT_MAX_HOSTS} MX hosts by priority are tested` });
  return { hosts: outcomes.flatMap((o) => ('result' in o ? [o.result] : [])), skipped };
}

export function starttlsFacts(
  ctx: CheckContext,
  exchanges: readonly string[],
): Promise<PerHostFacts<SmtpStarttlsResult>> {
  return perHost(exchanges, (hostname) =>
    runSmtpStarttls(ctx, { host: { kind: 'hostname', hostname }, port: ctx.ports.smtp }),
  );
}

export function daneFacts(ctx: CheckContext, exchanges: readonly string[]): Promise<PerHostFacts<DaneResult>> {
  return perHost(exchanges, (host) => runDane(ctx, { host, port: ctx.ports.smtp }));
}
